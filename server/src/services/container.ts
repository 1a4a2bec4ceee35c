import type { Agent } from 'node:https';
import type { Notifications } from '@enishi/contract';
import path from 'node:path';
import type { Config } from '../config.js';
import type { DatabaseConnections } from '../db/client.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { memoryRateLimiters, type RateLimiters } from '../lib/rate-limit.js';
import { Delivery } from '../realtime/delivery.js';
import { FairUse } from '../realtime/fair-use.js';
import { InProcessFanout, type Fanout } from '../realtime/fanout.js';
import { InProcessForeground, type Foreground } from '../realtime/foreground.js';
import { ApplicationRepository } from '../repositories/application-repository.js';
import { BannerRepository } from '../repositories/banner-repository.js';
import { BroadcastRepository } from '../repositories/broadcast-repository.js';
import { ContentImageRepository } from '../repositories/content-image-repository.js';
import { AuditRepository } from '../repositories/audit-repository.js';
import { ConversationRepository } from '../repositories/conversation-repository.js';
import { MediaRepository } from '../repositories/media-repository.js';
import { MemberAdminRepository } from '../repositories/member-admin-repository.js';
import { MessageBatchRepository } from '../repositories/message-batch-repository.js';
import { MessageRepository } from '../repositories/message-repository.js';
import { NewsRepository } from '../repositories/news-repository.js';
import { PushRepository } from '../repositories/push-repository.js';
import { SecretRepository } from '../repositories/secret-repository.js';
import { SessionRepository } from '../repositories/session-repository.js';
import { UserRepository } from '../repositories/user-repository.js';
import { ApplicationService } from './application-service.js';
import { BannerService } from './banner-service.js';
import { BroadcastService } from './broadcast-service.js';
import { ContentImageService } from './content-image-service.js';
import { ConversationService } from './conversation-service.js';
import { LoginService } from './login-service.js';
import { MediaService } from './media-service.js';
import { MemberAdminService } from './member-admin-service.js';
import { MessagePosting } from './message-posting.js';
import { MessageService } from './message-service.js';
import { MessageWriter } from './message-writer.js';
import { NewsService } from './news-service.js';
import { ProfileImageService } from './profile-image-service.js';
import { PushNotifier } from './push-notifier.js';
import { PushQueue } from './push-queue.js';
import { PushService } from './push-service.js';
import { SessionService } from './session-service.js';
import { UserService } from './user-service.js';

export interface Services {
  sessions: SessionService;
  login: LoginService;
  users: UserService;
  applications: ApplicationService;
  conversations: ConversationService;
  messages: MessageService;
  media: MediaService;
  delivery: Delivery;
  memberAdmin: MemberAdminService;
  profileImages: ProfileImageService;
  contentImages: ContentImageService;
  news: NewsService;
  banners: BannerService;
  broadcasts: BroadcastService;
  /** Per-member limits on what the chat socket takes (messages, images). */
  fairUse: FairUse;
  push: PushService;
  pushNotifier: PushNotifier;
  foreground: Foreground;
}

/** How pushes go out: who is looking (shared with Redis), and in tests the agent trusting the receiver. */
export interface PushDeps {
  foreground?: Foreground;
  agent?: Agent;
  onError?: (error: unknown) => void;
}

/** How long a successful login makes its address one the account may keep trying from. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Wires repositories into services. The one place that knows which implementation backs what: fan-out and
 * rate limits are in-process unless shared ones (Redis, see lib/redis.ts) are given.
 */
export function createServices(
  config: Pick<Config, 'rateLimits' | 'dataDir' | 'push'>,
  { db, ordered }: DatabaseConnections,
  clock: Clock = systemClock,
  fanout: Fanout = new InProcessFanout(),
  limiters: RateLimiters = memoryRateLimiters(clock),
  pushDeps: PushDeps = {},
): Services {
  const pushRepository = new PushRepository(db);
  const push = new PushService(pushRepository, new SecretRepository(db), config.push);
  const { foreground = new InProcessForeground(), onError = () => {} } = pushDeps;
  const pushQueue = new PushQueue({
    keys: () => push.loadKeys(),
    subject: config.push.subject,
    onGone: (endpoint) => pushRepository.removeEndpoint(endpoint),
    onError,
    agent: pushDeps.agent,
  });
  const pushNotifier: PushNotifier = new PushNotifier(
    pushRepository,
    foreground,
    pushQueue,
    // Called only once services exist: the badge is the reader's counters.
    (reader): Promise<Notifications> => conversations.notifications(reader),
    onError,
  );
  const delivery: Delivery = new Delivery(fanout, pushNotifier);
  const userRepository = new UserRepository(db);
  const conversationRepository = new ConversationRepository(db);
  const sessions = new SessionService(new SessionRepository(db), clock, delivery);
  const media = new MediaService(
    new MediaRepository(db),
    new SecretRepository(db),
    path.join(config.dataDir, 'media'),
    clock,
  );
  const contentImages = new ContentImageService(media, new ContentImageRepository(db));
  const news = new NewsService(new NewsRepository(db), contentImages, delivery, clock);
  const conversations = new ConversationService(conversationRepository, userRepository, clock, (reader) =>
    news.unseenCount(reader),
  );
  const users = new UserService(userRepository, clock, delivery);
  const profileImages = new ProfileImageService(media, path.join(config.dataDir, 'media'), clock);
  const posting = new MessagePosting(
    // The one writer: its group commit gathers the messages of every socket.
    new MessageWriter(new MessageBatchRepository(db, ordered)),
    delivery,
    (ids) => media.sign(ids),
    (stored) => profileImages.url(stored),
  );
  const { rateLimits } = config;
  return {
    sessions,
    fairUse: new FairUse(limiters, rateLimits),
    login: new LoginService(userRepository, sessions, {
      perAddress: limiters('login-address', rateLimits.loginPerAddress),
      perAccountAddress: limiters('login-account-address', rateLimits.loginPerAccountAddress),
      perAccount: limiters('login-account', rateLimits.loginPerAccount),
      knownAddresses: limiters('login-known', { max: 1, windowMs: KNOWN_ADDRESS_MS }),
    }),
    users,
    applications: new ApplicationService(
      new ApplicationRepository(db),
      limiters('entry-address', rateLimits.entryPerAddress),
      clock,
    ),
    conversations,
    messages: new MessageService(
      new MessageRepository(db),
      conversationRepository,
      conversations,
      media,
      delivery,
      posting,
      clock,
    ),
    media,
    delivery,
    memberAdmin: new MemberAdminService(
      new MemberAdminRepository(db),
      userRepository,
      users,
      new AuditRepository(db),
      profileImages,
      delivery,
      clock,
    ),
    profileImages,
    contentImages,
    news,
    banners: new BannerService(new BannerRepository(db), contentImages, clock),
    broadcasts: new BroadcastService(
      new BroadcastRepository(db),
      conversationRepository,
      media,
      posting,
      path.join(config.dataDir, 'media'),
      clock,
    ),
    push,
    pushNotifier,
    foreground,
  };
}
