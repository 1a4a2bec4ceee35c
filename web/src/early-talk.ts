import type { EarlyCall } from './lib/early-calls';

/*
 * The first script of a talk's HTML (shells/talk.html, product.md §2.7): before the app's scripts have arrived,
 * it asks for the talk's row and its newest page, the calls the talk's loader makes first (app/prefetch-talk.ts),
 * so that their answers come while the scripts load; the API client then takes them (lib/early-calls.ts). It
 * imports nothing of the app, which it would have to wait for: what it shares with the app (the session's
 * place, the calls' form) is held to the app's by early-talk.test.ts.
 */

/** The app's localStorage key (lib/local-state.ts). */
export const STORAGE_KEY = 'enishi';

function storedSession(): { session: string } | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as {
      session?: { session?: unknown };
    } | null;
    const session = stored?.session?.session;
    return typeof session === 'string' && session !== '' ? { session } : null;
  } catch {
    return null;
  }
}

/** Starts the talk's first calls when this page is a talk and someone is logged in on this device. */
export function startTalkCalls(): void {
  const [, desk, id] = /^\/talk\/(staff\/)?(\d{1,15})$/.exec(window.location.pathname) ?? [];
  const session = storedSession();
  if (!id || !session || !navigator.onLine) return;
  const calls = ((globalThis as { __enishiEarlyCalls?: Map<string, EarlyCall> }).__enishiEarlyCalls ??=
    new Map());
  const start = (name: string, body: object) => {
    const response = fetch(`/api/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ ssid: session.session, ...body }),
      credentials: 'same-origin',
    });
    // An answer nobody takes is not an error of the page.
    response.catch(() => undefined);
    calls.set(`${name} ${JSON.stringify(body)}`, { at: Date.now(), ssid: session.session, response });
  };
  start('get_conversation', { conversation_id: Number(id) });
  start('messages', { id: Number(id) });
  // The member area's account notices (asked for when it opens), and in a member's talk with the desk the
  // club's calendar its auto-reply follows: asked for after the first drawing otherwise, a round trip later.
  start('notices', {});
  if (desk) start('calendar', {});
}

startTalkCalls();
