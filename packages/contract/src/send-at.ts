import { z } from 'zod';
import * as jaMember from './ja-member.js';

/** How far ahead a bulk send may be scheduled, and how late a time may be that was picked a moment ago. */
export const SCHEDULE_MAX_DAYS = 90;
export const SCHEDULE_GRACE_MS = 5 * 60 * 1000;
/** ISO 8601 with a date, a time and an offset (Z or ±hh:mm): a time that means one instant wherever read. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** A bulk send's time (product.md §4.6); whether it is past or too far ahead the server checks by its clock. */
export const SendAt = z
  .string({ error: jaMember.broadcast.sendAtMalformed })
  .regex(ISO_WITH_OFFSET, jaMember.broadcast.sendAtMalformed)
  .refine((value) => !Number.isNaN(Date.parse(value)), jaMember.broadcast.sendAtMalformed);
