import type { Notifications } from '@enishi/contract';
import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { conversationReads, conversations, messages, users, type ConversationKind } from '../db/schema.js';
import { ConversationRepository } from '../repositories/conversation-repository.js';
import { MessageBatchRepository } from '../repositories/message-batch-repository.js';
import { MessageRepository } from '../repositories/message-repository.js';
import { ENGINES, openTestDatabase } from '../test/database.js';
import { newMessage } from '../test/talk.js';
import {
  addUnread,
  countsAsUnread,
  countsAsUnreadSql,
  isInTalk,
  isInTalkSql,
  mayWrite,
  raisesBadge,
  readerOf,
  seesTalk,
  seesTalkSql,
  type Reader,
  type Talk,
} from './conversation-rules.js';

/*
 * Every rule of conversation-rules.ts, its SQL run on the real database through the queries that use it,
 * against its TypeScript predicate over the same rows: for every role, talk and sender.
 */

const PEOPLE = { admin: 1, owner: 2, staff: 3, man: 101, woman: 201, 'member in no talk': 101 } as const;
type Person = keyof typeof PEOPLE;
const READERS = Object.keys(PEOPLE) as Person[];
type Ids = Record<Person, number>;

interface NewTalk {
  kind: ConversationKind;
  memberId?: number;
  manId?: number;
  womanId?: number;
}
const TALKS: Record<string, (p: Ids) => NewTalk> = {
  'desk of a man': (p) => ({ kind: 'desk', memberId: p.man }),
  'desk of a woman': (p) => ({ kind: 'desk', memberId: p.woman }),
  'group talk st': (p) => ({ kind: 'st', manId: p.man, womanId: p.woman }),
  'staff room': () => ({ kind: 'staffroom' }),
  'bulk-send history sendmen': () => ({ kind: 'sendmen' }),
  'bulk-send history sendwomen': () => ({ kind: 'sendwomen' }),
};
/** The senders of each talk's messages; `system` is a message whose sender's account is gone. */
const SENDERS: Record<string, (p: Ids, talk: NewTalk) => number | null> = {
  'the member': (p, talk) => talk.memberId ?? talk.manId ?? p.man,
  'the other member': (p, talk) => ((talk.memberId ?? talk.manId ?? p.man) === p.man ? p.woman : p.man),
  staff: (p) => p.staff,
  system: () => null,
};

interface TalkRow extends Talk {
  id: number;
  memberRole: number | null;
}
interface MessageRow {
  id: number;
  conversationId: number;
  senderId: number | null;
  senderRole: number | null;
  deleted: boolean;
}
const noCounters = (): Notifications => ({ news: 0, fromStaff: 0, setting: 0, fromWomen: 0, fromMen: 0 });

