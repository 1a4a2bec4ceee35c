import path from 'node:path';
import type { Config } from '../config.js';
import type { Delivery } from '../bus/delivery.js';
import type { Fanout } from '../bus/fanout.js';
import type { DatabaseConnections } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { BroadcastRepository } from '../repositories/broadcast-repository.js';
import type { ConversationRepository } from '../repositories/conversation-repository.js';
import { DeskRepository } from '../repositories/desk-repository.js';
import { MessageBatchRepository } from '../repositories/message-batch-repository.js';
import type { MessageRepository } from '../repositories/message-repository.js';
import type { NewsRepository } from '../repositories/news-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import { BroadcastService } from '../services/broadcast-service.js';
import { BroadcastScheduler } from '../services/broadcast-scheduler.js';
import { ScheduledBroadcastRepository } from '../repositories/scheduled-broadcast-repository.js';
import { ConversationService } from '../services/conversation-service.js';
import { DeskService } from '../services/desk-service.js';
import { DeskTalkRepository } from '../repositories/desk-talk-repository.js';
import { DeskTalkService } from '../services/desk-talk-service.js';
import { MessagePosting } from '../services/message-posting.js';
import { MessageService } from '../services/message-service.js';
import { MessageWriter } from '../services/message-writer.js';
import { UnsendRepository } from '../repositories/unsend-repository.js';
import { roomListCache } from '../services/room-list-cache.js';
import type { Pictures } from './picture-parts.js';

/** The repositories several parts share. */
export type Repositories = {
  users: UserRepository;
  conversations: ConversationRepository;
  messages: MessageRepository;
  news: NewsRepository;
};

/** Talks and their messages: room lists, the one writer and posting, the message service, bulk sends. */
export function talkServices(
  config: Pick<Config, 'roomListCacheMs' | 'dataDir'>,
  { db, ordered }: DatabaseConnections,
  repositories: Repositories,
  deps: {
    delivery: Delivery;
    fanout: Fanout;
    shown: Pictures;
    clock: Clock;
    onError: (error: unknown) => void;
  },
) {
  const { delivery, shown, clock } = deps;
  const conversations = new ConversationService(repositories.conversations, repositories.users, clock, {
    cache: roomListCache(config.roomListCacheMs, delivery, deps.fanout),
    delivery,
  });
  const deskTalks = new DeskTalkService(new DeskTalkRepository(db), delivery, clock);
  const posting = new MessagePosting(
    // The one writer: its group commit gathers the messages of every socket.
    new MessageWriter(new MessageBatchRepository(db, ordered)),
    delivery,
    shown.signImages,
    shown.profileUrl,
    shown.signStamp,
    deskTalks,
  );
  const messages = new MessageService(
    repositories.messages,
    repositories.conversations,
    conversations,
    shown.media,
    delivery,
    posting,
    clock,
    shown.stamps,
    new UnsendRepository(db),
  );
  const broadcasts = new BroadcastService(
    new BroadcastRepository(db),
    repositories.conversations,
    shown.media,
    posting,
    path.join(config.dataDir, 'media'),
    clock,
    new ScheduledBroadcastRepository(db),
  );
  const broadcastScheduler = new BroadcastScheduler(() => broadcasts.sendDue(), deps.onError);
  const desk = new DeskService(new DeskRepository(db), conversations, clock);
  return { posting, services: { conversations, messages, broadcasts, broadcastScheduler, desk, deskTalks } };
}
