import type { Config } from '../config.js';
import type { DatabaseConnections } from '../db/client.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { memoryLimiters, perWindow, type MakeLimiter } from '../lib/limiters.js';
import { Delivery } from '../bus/delivery.js';
import { InProcessFanout, type Fanout } from '../bus/fanout.js';
import { messageFact } from '../presenters/message-fact.js';
import { FairUse } from '../realtime/fair-use.js';
import { InProcessSocketSeats, type SocketSeats } from '../realtime/socket-seats.js';
import { ApplicationRepository } from '../repositories/application-repository.js';
import { BannerRepository } from '../repositories/banner-repository.js';
import { CalendarRepository } from '../repositories/calendar-repository.js';
import { ReportRepository } from '../repositories/report-repository.js';
import { ConversationRepository } from '../repositories/conversation-repository.js';
import { MemberTableRepository } from '../repositories/member-table-repository.js';
import { MessageRepository, type MessageRow } from '../repositories/message-repository.js';
import { NewsRepository } from '../repositories/news-repository.js';
import { ProfileRepository } from '../repositories/profile-repository.js';
import { UserRepository } from '../repositories/user-repository.js';
import { ApplicationService } from '../services/application-service.js';
import { BannerService } from '../services/banner-service.js';
import { CalendarService } from '../services/calendar-service.js';
import { ReportService } from '../services/report-service.js';
import type { BroadcastService } from '../services/broadcast-service.js';
import type { BroadcastScheduler } from '../services/broadcast-scheduler.js';
import type { CallService } from '../services/call-service.js';
import type { ContentImageService } from '../services/content-image-service.js';
import type { StampService } from '../services/stamp-service.js';
import type { ConversationService } from '../services/conversation-service.js';
import type { DeskService } from '../services/desk-service.js';
import type { DeskTalkService } from '../services/desk-talk-service.js';
import { EnquiryService } from '../services/enquiry-service.js';
import type { Foreground } from '../services/foreground.js';
import type { MediaService } from '../services/media-service.js';
import type { MemberAdminService } from '../services/member-admin-service.js';
import { MemberTableService } from '../services/member-table-service.js';
import { MemberImportService } from '../services/member-import-service.js';
import { MemberImportRepository } from '../repositories/member-import-repository.js';
import type { MessageService } from '../services/message-service.js';
import { NewsService } from '../services/news-service.js';
import { NotificationCounts } from '../services/notification-counts.js';
import type { ProfileImageService } from '../services/profile-image-service.js';
import type { ProfilePhotoService } from '../services/profile-photo-service.js';
import { ProfileService } from '../services/profile-service.js';
import type { PushNotifier } from '../services/push-notifier.js';
import type { PushService } from '../services/push-service.js';
import type { SessionService } from '../services/session-service.js';
import type { SettingService } from '../services/setting-service.js';
import { storedMessages } from '../services/stored-messages.js';
import { UserService } from '../services/user-service.js';
import type { WomenService } from '../services/women-service.js';
import { createCallService, type CallDeps } from './call-parts.js';
import { accountParts, type AccountServices, type LoginDeps } from './login-wiring.js';
import { matchmaking, memberAdministration } from './member-parts.js';
import { pictures, type Pictures } from './picture-parts.js';
import { pushParts, type PushDeps } from './push-parts.js';
import { talkServices, type Repositories } from './talk-parts.js';

export type { CallDeps } from './call-parts.js';
export type { PushDeps } from './push-parts.js';

/*
 * The composition root: the one place that knows which implementation backs what and builds every service
 * once, each after what it uses (no late binding). Fan-out and rate limits are in-process unless shared ones
 * (Redis, shared-state.ts) are given. The folders below it import one another one way only
 * (import-graph.test.ts).
 */

/**
 * Sessions and logins (login-wiring.ts): login and loginTickets, the second factor's settings (factors, totp,
 * passkeySetup, recoveryCodes, staffRequirement; product.md §11.7), reauth and notices (fresh proof and
 * notices about one's account, §11.8).
 */
export interface Services extends AccountServices {
  sessions: SessionService;
  users: UserService;
  applications: ApplicationService;
  conversations: ConversationService;
  /** The badge counters (notification-counts.ts). */
  notifications: NotificationCounts;
  messages: MessageService;
  media: MediaService;
  delivery: Delivery;
  memberAdmin: MemberAdminService;
  memberTable: MemberTableService;
  /** The member tables' CSV import (product.md §2.8). */
  memberImport: MemberImportService;
  profileImages: ProfileImageService;
  contentImages: ContentImageService;
  /** Stamps: the sets, the check of a sent stamp, the staff's new sets (product.md §12.8). */
  stamps: StampService;
  news: NewsService;
  banners: BannerService;
  broadcasts: BroadcastService;
  /** Sends scheduled bulk sends when due (product.md §4.6). */
  broadcastScheduler: BroadcastScheduler;
  /** Per-member limits on the chat socket (sockets, messages, images). */
  fairUse: FairUse;
  desk: DeskService;
  /** A desk talk's status and 担当 (product.md §2.6). */
  deskTalks: DeskTalkService;
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
  /** The club's closing days, which the auto-reply skips (product.md §9.3). */
  calendar: CalendarService;
  /** Reports for the admin and the owner (product.md §2.9). */
  reports: ReportService;
}

/** Fair use counted across instances: socket seats in Redis (its limits are the other limits'); in memory unless given. */
export interface FairUseDeps {
  seats?: SocketSeats;
}

