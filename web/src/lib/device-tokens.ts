/*
 * Device tokens (product.md §11.4): each login returns one for its account, and the next login to that
 * account from this browser sends it, so an attack on the account does not throttle this device. Kept apart
 * from the app's state (lib/local-state), so logging out keeps them; at most a few accounts per browser.
 */
const KEY = 'enishi-devices';
const MAX_ACCOUNTS = 5;

function read(): Record<string, string> {
  try {
    const value: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The device token this browser holds for a login ID (any case), if any. */
export function deviceTokenFor(loginId: string): string | undefined {
  const token = read()[loginId.toLowerCase()];
  return typeof token === 'string' ? token : undefined;
}

export function keepDeviceToken(loginId: string, token: string): void {
  const account = loginId.toLowerCase();
  const others = Object.entries(read()).filter(([key]) => key !== account);
  const kept = Object.fromEntries([...others.slice(-(MAX_ACCOUNTS - 1)), [account, token]]);
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(kept));
  } catch {
    // storage full or blocked: the next login is throttled as one without a token
  }
}
