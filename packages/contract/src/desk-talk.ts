import { z } from 'zod';
import { ja } from './ja.js';
import { id, ssid } from './common.js';
import { DeskAssignee, DeskStatus, DeskTalkState } from './talk.js';

/*
 * A desk talk's status and 担当 (product.md §2.6 "Talk status and 担当"): each member's talk with the desk is
 * 未対応 (open), 対応中 (pending) or 対応済み (done), and has one staff member as its 担当, or none. Staff only:
 * no member's call or frame carries either.
 */

// POST /api/desk/status {ssid, conversation_id, status} -> DeskTalkState
export const DeskStatusBody = z.object({ ssid, conversation_id: id, status: DeskStatus }).strict();
export type DeskStatusBody = z.input<typeof DeskStatusBody>;

// POST /api/desk/assign {ssid, conversation_id, assignee: uid | null} -> DeskTalkState (null: release)
export const DeskAssignBody = z.object({ ssid, conversation_id: id, assignee: id.nullable() }).strict();
export type DeskAssignBody = z.input<typeof DeskAssignBody>;

// POST /api/desk/counts {ssid} -> {open, pending, done, mine, mine_open}: the side navigation's counts.
export const DeskCountsBody = z.object({ ssid }).strict();
export const DeskCountsReply = z.object({
  open: z.number(),
  pending: z.number(),
  done: z.number(),
  /** Talks whose 担当 is the caller, not 対応済み. */
  mine: z.number(),
});
export type DeskCountsReply = z.infer<typeof DeskCountsReply>;

// POST /api/desk/staff {ssid} -> {rows: [{uid, name}], round_robin}: who may be 担当, in reading order.
export const DeskStaffBody = z.object({ ssid }).strict();
export const DeskStaffReply = z.object({ rows: z.array(DeskAssignee), round_robin: z.boolean() });
export type DeskStaffReply = z.infer<typeof DeskStaffReply>;

// POST /api/desk/round_robin {ssid, enabled} -> {round_robin}: the admin's switch (off by default).
export const DeskRoundRobinBody = z
  .object({ ssid, enabled: z.boolean({ error: ja.errors.badRequest }) })
  .strict();
export type DeskRoundRobinBody = z.input<typeof DeskRoundRobinBody>;
export const DeskRoundRobinReply = z.object({ round_robin: z.boolean() });

/** The desk's calls, gathered into CALLS (calls.ts). */
export const DESK_CALLS = {
  'desk/status': { body: DeskStatusBody, reply: DeskTalkState },
  'desk/assign': { body: DeskAssignBody, reply: DeskTalkState },
  'desk/counts': { body: DeskCountsBody, reply: DeskCountsReply },
  'desk/staff': { body: DeskStaffBody, reply: DeskStaffReply },
  'desk/round_robin': { body: DeskRoundRobinBody, reply: DeskRoundRobinReply },
} as const;

/** The desk list's filters as a client sends them (product.md §2.6). */
export type DeskListFilters = {
  desk_status?: DeskStatus;
  assignee?: 'me' | 'none' | number;
  unread_only?: boolean;
};