/** What of the configuration the services read. */
type ServicesConfig = Pick<
  Config,
  'rateLimits' | 'dataDir' | 'push' | 'sessionCacheMs' | 'roomListCacheMs' | 'publicOrigin' | 'secretsKeyFile'
> &
  Partial<Pick<Config, 'reauthWindowMs'>> &
  Partial<Pick<Config, 'enquiry'>>;

/**
 * The message bus: one instance alone hands new messages to its sockets itself; several (a shared fan-out)
 * pass them through the message order, which reads from the database what a dead writer never published
 * (decision 019). The push notifier hears every event after the sockets.
 */
function messageBus(
  fanout: Fanout,
  push: PushNotifier,
  onError: (error: unknown) => void,
  stored: ReturnType<typeof storedMessages>,
): Delivery {
  const several = !(fanout instanceof InProcessFanout);
  return new Delivery(fanout, push, { stored: several ? stored : null, onError });
}

/**
 * Wires repositories into services, each built after what it uses: the badge counters, push, pictures and
 * the bus first, then the services that publish on the bus.
 */
export function createServices(
  config: ServicesConfig,
  connections: DatabaseConnections,
  clock: Clock = systemClock,
  fanout: Fanout = new InProcessFanout(),
  limiters: MakeLimiter = memoryLimiters(),
  pushDeps: PushDeps = {},
  callDeps: CallDeps = {},
  fairUseDeps: FairUseDeps = {},
  loginDeps: LoginDeps = {},
): Services {
  const { db } = connections;
  const repositories = {
    users: new UserRepository(db),
    conversations: new ConversationRepository(db),
    messages: new MessageRepository(db),
    news: new NewsRepository(db),
  };
  const notifications = new NotificationCounts(repositories.conversations, repositories.news);
  const pushing = pushParts(config, db, pushDeps, notifications);
  const shown = pictures(config, db, clock);
  const fact = (row: MessageRow) =>
    messageFact(row, shown.signImages, false, shown.profileUrl, shown.signStamp);
  const stored = storedMessages(repositories.messages, fact);
  const delivery = messageBus(fanout, pushing.pushNotifier, pushing.onError, stored);
  const core = {
    db,
    clock,
    delivery,
    fanout,
    limiters,
    onError: pushing.onError,
    push: pushing.pushNotifier,
  };
  const accounts = accountParts(config, core, loginDeps);
  const talk = talkServices(config, connections, repositories, {
    delivery,
    fanout,
    shown,
    clock,
    onError: pushing.onError,
  });
  const calls = createCallService(callDeps, {
    db,
    delivery,
    foreground: pushing.foreground,
    pushNotifier: pushing.pushNotifier,
    posting: talk.posting,
    profileImages: shown.profileImages,
    limiter: limiters(perWindow('calls', config.rateLimits.calls)),
    clock,
    onError: pushing.onError,
  });
  return {
    ...accounts,
    ...talk.services,
    ...clubServices(config, db, repositories, { delivery, shown, talk, clock, limiters, accounts }),
    notifications,
    delivery,
    media: shown.media,
    profileImages: shown.profileImages,
    contentImages: shown.contentImages,
    stamps: shown.stamps,
    profilePhotos: shown.profilePhotos,
    push: pushing.push,
    pushNotifier: pushing.pushNotifier,
    foreground: pushing.foreground,
    calls,
    fairUse: new FairUse(limiters, fairUseDeps.seats ?? new InProcessSocketSeats(), config.rateLimits),
  };
}

/** The club's other services: members and their records, profiles, applications, news, banners, matchmaking. */
function clubServices(
  config: ServicesConfig,
  db: DatabaseConnections['db'],
  repositories: Repositories,
  deps: {
    delivery: Delivery;
    shown: Pictures;
    talk: ReturnType<typeof talkServices>;
    clock: Clock;
    limiters: MakeLimiter;
    accounts: AccountServices;
  },
) {
  const { delivery, shown, clock } = deps;
  const { conversations } = deps.talk.services;
  const users = new UserService(repositories.users, clock, delivery);
  const profileRepository = new ProfileRepository(db);
  const enquiry = config.enquiry ? new EnquiryService(config.enquiry) : null;
  const { profilePhotos, profileImages } = shown;
  const matching = {
    profilePhotos,
    profileImages,
    conversations,
    posting: deps.talk.posting,
    delivery,
    enquiry,
  };
  return {
    users,
    enquiry,
    profiles: new ProfileService(profileRepository, repositories.users, profilePhotos, clock),
    ...matchmaking(db, { ...matching, users: repositories.users }, clock),
    applications: new ApplicationService(
      new ApplicationRepository(db),
      deps.limiters(perWindow('entry-address', config.rateLimits.entryPerAddress)),
      clock,
      repositories.users,
    ),
    memberTable: new MemberTableService(new MemberTableRepository(db)),
    memberImport: new MemberImportService(new MemberImportRepository(db), clock, delivery),
    memberAdmin: memberAdministration(
      db,
      {
        users,
        userRepository: repositories.users,
        profileImages,
        profileRepository,
        profilePhotos,
        delivery,
        accounts: deps.accounts,
        deskTalks: deps.talk.services.deskTalks,
      },
      clock,
    ),
    news: new NewsService(repositories.news, shown.contentImages, delivery, clock),
    banners: new BannerService(new BannerRepository(db), shown.contentImages, clock),
    calendar: new CalendarService(new CalendarRepository(db), clock),
    reports: new ReportService(new ReportRepository(db), clock),
  };
}
