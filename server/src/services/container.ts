import { DeskRepository } from '../repositories/desk-repository.js';
import { DeskService } from './desk-service.js';
import type { Agent } from 'node:https';
import type { Notifications } from '@enishi/contract';
import path from 'node:path';
import type { Config } from '../config.js';
import type { DatabaseConnections } from '../db/client.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { memoryRateLimiters, type RateLimiter, type RateLimiters } from '../lib/rate-limit.js';
import { memoryTokenBuckets, type TokenBucketsFactory } from '../lib/token-bucket.js';
import { Delivery, type PushSender } from '../realtime/delivery.js';
import type { StoredMessages } from '../realtime/message-order.js';
import { FairUse } from '../realtime/fair-use.js';
import { InProcessFanout, type Fanout } from '../realtime/fanout.js';
import { InProcessCallStore, type CallStore } from '../realtime/call-store.js';
import { InProcessForeground, type Foreground } from '../realtime/foreground.js';
import { InProcessSocketSeats, type SocketSeats } from '../realtime/socket-seats.js';
import { ApplicationRepository } from '../repositories/application-repository.js';
import { BannerRepository } from '../repositories/banner-repository.js';
import { BroadcastRepository } from '../repositories/broadcast-repository.js';
import { CallRepository } from '../repositories/call-repository.js';
import { ContentImageRepository } from '../repositories/content-image-repository.js';
import { AuditRepository } from '../repositories/audit-repository.js';
import { ConversationRepository } from '../repositories/conversation-repository.js';
import { MediaRepository } from '../repositories/media-repository.js';
import { MemberAdminRepository } from '../repositories/member-admin-repository.js';
import { MessageBatchRepository } from '../repositories/message-batch-repository.js';
import { MessageRepository } from '../repositories/message-repository.js';
import { NewsRepository } from '../repositories/news-repository.js';
import { ProfileRepository } from '../repositories/profile-repository.js';
import { PushRepository } from '../repositories/push-repository.js';
import { SecretRepository } from '../repositories/secret-repository.js';
import { UserRepository } from '../repositories/user-repository.js';
import { EntryRepository } from '../repositories/entry-repository.js';
import { FavoriteRepository } from '../repositories/favorite-repository.js';
import { SettingRepository } from '../repositories/setting-repository.js';
import { ApplicationService } from './application-service.js';
import type { LoginService } from './login-service.js';
import type { SecondFactorService } from './second-factor-service.js';
import { BannerService } from './banner-service.js';
import { BroadcastService } from './broadcast-service.js';
import { ContentImageService } from './content-image-service.js';
import { CallEffects } from './call-effects.js';
import { CallService, DEFAULT_CALL_TIMING, type CallTiming } from './call-service.js';
import { ConversationService } from './conversation-service.js';
import { MediaService } from './media-service.js';
import { MemberAdminService } from './member-admin-service.js';
import { MessagePosting } from './message-posting.js';
import { MessageService } from './message-service.js';
import { MessageWriter } from './message-writer.js';
import { NewsService } from './news-service.js';
import { ProfileImageService } from './profile-image-service.js';
import { ProfilePhotoService } from './profile-photo-service.js';
import { ProfileService } from './profile-service.js';
import { roomListCache } from './room-list-cache.js';
import { PushNotifier } from './push-notifier.js';
import { PushQueue } from './push-queue.js';
import { PushService } from './push-service.js';
import type { SessionService } from './session-service.js';
import { loginParts, sessionService } from './login-wiring.js';
import { UserService } from './user-service.js';
import { SettingService } from './setting-service.js';
import { WomenService } from './women-service.js';
import { EnquiryService } from './enquiry-service.js';
import { MemberTableService } from './member-table-service.js';
import { MemberTableRepository } from '../repositories/member-table-repository.js';

