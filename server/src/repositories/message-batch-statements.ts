import { sql } from 'drizzle-orm';
import { param, PreparedStatement } from '../db/raw.js';
import {
  conversationReads,
  conversations,
  media,
  messages,
  users,
  type ConversationKind,
} from '../db/schema.js';
import { broadcastRecipients, broadcasts, scheduledBroadcasts } from '../db/schema-content.js';
import { mayWrite } from './message-repository.js';

/*
 * The two statements that store chat messages (message-batch-repository.ts runs them): a batch of chat
 * messages, and a bulk send with its history record (decision 027). Both take the order lock first.
 */

/*
 * Message ids must become visible in id order: a client catching up with "everything after id N" would
 * otherwise miss a message whose smaller id committed after a larger one it already saw. Every insert
 * therefore takes this transaction-scoped advisory lock before the id is drawn and holds it until commit,
 * so ids are drawn and committed one writer at a time. Inserts are short (images are processed before),
 * so the lock is held for a millisecond or two.
 */
export const MESSAGE_ORDER_LOCK = 0x656e_6973_6869; // "enishi"

/** What the batch statement answers per input row, in input order (see insertBatch). */
export interface InsertAnswer {
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
export const INSERT_BATCH = new PreparedStatement<InsertAnswer>(
  sql`
    with lock as materialized (select pg_advisory_xact_lock(${sql.raw(String(MESSAGE_ORDER_LOCK))})),
    v as (
      select ord, conversation_id, sender_id, coalesce(anywhere, false) as anywhere, body,
        coalesce(images, '{}') as images, reply_to_id, coalesce(announce, false) as announce,
        coalesce(message_type, 0) as message_type, stamp_id, client_id, created_at,
        coalesce(marks_read, false) as marks_read
      from json_to_recordset(${param(1)}::json) as v(ord int, conversation_id int, sender_id int,
        anywhere boolean, body text, images text[], reply_to_id bigint, announce boolean, message_type int,
        stamp_id int, client_id uuid, created_at timestamptz, marks_read boolean)
    ),
    c as (
      select c.id, c.kind, c.member_id, c.man_id, c.woman_id,
        (select u.role from ${users} u where u.id = c.member_id) as member_role
      from ${conversations} c
      where c.id = any(array(select conversation_id from v))
    ),
    ins as (
      insert into ${messages} (conversation_id, sender_id, body, images, reply_to_id, announce,
        message_type, stamp_id, client_id, created_at)
      select v.conversation_id, v.sender_id, v.body, v.images, v.reply_to_id, v.announce,
        v.message_type, v.stamp_id, v.client_id, v.created_at
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
export type BulkAnswer = Pick<InsertAnswer, 'id' | 'kind' | 'member_id' | 'member_role'> & {
  client_id: string | null;
};

/*
 * Parameters: the history room, the desk talks (an int array), the sender, the text, the time, the images (a
 * JSON array of each message's list, or empty) and the bulk send's type. Every row but the talk and its
 * images is the same, so the rows are made in the statement from the array (decision 027): no JSON per
 * copy to read, and client ids drawn by the database. The record goes to a history room and each copy to a
 * desk talk, or not at all (the write rule for a staff sender, with the bulk send's record as its one exception).
 * A scheduled send also gives its id and the claim it was taken with: the statement marks it sent and stores
 * it only while that claim still holds it, in the one transaction, so it is stored once (product.md §4.6).
 */
export const INSERT_BULK = new PreparedStatement<BulkAnswer>(
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
    claimed as materialized (
      update ${scheduledBroadcasts} set state = 'sent'
      where id = ${param(8)}::int and state = 'sending' and claim = ${param(9)}
      returning id
    ),
    go as materialized (
      select 1 as go where ${param(8)}::int is null or exists (select 1 from claimed)
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
      cross join go
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
      insert into ${broadcasts} (type, sender_id, history_message_id, created_at, scheduled_id)
      select ${param(7)}::int, ${param(3)}::int, ins.id, ${param(5)}::timestamptz, ${param(8)}::int
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
  9,
);
