import { ja } from './ja.js';
import { can } from './permissions.js';
import { ROLE_TRAITS } from './roles.js';
import type { GroupReadMarks } from './read-marks.js';
import type { ServerFrame } from './socket.js';

/*
 * The contract's constants and pure functions that the web's first loads use (a member's home, a talk, the
 * staff desk), kept apart from zod: the web bundles every module that imports zod with the schemas, which
 * only screens with forms load (decision 021). Import no zod here.
 */

/** The text of an error status whose reply carries none of its own (the server's and the client's fallback). */
export const ERROR_TEXT_BY_STATUS: Readonly<Record<number, string>> = {
  400: ja.errors.badRequest,
  401: ja.errors.unauthorized,
  403: ja.errors.forbidden,
  404: ja.errors.notFound,
  413: ja.errors.tooLarge,
  429: ja.errors.rateLimited,
};

/** Japan has one time zone and no daylight saving: Japan time is UTC+9 all year. */
export const JAPAN_OFFSET_MS = 9 * 60 * 60 * 1000;

/** The calendar date and clock time in Japan of an instant, whatever the time zone of the machine. */
export function japanTime(instant: Date): {
  year: number;
  month: number;
  day: number;
  weekday: number;
  minutes: number;
  dateKey: string;
} {
  const shifted = new Date(instant.getTime() + JAPAN_OFFSET_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    weekday: shifted.getUTCDay(),
    minutes: shifted.getUTCHours() * 60 + shifted.getUTCMinutes(),
    // `YYYY-MM-DD`, as messages are grouped and holidays are keyed.
    dateKey: shifted.toISOString().slice(0, 10),
  };
}

export const CONTENT_TYPE = { men: 1, women: 2 } as const;
export type ContentType = (typeof CONTENT_TYPE)[keyof typeof CONTENT_TYPE];
export type ContentGroup = keyof typeof CONTENT_TYPE;

/** A stored content type as the wire carries it: the women's group, or else the men's. */
export const contentTypeOf = (type: number): ContentType =>
  type === CONTENT_TYPE.women ? CONTENT_TYPE.women : CONTENT_TYPE.men;

/** Message text limit (the product leaves it open): long enough for any real message, short enough to render. */
export const MESSAGE_MAX = 5000;
/** Images in one message; each is resized by the client to 400 wide or 800 tall before it is sent. */
export const MESSAGE_IMAGES_MAX = 5;

/** Staff (roles 1-6) call male members (101) and male members call staff; no other pair may call. */
export const mayCall = (fromRole: number, toRole: number): boolean =>
  can({ uid: 0, role: fromRole }, 'call.place', { role: toRole });

/** A call that nobody answers ends with `timeout` after this (product.md §17.6). */
export const CALL_RING_MS = 60_000;
/** A male member's call not answered by then also rings every other online staff member. */
export const CALL_ESCALATE_MS = 30_000;
/** A call whose socket or peer is lost ends on both sides within this. */
export const CALL_DROP_MS = 10_000;
/** The client's ring sound repeats this often until answered, declined or cancelled. */
export const CALL_RING_REPEAT_MS = 2_000;

/** Close codes of the chat socket besides the standard ones (1001, 1009, 1013). */
export const SOCKET_CLOSE = { unauthenticated: 4401, sessionEnded: 4403, tooManySockets: 4429 } as const;

/**
 * The frame types the server sends, as a plain list: the web checks a frame's type against it instead of
 * parsing it with zod (decision 021), and ignores the types it does not know (product.md §15.4).
 */
export const SERVER_FRAME_TYPES = [
  'message',
  'delete',
  'error',
  'read',
  'notifications',
  'ready',
  'reload',
  'setting',
  'desk',
  'calling',
  'offer',
  'answer',
  'candidate',
  'cancelCall',
  'ringing',
  'staff',
  'updateConnection',
] as const satisfies readonly ServerFrame['type'][];
const serverFrameTypes: ReadonlySet<string> = new Set(SERVER_FRAME_TYPES);
/** A frame of a type this version knows; its fields are taken as the server sent them (decision 021). */
export const isServerFrame = (json: unknown): json is ServerFrame =>
  typeof json === 'object' &&
  json !== null &&
  typeof (json as { type?: unknown }).type === 'string' &&
  serverFrameTypes.has((json as { type: string }).type);

/** How many sides other than the sender's (by the sender's role) have read message `id`. */
export function groupReadCount(marks: GroupReadMarks, senderRole: number, id: number): number {
  const own = ROLE_TRAITS[senderRole]?.kind;
  return (Object.keys(marks) as (keyof GroupReadMarks)[]).filter((side) => side !== own && marks[side] >= id)
    .length;
}

/** Fills a saved reply's placeholders: {name} the member's name, {staff} the writer's. */
export function fillCannedReply(body: string, values: { name: string; staff: string }): string {
  return body.replaceAll('{name}', values.name).replaceAll('{staff}', values.staff);
}

/** A name's given name: the last word of a "姓 名" name, else the whole name. */
export function givenName(name: string): string {
  return (
    name
      .trim()
      .split(/[\s\u3000]+/)
      .at(-1) || name
  );
}

/** A group talk's name (product.md §3.7): the man's and the woman's given names joined by ×, 太郎×花子. */
export function groupTalkName(manName: string, womanName: string): string {
  return `${givenName(manName)}×${givenName(womanName)}`;
}

/**
 * `message_type` of a call's record in the member's staff talk (product.md §17.10). The call itself was the
 * notice (its ring, its push), so the record raises no toast or push of its own.
 */
export const CALL_RECORD_TYPE = 1;

/** A desk talk's statuses, 未対応, 対応中, 対応済み (product.md §2.6): here, so the desk reads them without zod. */
export const DESK_STATUSES = ['open', 'pending', 'done'] as const;