describe.each(ENGINES)('conversation rules on %s: SQL and TypeScript agree', (engine) => {
  let database: DatabaseHandle;
  let conversationRepository: ConversationRepository;
  let messageRepository: MessageRepository;
  let batchRepository: MessageBatchRepository;
  const ids = {} as Ids;
  const talkNames = new Map<number, string>();

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    const { db } = database;
    conversationRepository = new ConversationRepository(db);
    messageRepository = new MessageRepository(db);
    batchRepository = new MessageBatchRepository(db, database.ordered);
    for (const [index, person] of READERS.entries()) {
      const [row] = await db
        .insert(users)
        .values({ loginId: `person-${index}`, name: person, passwordHash: 'h', role: PEOPLE[person] })
        .returning({ id: users.id });
      ids[person] = row!.id;
    }
    for (const [name, talkOf] of Object.entries(TALKS)) {
      const talk = talkOf(ids);
      const [row] = await db.insert(conversations).values(talk).returning({ id: conversations.id });
      talkNames.set(row!.id, name);
      for (const senderOf of Object.values(SENDERS)) {
        const senderId = senderOf(ids, talk);
        await db.insert(messages).values({ conversationId: row!.id, senderId, body: name });
      }
    }
    // Read marks and a deleted message, so that the unread queries have them to get right too.
    const [desk, group] = [...talkNames.keys()];
    const first = async (conversationId: number) =>
      Math.min(
        ...(await db.select().from(messages).where(eq(messages.conversationId, conversationId))).map(
          (row) => row.id,
        ),
      );
    await db.insert(conversationReads).values([
      { conversationId: desk!, userId: ids.owner, lastReadMessageId: (await first(desk!)) + 1 },
      { conversationId: group!, userId: ids.man, lastReadMessageId: await first(group!) },
    ]);
    await db
      .update(messages)
      .set({ deletedAt: new Date() })
      .where(eq(messages.id, await first(group!)));
  });
  afterAll(() => database.close());

  const nameOf = (uid: number | null) =>
    READERS.find((person) => ids[person] === uid) ?? (uid === null ? 'system' : `user ${uid}`);

  /** The database as it is now, read plainly: no rule is applied here. */
  async function snapshot() {
    const member = alias(users, 'member');
    const sender = alias(users, 'sender');
    const talks: TalkRow[] = await database.db
      .select({
        id: conversations.id,
        kind: conversations.kind,
        memberId: conversations.memberId,
        manId: conversations.manId,
        womanId: conversations.womanId,
        memberRole: member.role,
      })
      .from(conversations)
      .leftJoin(member, eq(member.id, conversations.memberId));
    const rows = await database.db
      .select({
        id: messages.id,
        conversationId: messages.conversationId,
        senderId: messages.senderId,
        senderRole: sender.role,
        deletedAt: messages.deletedAt,
      })
      .from(messages)
      .leftJoin(sender, eq(sender.id, messages.senderId));
    const marks = await database.db.select().from(conversationReads);
    const talkOf = new Map(talks.map((talk) => [talk.id, talk]));
    const all: (MessageRow & { talk: TalkRow })[] = rows.map(({ deletedAt, ...row }) => ({
      ...row,
      deleted: deletedAt !== null,
      talk: talkOf.get(row.conversationId)!,
    }));
    const markOf = (reader: Reader, conversationId: number) =>
      marks.find((mark) => mark.userId === reader.uid && mark.conversationId === conversationId)
        ?.lastReadMessageId ?? 0;
    /** The TypeScript rule over these rows, with the read mark: whether the reader has it unread. */
    const isUnread = (reader: Reader, m: (typeof all)[number]) =>
      !m.deleted &&
      countsAsUnread(reader, { kind: m.talk.kind, ...m }) &&
      m.id > markOf(reader, m.conversationId);
    const unreadOf = (reader: Reader) => all.filter((m) => seesTalk(reader, m.talk) && isUnread(reader, m));
    return { talks, messages: all, isUnread, unreadOf };
  }

  const talkLabel = (id: number) => talkNames.get(id) ?? `talk ${id}`;
  const messageLabel = (m: MessageRow) =>
    `#${m.id} in ${talkLabel(m.conversationId)} from ${nameOf(m.senderId)}`;
  const talkSet = (rows: { id: number }[]) => rows.map((row) => talkLabel(row.id)).sort();
  const messageSet = (rows: MessageRow[]) => rows.map(messageLabel).sort();

  it.each(READERS)('%s: membership and visibility of every talk', async (person) => {
    const reader = readerOf({ uid: ids[person], role: PEOPLE[person] });
    const { talks } = await snapshot();
    const select = () => database.db.select({ id: conversations.id }).from(conversations);

    expect(talkSet(await select().where(isInTalkSql(reader.uid)))).toEqual(
      talkSet(talks.filter((talk) => isInTalk(reader.uid, talk))),
    );
    expect(talkSet(await select().where(seesTalkSql(reader)))).toEqual(
      talkSet(talks.filter((talk) => seesTalk(reader, talk))),
    );
  });

  it.each(READERS)('%s: which messages a catching-up socket gets', async (person) => {
    const reader = readerOf({ uid: ids[person], role: PEOPLE[person] });
    const { messages: all } = await snapshot();
    const seen = all.filter((m) => seesTalk(reader, m.talk));

    const caughtUp = await messageRepository.after(reader, 0, 10_000);
    expect(messageSet(caughtUp.map((row) => ({ ...row, deleted: false })))).toEqual(
      messageSet(seen.filter((m) => !m.deleted)),
    );
    expect(await messageRepository.newestVisibleId(reader)).toBe(Math.max(0, ...seen.map((m) => m.id)));
  });

  it.each(READERS)('%s: in which talks a message is stored', async (person) => {
    const writer = readerOf({ uid: ids[person], role: PEOPLE[person] });
    const { talks } = await snapshot();
    const stored: Record<string, boolean> = {};
    const allowed: Record<string, boolean> = {};
    for (const talk of talks) {
      const [outcome] = await batchRepository.insertBatch([
        newMessage(talk.id, writer.uid, { mayWriteAnywhere: writer.isStaff }),
      ]);
      stored[talkLabel(talk.id)] = outcome!.created;
      allowed[talkLabel(talk.id)] = mayWrite(writer, talk);
    }
    expect(stored).toEqual(allowed);
  });

  it.each(READERS)('%s: which messages are unread, in lists, room rows and badges', async (person) => {
    const reader = readerOf({ uid: ids[person], role: PEOPLE[person] });
    const { talks, messages: all, isUnread, unreadOf } = await snapshot();
    const labelOf = new Map(all.map((m) => [m.id, messageLabel(m)]));
    const unread = unreadOf(reader);

    // The rule alone, over every message whether or not the reader sees its talk.
    const sender = alias(users, 'sender');
    const ruled = await database.db
      .select({
        id: messages.id,
        conversationId: messages.conversationId,
        senderId: messages.senderId,
      })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .leftJoin(sender, eq(sender.id, messages.senderId))
      .where(
        countsAsUnreadSql(reader, {
          kind: conversations.kind,
          senderId: messages.senderId,
          senderRole: sender.role,
        }),
      );
    const counted = all.filter((m) => countsAsUnread(reader, { kind: m.talk.kind, ...m }));
    expect(messageSet(ruled.map((row) => ({ ...row, senderRole: null, deleted: false })))).toEqual(
      messageSet(counted),
    );
    // The chat socket's badge, for each message as it arrives.
    const user = { uid: reader.uid, role: PEOPLE[person] };
    const raised = all.filter((m) =>
      raisesBadge(user, { from: m.senderId ?? 0, role: m.senderRole ?? 0, kind: m.talk.kind }),
    );
    expect(messageSet(raised)).toEqual(messageSet(counted));

    const listed = await conversationRepository.unread(reader, 10_000);
    expect(listed.map((row) => labelOf.get(row.messageId))).toEqual(
      unread.sort((a, b) => b.id - a.id).map(messageLabel),
    );

    const rowCounts: Record<string, number> = {};
    const expectedRowCounts: Record<string, number> = {};
    for (const talk of talks) {
      const item = await conversationRepository.findListItem(talk.id, reader);
      rowCounts[talkLabel(talk.id)] = item!.unread;
      // A room row counts its talk's unread messages; who may open the row is the list's concern.
      expectedRowCounts[talkLabel(talk.id)] = all.filter(
        (m) => m.conversationId === talk.id && isUnread(reader, m),
      ).length;
    }
    expect(rowCounts).toEqual(expectedRowCounts);

    const badges = noCounters();
    for (const row of await conversationRepository.unreadCounts(reader)) {
      addUnread(badges, reader.isStaff, row.kind, row.memberRole, row.count);
    }
    const expectedBadges = noCounters();
    for (const m of unread) addUnread(expectedBadges, reader.isStaff, m.talk.kind, m.talk.memberRole, 1);
    expect(badges).toEqual(expectedBadges);
  });
});
