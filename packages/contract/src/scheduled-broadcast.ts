import { z } from 'zod';
import { id, ssid } from './common.js';
import { ContentTypeField, SendAt } from './content.js';
import { ja } from './ja.js';
import { CONTENT_TYPE, MESSAGE_MAX } from './wire.js';

/*
 * Scheduled bulk sends (予約送信, product.md §4.6): the time `/api/messages/send` may carry, and the calls that
 * list, change and cancel the sends still to go.
 */

// POST /api/broadcasts/scheduled {ssid, type} -> {rows}: the group's bulk sends still to go, soonest
// first (staff only).
export const ScheduledBody = z.object({ ssid, type: ContentTypeField }).strict();
export type ScheduledBody = z.input<typeof ScheduledBody>;
export const ScheduledRow = z.object({
  id: z.number(),
  type: z.union([z.literal(CONTENT_TYPE.men), z.literal(CONTENT_TYPE.women)]),
  message: z.string(),
  /** Pictures it carries (shown once sent: until then they belong to no message). */
  image_count: z.number(),
  name: z.string(),
  /** Recipients chosen. */
  count: z.number(),
  send_at: z.string(),
  /** `sending` while an instance is sending it: it can no longer be changed. */
  state: z.enum(['scheduled', 'sending']),
});
export type ScheduledRow = z.infer<typeof ScheduledRow>;
export const ScheduledReply = z.object({ rows: z.array(ScheduledRow) });
export type ScheduledReply = z.infer<typeof ScheduledReply>;

// POST /api/broadcasts/scheduled/update {ssid, id, send_at, message} -> {status: 'OK'}: a new time and
// text while it has not gone; /cancel {ssid, id} -> {status: 'OK'} takes it back (staff only).
export const ScheduledUpdateBody = z
  .object({
    ssid,
    id,
    send_at: SendAt,
    message: z.string({ error: ja.errors.badRequest }).max(MESSAGE_MAX, ja.errors.tooLong),
  })
  .strict();
export type ScheduledUpdateBody = z.input<typeof ScheduledUpdateBody>;
export const ScheduledCancelBody = z.object({ ssid, id }).strict();
export type ScheduledCancelBody = z.input<typeof ScheduledCancelBody>;
export const ScheduledOkReply = z.object({ status: z.literal('OK') });

/** The scheduled sends' calls, in the one call map (calls.ts). */
export const SCHEDULED_CALLS = {
  'broadcasts/scheduled': { body: ScheduledBody, reply: ScheduledReply },
  'broadcasts/scheduled/update': { body: ScheduledUpdateBody, reply: ScheduledOkReply },
  'broadcasts/scheduled/cancel': { body: ScheduledCancelBody, reply: ScheduledOkReply },
} as const;
