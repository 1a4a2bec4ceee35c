import { z } from 'zod';
import { id } from './common.js';
import { ja } from './ja.js';

/*
 * Emergency voice calls (product.md §17): signalling frames on the chat socket, and the ICE servers of
 * `/api/config`. The callee accepts by sending the first `offer`; the caller replies with `answer`.
 */

/** SDP text of an offer or answer (an audio-only session is a few KiB). */
const Sdp = z
  .string({ error: ja.errors.badRequest })
  .min(1, ja.errors.badRequest)
  .max(32_768, ja.errors.tooLong);

/** An RTCIceCandidateInit; null marks the end of candidates. */
export const IceCandidate = z
  .object({
    candidate: z.string().max(2048),
    sdpMid: z.string().max(64).nullable().optional(),
    sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
    usernameFragment: z.string().max(256).nullable().optional(),
  })
  .strict();
export type IceCandidate = z.infer<typeof IceCandidate>;

// Client to server (product.md §17.1)
/** Start a call: rings every open app of `to`, or reaches it by push. */
export const CallingFrame = z.object({ type: z.literal('calling'), to: id }).strict();
export type CallingFrame = z.input<typeof CallingFrame>;
/** The callee accepts with the first offer; later offers (either side) restart ICE. */
export const OfferFrame = z.object({ type: z.literal('offer'), to: id, sdp: Sdp }).strict();
export type OfferFrame = z.input<typeof OfferFrame>;
export const AnswerFrame = z.object({ type: z.literal('answer'), to: id, sdp: Sdp }).strict();
export type AnswerFrame = z.input<typeof AnswerFrame>;
export const CandidateFrame = z
  .object({ type: z.literal('candidate'), to: id, ice: IceCandidate.nullable() })
  .strict();
export type CandidateFrame = z.input<typeof CandidateFrame>;
/**
 * Ends the call with `to`: the caller cancels, the callee declines, either hangs up. The server picks the
 * reason the other side sees; a client-given one is ignored.
 */
export const CancelCallFrame = z
  .object({ type: z.literal('cancelCall'), to: id, reason: z.string().max(32).optional() })
  .strict();
export type CancelCallFrame = z.input<typeof CancelCallFrame>;
/** Asks for the staff list with presence (answered with a `staff` frame). */
export const StaffListFrame = z.object({ type: z.literal('staff') }).strict();
export type StaffListFrame = z.input<typeof StaffListFrame>;

export const CallClientFrame = z.union([
  CallingFrame,
  OfferFrame,
  AnswerFrame,
  CandidateFrame,
  CancelCallFrame,
  StaffListFrame,
]);
export type CallClientFrame = z.input<typeof CallClientFrame>;

// Server to client (product.md §17.2)
/** Who a signalling frame comes from; `image` is a signed profile picture URL or null. */
export const CallParty = z.object({ uid: z.number(), name: z.string(), image: z.string().nullable() });
export type CallParty = z.infer<typeof CallParty>;

/**
 * Why a call ended, as the other side (or the caller) sees it:
 * - `declined`: the callee refused; `cancelled`: the caller gave up before an answer;
 * - `busy`: the callee is in another call; `offline`: the callee has no open app and no device to push to;
 * - `timeout`: nobody answered within CALL_RING_MS;
 * - extra here: `answered` (another device or staff member took the call: stop ringing), `ended` (the other
 *   side hung up), `dropped` (the other side's connection was lost).
 */
export const CALL_END_REASONS = [
  'declined',
  'cancelled',
  'busy',
  'offline',
  'timeout',
  'answered',
  'ended',
  'dropped',
] as const;
export const CallEndReason = z.enum(CALL_END_REASONS);
export type CallEndReason = z.infer<typeof CallEndReason>;

export const CallingEvent = z.object({ type: z.literal('calling'), from: CallParty });
export type CallingEvent = z.infer<typeof CallingEvent>;
export const OfferEvent = z.object({ type: z.literal('offer'), from: CallParty, sdp: z.string() });
export type OfferEvent = z.infer<typeof OfferEvent>;
export const AnswerEvent = z.object({ type: z.literal('answer'), from: CallParty, sdp: z.string() });
export type AnswerEvent = z.infer<typeof AnswerEvent>;
export const CandidateEvent = z.object({
  type: z.literal('candidate'),
  from: CallParty,
  ice: IceCandidate.nullable(),
});
export type CandidateEvent = z.infer<typeof CandidateEvent>;
export const CancelCallEvent = z.object({
  type: z.literal('cancelCall'),
  from: CallParty,
  reason: CallEndReason,
});
export type CancelCallEvent = z.infer<typeof CancelCallEvent>;
/**
 * Extra here, to the caller: the call now rings. `to` is who was called. `push`: at least one of the
 * people rung has no open app and was sent a high-urgency push instead. `escalated`: nobody answered within
 * CALL_ESCALATE_MS, so every other online staff member is rung too (the offer may then come from another
 * staff member: the caller takes the first offer).
 */
export const RingingEvent = z.object({
  type: z.literal('ringing'),
  to: CallParty,
  push: z.boolean(),
  escalated: z.boolean(),
});
export type RingingEvent = z.infer<typeof RingingEvent>;

export const StaffRow = z.object({
  uid: z.number(),
  name: z.string(),
  image: z.string().nullable(),
  isOnline: z.boolean(),
});
export type StaffRow = z.infer<typeof StaffRow>;
export const StaffListEvent = z.object({ type: z.literal('staff'), rows: z.array(StaffRow) });
export type StaffListEvent = z.infer<typeof StaffListEvent>;
/** A staff member's first socket opened or last one closed (to staff and male members). */
export const UpdateConnectionEvent = z.object({
  type: z.literal('updateConnection'),
  uid: z.number(),
  isOnline: z.boolean(),
});
export type UpdateConnectionEvent = z.infer<typeof UpdateConnectionEvent>;

export const CALL_SERVER_FRAMES = [
  CallingEvent,
  OfferEvent,
  AnswerEvent,
  CandidateEvent,
  CancelCallEvent,
  RingingEvent,
  StaffListEvent,
  UpdateConnectionEvent,
] as const;
export const CallServerFrame = z.discriminatedUnion('type', CALL_SERVER_FRAMES);
export type CallServerFrame = z.infer<typeof CallServerFrame>;

/** An RTCIceServer as `/api/config` gives it (TURN entries carry per-user credentials that expire). */
export const IceServer = z.object({
  urls: z.union([z.string(), z.array(z.string()).min(1)]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof IceServer>;
