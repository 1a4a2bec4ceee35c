import type { Delivery } from '../bus/delivery.js';
import type { DatabaseConnections } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { RateLimiter } from '../lib/limiters.js';
import { CallRepository } from '../repositories/call-repository.js';
import { CallEffects } from '../services/call-effects.js';
import { CallRinging } from '../services/call-ringing.js';
import { CallService } from '../services/call-service.js';
import { CallTransitions, DEFAULT_CALL_TIMING, type CallTiming } from '../services/call-transitions.js';
import { InProcessCallStore, type CallStore } from '../services/call-store.js';
import { InProcessForeground, type Foreground } from '../services/foreground.js';
import type { MessagePosting } from '../services/message-posting.js';
import type { ProfileImageService } from '../services/profile-image-service.js';
import type { PushNotifier } from '../services/push-notifier.js';

/** Voice calls: who is in which call and who is online (shared with Redis); tests shorten the timing. */
export interface CallDeps {
  store?: CallStore;
  presence?: Foreground;
  timing?: Partial<CallTiming>;
}

/** Voice calls (product.md §17): in-process store and presence unless shared ones are given. */
export function createCallService(
  callDeps: CallDeps,
  deps: {
    db: DatabaseConnections['db'];
    delivery: Delivery;
    foreground: Foreground;
    pushNotifier: PushNotifier;
    posting: MessagePosting;
    profileImages: ProfileImageService;
    limiter: RateLimiter;
    clock: Clock;
    onError: (error: unknown) => void;
  },
): CallService {
  const presence = callDeps.presence ?? new InProcessForeground();
  const effects = new CallEffects(
    new CallRepository(deps.db),
    deps.delivery,
    presence,
    deps.foreground,
    deps.pushNotifier,
    deps.posting,
    (stored) => deps.profileImages.url(stored),
    deps.clock,
  );
  const store = callDeps.store ?? new InProcessCallStore();
  const timing = { ...DEFAULT_CALL_TIMING, ...callDeps.timing };
  const transitions = new CallTransitions(store, effects, deps.clock, timing, deps.onError);
  const ringing = new CallRinging(
    store,
    effects,
    transitions,
    deps.limiter,
    deps.clock,
    timing,
    deps.onError,
  );
  return new CallService(store, effects, transitions, ringing, presence, deps.clock);
}
