/*
 * Calls a page started before the app's scripts had arrived (product.md §2.7): a talk's HTML runs
 * `early-talk.ts` first, which asks for the talk's row and newest page at once, so that their answers come
 * while the scripts load. The API client takes such an answer instead of asking again, when its own call is the
 * same call (name, body and session) and the answer is fresh; the page and the client share nothing but the
 * list below on `globalThis`, so that the early script imports no module of the app (it would wait for them).
 */

/** A call started early: its answer, when it was asked for, and in whose session. */
export type EarlyCall = { at: number; ssid: string; response: Promise<Response> };

/** Where the early calls wait, by `callKey`. */
export const EARLY_CALLS = '__enishiEarlyCalls';

/** An answer older than this is not taken (the app asks afresh): ms. */
export const EARLY_CALL_FRESH_MS = 10_000;

/** A call's name and body (without `ssid`), as both sides name it. */
export const callKey = (name: string, body: object): string => `${name} ${JSON.stringify(body)}`;

function earlyCalls(): Map<string, EarlyCall> | undefined {
  return (globalThis as { [EARLY_CALLS]?: Map<string, EarlyCall> })[EARLY_CALLS];
}

/** The early call that is this call, still fresh: when it was asked for (ms since the epoch). */
export function earlyCallAt(name: string, body: object, ssid: string): number | undefined {
  const call = earlyCalls()?.get(callKey(name, body));
  return call && call.ssid === ssid && Date.now() - call.at < EARLY_CALL_FRESH_MS ? call.at : undefined;
}

/** The answer of the early call that is this call, still fresh; taken once. */
export function takeEarlyCall(name: string, body: object, ssid: string): Promise<Response> | undefined {
  const fresh = earlyCallAt(name, body, ssid) !== undefined;
  const key = callKey(name, body);
  const call = earlyCalls()?.get(key);
  earlyCalls()?.delete(key);
  return fresh ? call?.response : undefined;
}
