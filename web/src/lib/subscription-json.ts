import type { PushSubscriptionJson } from '@enishi/contract';

// Apart from push-device.ts: the app's start (lib/pwa.ts) needs only this, not the IndexedDB store.
/** A browser PushSubscription in the wire shape (product.md §16); null if it lacks keys. */
export function subscriptionJson(
  subscription: PushSubscription | null | undefined,
): PushSubscriptionJson | null {
  const json = subscription?.toJSON();
  if (!json?.endpoint || !json.keys?.p256dh || !json.keys.auth) return null;
  return {
    endpoint: json.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
  };
}
