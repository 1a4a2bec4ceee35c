import { z } from 'zod';
import { ssid } from './common.js';

/*
 * Push notifications (docs/product.md §16). The key and subscription calls are fixed by the wire contract;
 * what each person receives is their own choice, kept on the server so every device of theirs agrees.
 */

// POST /api/push/check (product.md §16.8): is this device's endpoint registered for the caller's session?
export const PushCheckBody = z.object({ ssid, endpoint: z.string().min(1).max(2048) }).strict();
export type PushCheckBody = z.infer<typeof PushCheckBody>;
export const PushCheckReply = z.object({ registered: z.boolean() });
export type PushCheckReply = z.infer<typeof PushCheckReply>;

// POST /api/pushkey
export const PushKeyBody = z.object({ ssid }).strict();
export type PushKeyBody = z.infer<typeof PushKeyBody>;
export const PushKeyReply = z.object({ publicKey: z.string().min(1) });
export type PushKeyReply = z.infer<typeof PushKeyReply>;

/**
 * Which kinds of push a person receives. Members read `staff` (their talk with the desk), `st` (group talks),
 * `news` and `broadcast` (bulk sends reach them in their desk talk, but may be muted apart); staff read `men`
 * and `women` (the desk talks of each) and `st`. Calls always ring, so they have no switch.
 */
export const PushKinds = z
  .object({
    staff: z.boolean(),
    st: z.boolean(),
    news: z.boolean(),
    broadcast: z.boolean(),
    men: z.boolean(),
    women: z.boolean(),
  })
  .strict();
export type PushKinds = z.infer<typeof PushKinds>;

/** `show_text`: the lock screen shows the message itself; off (the default), only who wrote. */
export const PushSettings = z.object({ show_text: z.boolean(), kinds: PushKinds }).strict();
export type PushSettings = z.infer<typeof PushSettings>;

export const DEFAULT_PUSH_SETTINGS: PushSettings = {
  show_text: false,
  kinds: { staff: true, st: true, news: true, broadcast: true, men: true, women: true },
};

// POST /api/pushsettings/get -> the caller's settings
export const PushSettingsGetBody = z.object({ ssid }).strict();
export type PushSettingsGetBody = z.infer<typeof PushSettingsGetBody>;

// POST /api/pushsettings/update: any part; what is left out stays. -> the settings as now stored
export const PushSettingsUpdateBody = z
  .object({ ssid, show_text: z.boolean().optional(), kinds: PushKinds.partial().strict().optional() })
  .strict();
export type PushSettingsUpdateBody = z.infer<typeof PushSettingsUpdateBody>;

/** The JSON a push carries (encrypted, RFC 8291): what the service worker shows. */
export const PushPayload = z
  .object({
    title: z.string(),
    body: z.string(),
    /** The path the notification opens: a talk, the news, or a call. */
    url: z.string().startsWith('/'),
    /** One per talk (or `news`, `call`), so several messages collapse into the latest. */
    tag: z.string(),
    /** The sum of the recipient's counters, for the app icon badge. */
    badge: z.number().int().nonnegative(),
    /**
     * *(here)* 送信取消 (product.md §15.4): the talk's notification is replaced, without a sound, by one that
     * says the message was taken back, so its words leave the lock screen.
     */
    quiet: z.boolean().optional(),
  })
  .strict();
export type PushPayload = z.infer<typeof PushPayload>;
