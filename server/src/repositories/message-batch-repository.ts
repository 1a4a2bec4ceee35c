import { and, eq, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { param, PreparedStatement } from '../db/raw.js';
import {
  conversationReads,
  conversations,
  media,
  messages,
  users,
  type ConversationKind,
  type MessageRecord,
} from '../db/schema.js';
import { broadcastRecipients, broadcasts } from '../db/schema-content.js';
import type { ConversationAccess } from './conversation-repository.js';
import { mayWrite, type NewImage } from './message-repository.js';

/*
 * Message ids must become visible in id order: a client catching up with "everything after id N" would
 * otherwise miss a message whose smaller id committed after a larger one it already saw. Every insert
 * therefore takes this transaction-scoped advisory lock before the id is drawn and holds it until commit,
 * so ids are drawn and committed one writer at a time. Inserts are short (images are processed before),
 * so the lock is held for a millisecond or two.
 */
export const MESSAGE_ORDER_LOCK = 0x656e_6973_6869; // "enishi"

/** What storing a message gave (see insertBatch). */
export type InsertOutcome =
  | { created: true; message: MessageRecord; conversation: ConversationAccess }
  | { created: false; message: MessageRecord }
  | { created: false; message: null };

export interface NewMessage {
  conversationId: number;
  senderId: number;
  /** Staff write in any talk; members only in their own. */
  mayWriteAnywhere: boolean;
  body: string;
  images: NewImage[];
  replyToId: number | null;
  announce: boolean;
  messageType: number;
  /** Chosen by the sending client (the server makes one for messages of its own). */
  clientId: string;
  now: Date;
  /** Whether writing marks the talk read for the writer; a bulk send's messages do not (decision 005). */
  marksRead: boolean;
}

/**
 * A bulk send as its statement stores it (decision 027): the record in the history room, then one copy per
 * recipient's desk talk, all by one sender with one text at one time. Only the talks and the images differ.
 */
export interface NewBulkSend {
  type: number;
  senderId: number;
  body: string;
  historyConversationId: number;
  /** Each recipient's desk talk, in recipient order, each once. */
  deskIds: number[];
  /** The history message's images, then each copy's in the order of `deskIds`; empty when it has none. */
  images: NewImage[][];
  now: Date;
}

/** What the batch statement answers per input row, in input order (see insertBatch). */
interface InsertAnswer {
  id: number | string | null;
  conversation_id: number | null;
  kind: ConversationKind | null;
  member_id: number | null;
  member_role: number | null;
  man_id: number | null;
  woman_id: number | null;
}

/*
 * Parameters: the messages and the images as JSON arrays, and the batch's time. Talks and users are looked
 * up by key (`= any(array(...))`, a subquery per row): the rows come from JSON, so the planner cannot know
 * they are few and would otherwise scan whole tables.
 */
const INSERT_BATCH = new PreparedStatement<InsertAnswer>(
  sql`
    with lock as materialized (select pg_advisory_xact_lock(${sql.raw(String(MESSAGE_ORDER_LOCK))})),
    v as (
      select ord, conversation_id, sender_id, coalesce(anywhere, false) as anywhere, body,
        coalesce(images, '{}') as images, reply_to_id, coalesce(announce, false) as announce,
        coalesce(message_type, 0) as message_type, client_id, created_at, coalesce(marks_read, false) as marks_read
      from json_to_recordset(${param(1)}::json) as v(ord int, conversation_id int, sender_id int,
        anywhere boolean, body text, images text[], reply_to_id bigint, announce boolean, message_type int,
        client_id uuid, created_at timestamptz, marks_read boolean)
    ),
    c as (
      select c.id, c.kind, c.member_id, c.man_id, c.woman_id,
        (select u.role from ${users} u where u.id = c.member_id) as member_role
      from ${conversations} c
      where c.id = any(array(select conversation_id from v))
    ),
    ins as (
      insert into ${messages} (conversation_id, sender_id, body, images, reply_to_id, announce,
        message_type, client_id, created_at)
      select v.conversation_id, v.sender_id, v.body, v.images, v.reply_to_id, v.announce,
        v.message_type, v.client_id, v.created_at
      from v join c on ${mayWrite}
      cross join lock
      order by v.ord
      on conflict (sender_id, client_id) do nothing
      returning id, conversation_id, sender_id, client_id
    ),
    stored_media as (
      insert into ${media} (id, path, mime, width, height, bytes, conversation_id, message_id, owner_id,
        created_at)
      select m.id, m.path, m.mime, m.width, m.height, m.bytes, ins.conversation_id, ins.id, m.sender_id,
        m.created_at
      from json_to_recordset(${param(2)}::json) as m(id text, path text, mime text,
        width int, height int, bytes int, sender_id int, client_id uuid, created_at timestamptz)
      join ins on ins.sender_id = m.sender_id and ins.client_id = m.client_id
    ),
    activity as (
      update ${conversations} set last_activity_at = ${param(3)}::timestamptz
      where id = any(array(select conversation_id from ins))
    ),
    marks as (
      insert into ${conversationReads} (conversation_id, user_id, last_read_message_id)
      select ins.conversation_id, ins.sender_id, max(ins.id)
      from ins join v on v.sender_id = ins.sender_id and v.client_id = ins.client_id
      where v.marks_read
      group by ins.conversation_id, ins.sender_id
      on conflict (conversation_id, user_id) do update set last_read_message_id =
        greatest(${conversationReads}.last_read_message_id, excluded.last_read_message_id)
    )
    select ins.id, c.id as conversation_id, c.kind, c.member_id, c.member_role, c.man_id, c.woman_id
    from v
    left join c on ${mayWrite}
    left join ins on ins.sender_id = v.sender_id and ins.client_id = v.client_id
    order by v.ord`,
  3,
);

/** What the bulk statement answers per talk, history room first (see insertBulk). */
type BulkAnswer = Pick<InsertAnswer, 'id' | 'kind' | 'member_id' | 'member_role'> & {
  client_id: string | null;
};

/*
 * Parameters: the history room, the desk talks (an int array), the sender, the text, the time, the images (a
 * JSON array of each message's list, or empty) and the bulk send's type. Every row but the talk and its
 * images is the same, so the rows are made in the statement from the array (decision 027): no JSON per
 * copy to read, and client ids drawn by the database. The record goes to a history room and each copy to a
 * desk talk, or not at all (the write rule for a staff sender, with the bulk send's record as its one exception).
 */
const INSERT_BULK = new PreparedStatement<BulkAnswer>(
  sql`
    with lock as materialized (select pg_advisory_xact_lock(${sql.raw(String(MESSAGE_ORDER_LOCK))})),
    t as (
      select t.conversation_id, t.ord::int as ord
      from unnest(array[${param(1)}::int] || ${param(2)}::int[]) with ordinality as t(conversation_id, ord)
    ),
    c as (
      select c.id, c.kind, c.member_id, (select u.role from ${users} u where u.id = c.member_id) as member_role
      from ${conversations} c
      where c.id = any(array(select conversation_id from t))
    ),
    ok as (
      select t.ord, t.conversation_id, c.member_id
      from t join c on c.id = t.conversation_id
      where case when t.ord = 1 then c.kind in ('sendmen', 'sendwomen') else c.kind = 'desk' end
    ),
    imgs as (
      select e.ord::int as ord, array(
        select x.value ->> 'id' from jsonb_array_elements(e.list) with ordinality as x(value, n) order by x.n
      ) as ids
      from jsonb_array_elements(${param(6)}::jsonb) with ordinality as e(list, ord)
    ),
    ins as (
      insert into ${messages} (conversation_id, sender_id, body, images, client_id, created_at)
      select ok.conversation_id, ${param(3)}::int, ${param(4)}, coalesce(imgs.ids, '{}'), gen_random_uuid(),
        ${param(5)}::timestamptz
      from ok left join imgs on imgs.ord = ok.ord
      cross join lock
      order by ok.ord
      returning id, conversation_id, client_id
    ),
    stored_media as (
      insert into ${media} (id, path, mime, width, height, bytes, conversation_id, message_id, owner_id,
        created_at)
      select m.id, m.path, m.mime, m.width, m.height, m.bytes, ins.conversation_id, ins.id, ${param(3)}::int,
        ${param(5)}::timestamptz
      from jsonb_array_elements(${param(6)}::jsonb) with ordinality as e(list, ord)
      cross join jsonb_to_recordset(e.list) as m(id text, path text, mime text, width int, height int, bytes int)
      join t on t.ord = e.ord
      join ins on ins.conversation_id = t.conversation_id
    ),
    activity as (
      update ${conversations} set last_activity_at = ${param(5)}::timestamptz
      where id = any(array(select conversation_id from ins))
    ),
    bulk as (
      insert into ${broadcasts} (type, sender_id, history_message_id, created_at)
      select ${param(7)}::int, ${param(3)}::int, ins.id, ${param(5)}::timestamptz
      from ins where ins.conversation_id = ${param(1)}::int
      returning id
    ),
    bulk_recipients as (
      insert into ${broadcastRecipients} (broadcast_id, member_id, conversation_id, message_id)
      select bulk.id, ok.member_id, ins.conversation_id, ins.id
      from bulk cross join ins join ok on ok.conversation_id = ins.conversation_id
      where ok.ord > 1
    )
    select ins.id, ins.client_id, c.kind, c.member_id, c.member_role
    from t
    left join ok on ok.ord = t.ord
    left join c on c.id = ok.conversation_id
    left join ins on ins.conversation_id = ok.conversation_id
    order by t.ord`,
  7,
);

/** Writes chat messages in batches, in id order: the one statement that stores a chat message. */
export class MessageBatchRepository {
  /** `ordered` is the connection whose statements run in the order they are sent (see client.ts). */
  constructor(
    private readonly db: Database,
    private readonly ordered: Database,
  ) {}

  /**
   * Stores messages and their images, in id order (see MESSAGE_ORDER_LOCK), and moves each conversation's
   * activity time and each writer's read mark (whoever writes has read what came before). The outcomes come
   * back in input order:
   * - created, with the conversation it went to (who it reaches, how each reader names it);
   * - not created, with the stored message, for a repeat of a stored client id (or of an earlier one in the
   *   batch): the caller discards the images it prepared;
   * - not created, without a message, when the conversation does not exist or the sender may not write in
   *   it: a member only in their own talks (`mayWriteAnywhere` for staff), the rule of
   *   the contract's `can(actor, 'talk.read', {talk})`.
   *
   * It is one statement, so one round trip and its own transaction: the rows travel as one JSON parameter,
   * the talk is checked in the same statement, the order lock is taken before any id is drawn, and the other
   * writes hang off the inserted rows. A bulk send has a statement of its own (insertBulk).
   */
  async insertBatch(inputs: NewMessage[]): Promise<InsertOutcome[]> {
    if (inputs.length === 0) return [];
    // Fields at their default are left out (the statement fills them in): reading JSON costs per key.
    const rows = inputs.map((input, ord) => ({
      ord,
      conversation_id: input.conversationId,
      sender_id: input.senderId,
      body: input.body,
      client_id: input.clientId,
      created_at: input.now.toISOString(),
      ...(input.mayWriteAnywhere ? { anywhere: true } : {}),
      ...(input.images.length > 0 ? { images: input.images.map((image) => image.id) } : {}),
      ...(input.replyToId !== null ? { reply_to_id: input.replyToId } : {}),
      ...(input.announce ? { announce: true } : {}),
      ...(input.messageType !== 0 ? { message_type: input.messageType } : {}),
      ...(input.marksRead ? { marks_read: true } : {}),
    }));
    const images = inputs.flatMap((input) =>
      input.images.map((image) => ({
        ...image,
        sender_id: input.senderId,
        client_id: input.clientId,
        created_at: input.now.toISOString(),
      })),
    );
    const answered = await INSERT_BATCH.run(this.ordered, [
      JSON.stringify(rows),
      JSON.stringify(images),
      inputs.at(-1)!.now.toISOString(),
    ]);

    const key = (senderId: number | null, clientId: string | null) => `${senderId}:${clientId}`;
    const claimed = new Set<string>();
    const outcomes = inputs.map((input, index): InsertOutcome | null => {
      const row = answered[index]!;
      if (row.conversation_id === null) return { created: false, message: null };
      const k = key(input.senderId, input.clientId);
      if (row.id === null || claimed.has(k)) return null;
      claimed.add(k);
      const message: MessageRecord = {
        id: Number(row.id),
        conversationId: input.conversationId,
        senderId: input.senderId,
        body: input.body,
        images: input.images.map((image) => image.id),
        replyToId: input.replyToId,
        announce: input.announce,
        messageType: input.messageType,
        clientId: input.clientId,
        createdAt: input.now,
        deletedAt: null,
      };
      const conversation: ConversationAccess = {
        id: row.conversation_id,
        kind: row.kind!,
        memberId: row.member_id,
        memberRole: row.member_role,
        manId: row.man_id,
        womanId: row.woman_id,
      };
      return { created: true, message, conversation };
    });

    // Repeats of a stored client id answer the stored row (rare: a client re-sending after a lost echo).
    const repeats = inputs.filter((input, index) => outcomes[index] === null);
    if (repeats.length > 0) {
      const existing = await this.db
        .select()
        .from(messages)
        .where(
          or(
            ...repeats.map((input) =>
              and(eq(messages.senderId, input.senderId), eq(messages.clientId, input.clientId)),
            ),
          ),
        );
      const found = new Map(existing.map((row) => [key(row.senderId, row.clientId), row]));
      inputs.forEach((input, index) => {
        if (outcomes[index] === null) {
          outcomes[index] = { created: false, message: found.get(key(input.senderId, input.clientId))! };
        }
      });
    }
    return outcomes as InsertOutcome[];
  }

  /**
   * Stores a bulk send (decision 027) in one statement, so its record, its history message and every copy
   * are stored or none, in id order (the history message first, then the copies in recipient order). Copies
   * do not move the sender's read marks (decision 005). The outcomes come back as insertBatch's do, history
   * message first; a talk that is gone, or is not of the kind its place asks for, is not written to.
   */
  async insertBulk(bulk: NewBulkSend): Promise<InsertOutcome[]> {
    const hasImages = bulk.images.some((list) => list.length > 0);
    const answered = await INSERT_BULK.run(this.ordered, [
      String(bulk.historyConversationId),
      `{${bulk.deskIds.join(',')}}`,
      String(bulk.senderId),
      bulk.body,
      bulk.now.toISOString(),
      hasImages ? JSON.stringify(bulk.images) : '[]',
      String(bulk.type),
    ]);
    const talks = [bulk.historyConversationId, ...bulk.deskIds];
    return answered.map((row, index): InsertOutcome => {
      if (row.id === null) return { created: false, message: null };
      const conversationId = talks[index]!;
      const message: MessageRecord = {
        id: Number(row.id),
        conversationId,
        senderId: bulk.senderId,
        body: bulk.body,
        images: (bulk.images[index] ?? []).map((image) => image.id),
        replyToId: null,
        announce: false,
        messageType: 0,
        clientId: row.client_id!,
        createdAt: bulk.now,
        deletedAt: null,
      };
      const conversation: ConversationAccess = {
        id: conversationId,
        kind: row.kind!,
        memberId: row.member_id,
        memberRole: row.member_role,
        manId: null,
        womanId: null,
      };
      return { created: true, message, conversation };
    });
  }
}