export interface Services {
  sessions: SessionService;
  login: LoginService;
  /** TOTP, passkeys, recovery codes and login tickets (product.md §11.7). */
  secondFactor: SecondFactorService;
  users: UserService;
  applications: ApplicationService;
  conversations: ConversationService;
  messages: MessageService;
  media: MediaService;
  delivery: Delivery;
  memberAdmin: MemberAdminService;
  memberTable: MemberTableService;
  profileImages: ProfileImageService;
  contentImages: ContentImageService;
  news: NewsService;
  banners: BannerService;
  broadcasts: BroadcastService;
  /** Per-member limits on the chat socket (sockets, messages, images). */
  fairUse: FairUse;
  desk: DeskService;
  push: PushService;
  pushNotifier: PushNotifier;
  foreground: Foreground;
  /** Member profiles, photos and the club's code lists. */
  profiles: ProfileService;
  profilePhotos: ProfilePhotoService;
  calls: CallService;
  women: WomenService;
  /** The external enquiry service, when configured (product.md §19.11). */
  enquiry: EnquiryService | null;
  settings: SettingService;
}

/** How pushes go out: who is looking (shared with Redis), and in tests the agent trusting the receiver. */
export interface PushDeps {
  foreground?: Foreground;
  agent?: Agent;
  onError?: (error: unknown) => void;
}

/** Voice calls: who is in which call and who is online (shared with Redis); tests shorten the timing. */
export interface CallDeps {
  store?: CallStore;
  presence?: Foreground;
  timing?: Partial<CallTiming>;
}

/** Fair use counted across instances: token buckets and socket seats in Redis; in memory unless given. */
export interface FairUseDeps {
  buckets?: TokenBucketsFactory;
  seats?: SocketSeats;
}

/**
 * Several instances (a shared fan-out): new messages reach this instance's sockets in id order, and what a
 * dead writer never published is read from the database (decision 019). `stored` is called only once the
 * instance starts, when the posting it comes from exists.
 */
function orderedDelivery(
  fanout: Fanout,
  push: PushSender,
  onError: (error: unknown) => void,
  stored: () => StoredMessages,
): Delivery {
  const several = !(fanout instanceof InProcessFanout);
  return new Delivery(fanout, push, {
    stored: several
      ? { newestId: () => stored().newestId(), between: (...args) => stored().between(...args) }
      : null,
    onError,
  });
}

/** What of the configuration the services read. */
type ServicesConfig = Pick<
  Config,
  'rateLimits' | 'dataDir' | 'push' | 'sessionCacheMs' | 'roomListCacheMs' | 'publicOrigin'
> &
  Partial<Pick<Config, 'enquiry'>>;

/**
 * Wires repositories into services. The one place that knows which implementation backs what: fan-out and
 * rate limits are in-process unless shared ones (Redis, see lib/redis.ts) are given.
 */
