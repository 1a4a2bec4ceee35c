import type { Config } from '../config.js';
import type { DatabaseConnections } from '../db/client.js';
import { PushRepository } from '../repositories/push-repository.js';
import { SecretRepository } from '../repositories/secret-repository.js';
import { InProcessForeground, type Foreground } from '../services/foreground.js';
import type { NotificationCounts } from '../services/notification-counts.js';
import { PushNotifier } from '../services/push-notifier.js';
import { PushQueue } from '../services/push-queue.js';
import { PushService } from '../services/push-service.js';

/** How pushes go out: who is looking (shared with Redis), and in tests the receiver's certificate. */
export interface PushDeps {
  foreground?: Foreground;
  ca?: Buffer;
  onError?: (error: unknown) => void;
}

/** Push (product.md §16): keys and subscriptions, the queue, and the notifier that decides who gets what. */
export function pushParts(
  config: Pick<Config, 'push'>,
  db: DatabaseConnections['db'],
  pushDeps: PushDeps,
  counts: NotificationCounts,
) {
  const pushRepository = new PushRepository(db);
  const push = new PushService(pushRepository, new SecretRepository(db), config.push);
  const { foreground = new InProcessForeground(), onError = () => {} } = pushDeps;
  const pushQueue = new PushQueue({
    keys: () => push.loadKeys(),
    subject: config.push.subject,
    allowedHosts: config.push.allowedHosts,
    onGone: (endpoint) => pushRepository.removeEndpoint(endpoint),
    onError,
    ca: pushDeps.ca,
  });
  const pushNotifier = new PushNotifier(
    pushRepository,
    foreground,
    pushQueue,
    (reader) => counts.of(reader),
    onError,
  );
  return { push, pushNotifier, foreground, onError };
}