export function createServices(
  config: ServicesConfig,
  { db, ordered }: DatabaseConnections,
  clock: Clock = systemClock,
  fanout: Fanout = new InProcessFanout(),
  limiters: RateLimiters = memoryRateLimiters(clock),
  pushDeps: PushDeps = {},
  callDeps: CallDeps = {},
  fairUseDeps: FairUseDeps = {},
): Services {
  const { push, pushNotifier, foreground, onError } = pushParts(config, db, pushDeps, (reader) =>
    // Called only once services exist: the badge is the reader's counters.
    conversations.notifications(reader),
  );
  const messageRepository = new MessageRepository(db);
  const delivery = orderedDelivery(fanout, pushNotifier, onError, () => stored);
  const userRepository = new UserRepository(db);
  const conversationRepository = new ConversationRepository(db);
  const sessions = sessionService(config.sessionCacheMs, { db, clock, delivery, fanout });
  const media = new MediaService(
    new MediaRepository(db),
    new SecretRepository(db),
    path.join(config.dataDir, 'media'),
    clock,
  );
  const contentImages = new ContentImageService(media, new ContentImageRepository(db));
  const news = new NewsService(new NewsRepository(db), contentImages, delivery, clock);
  const conversations = new ConversationService(
    conversationRepository,
    userRepository,
    clock,
    (reader) => news.unseenCount(reader),
    { cache: roomListCache(config.roomListCacheMs, delivery, fanout), delivery },
  );
  const users = new UserService(userRepository, clock, delivery);
  const profileImages = new ProfileImageService(media, path.join(config.dataDir, 'media'), clock);
  const posting = new MessagePosting(
    // The one writer: its group commit gathers the messages of every socket.
    new MessageWriter(new MessageBatchRepository(db, ordered)),
    delivery,
    (ids) => media.sign(ids),
    (image) => profileImages.url(image),
  );
  const stored = posting.stored(messageRepository);
  const profileRepository = new ProfileRepository(db);
  const profilePhotos = new ProfilePhotoService(media, profileRepository);
  const { rateLimits } = config;
  const enquiry = config.enquiry ? new EnquiryService(config.enquiry) : null;
  const calls = createCallService(callDeps, {
    db,
    delivery,
    foreground,
    pushNotifier,
    posting,
    profileImages,
    limiter: limiters('calls', rateLimits.calls),
    clock,
    onError,
  });
  return {
    profiles: new ProfileService(profileRepository, userRepository, profilePhotos, clock),
    profilePhotos,
    enquiry,
    ...matchmaking(
      db,
      { profilePhotos, profileImages, conversations, posting, users: userRepository, delivery, enquiry },
      clock,
    ),
    sessions,
    fairUse: new FairUse(
      fairUseDeps.buckets ?? memoryTokenBuckets(clock),
      fairUseDeps.seats ?? new InProcessSocketSeats(),
      rateLimits,
    ),
    ...loginParts(db, { sessions, users: userRepository, limiters, config }, clock),
    users,
    applications: new ApplicationService(
      new ApplicationRepository(db),
      limiters('entry-address', rateLimits.entryPerAddress),
      clock,
      userRepository,
    ),
    conversations,
    messages: new MessageService(
      messageRepository,
      conversationRepository,
      conversations,
      media,
      delivery,
      posting,
      clock,
    ),
    media,
    delivery,
    memberTable: new MemberTableService(new MemberTableRepository(db)),
    memberAdmin: memberAdministration(
      db,
      { users, userRepository, profileImages, profileRepository, profilePhotos, delivery },
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
    desk: new DeskService(new DeskRepository(db), conversations, clock),
    push,
    pushNotifier,
    foreground,
    calls,
  };
}

/** Member records, their audit log and their pictures (product.md §11.6). */
function memberAdministration(
  db: DatabaseConnections['db'],
  deps: {
    users: UserService;
    userRepository: UserRepository;
    profileImages: ProfileImageService;
    profileRepository: ProfileRepository;
    profilePhotos: ProfilePhotoService;
    delivery: Delivery;
  },
  clock: Clock,
): MemberAdminService {
  return new MemberAdminService(
    new MemberAdminRepository(db),
    deps.userRepository,
    deps.users,
    new AuditRepository(db),
    deps.profileImages,
    deps.delivery,
    clock,
    {
      of: async (uid) => (await deps.profileRepository.photos(uid)).map((photo) => photo.path),
      remove: (paths) => deps.profilePhotos.remove(paths),
    },
  );
}

/** Push (product.md §16): keys and subscriptions, the queue, and the notifier that decides who gets what. */
function pushParts(
  config: Pick<Config, 'push'>,
  db: DatabaseConnections['db'],
  pushDeps: PushDeps,
  counters: (reader: { uid: number; role: number }) => Promise<Notifications>,
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
    agent: pushDeps.agent,
  });
  const pushNotifier = new PushNotifier(pushRepository, foreground, pushQueue, counters, onError);
  return { push, pushNotifier, foreground, onError };
}

/** Voice calls (product.md §17): in-process store and presence unless shared ones are given. */
function createCallService(
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
  return new CallService(store, effects, presence, deps.limiter, deps.clock, timing, deps.onError);
}

/** The women's list, favourites and setting requests (product.md §18, §19). */
function matchmaking(
  db: DatabaseConnections['db'],
  deps: {
    profilePhotos: ProfilePhotoService;
    profileImages: ProfileImageService;
    conversations: ConversationService;
    posting: MessagePosting;
    users: UserRepository;
    delivery: Delivery;
    enquiry: EnquiryService | null;
  },
  clock: Clock,
): Pick<Services, 'women' | 'settings'> {
  const women = new WomenService(
    new EntryRepository(db),
    new FavoriteRepository(db),
    deps.users,
    {
      photos: (ids) => deps.profilePhotos.sign(ids),
      picture: (stored) => deps.profileImages.url(stored),
    },
    clock,
  );
  const settings = new SettingService(
    new SettingRepository(db),
    deps.users,
    deps.conversations,
    deps.posting,
    (actor, kind, womanId) => women.mayAskFor(actor, kind, womanId),
    clock,
    deps.delivery,
    deps.enquiry,
  );
  return { women, settings };
}
