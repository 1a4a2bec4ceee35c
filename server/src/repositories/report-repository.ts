import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/raw.js';

/** A month's bounds: its first instant, the first instant after it, and its days (Japan dates) to report. */
export interface ReportWindow {
  start: string;
  end: string;
  firstDay: string;
}

/** First replies grouped by day, by staff member, or over the month (both null). */
export interface ReplyGroup {
  day: string | null;
  staff_id: number | null;
  name: string | null;
  name_kana: string | null;
  grouped: number;
  replies: number;
  median: number | null;
  p90: number | null;
}

export interface TalkFigures {
  replies: ReplyGroup[];
  /**
   * Desk messages each day, and how the number of open desk talks changed that day (`firstDay`'s change
   * includes the talks open when the month began).
   */
  days: { day: string; members: number; staff: number; change: number }[];
}

export interface SettingFigure {
  month: string;
  status: string;
  count: number;
}

const JST = sql.raw(`'Asia/Tokyo'`);

/**
 * The SQL of the reports (product.md §2.9). One statement reads each desk talk's messages of the month and
 * where it stood when the month began from messages_report_idx alone (talk, time, id, sender: no table
 * rows), in the order of a talk (time, then id), and sorts them once.
 */
export class ReportRepository {
  constructor(private readonly db: Database) {}

  async talkFigures(window: ReportWindow): Promise<TalkFigures> {
    const start = sql`${window.start}::timestamptz`;
    const end = sql`${window.end}::timestamptz`;
    const firstDay = sql`${window.firstDay}::date`;
    const result = await this.db.execute(sql`
      with stream as (${deskStream(start, end)}),
      ordered as (
        select *, (created_at at time zone ${JST})::date as day, lag(from_member) over w as prev_member
        from stream window w as (partition by conversation_id order by created_at, id)
      ),
      -- A first reply: a staff message right after a member's; the wait from the first message of that run.
      marked as (
        select *, max(case when from_member and prev_member is not true then created_at end)
            over (w rows between unbounded preceding and current row) as asked_at
        from ordered window w as (partition by conversation_id order by created_at, id)
      ),
      replies as (
        select w.day, w.sender_id as staff_id, u.name, u.name_kana,
          extract(epoch from w.created_at - w.asked_at)::float8 as seconds
        from marked w
        left join users u on u.id = w.sender_id
        where not w.from_member and w.prev_member and not w.before
      )
      select
        (select coalesce(json_agg(r), '[]') from (
          select day::text, staff_id, max(name) as name, max(name_kana) as name_kana,
            grouping(day, staff_id) as grouped, count(*)::int as replies,
            percentile_cont(0.5) within group (order by seconds) as median,
            percentile_cont(0.9) within group (order by seconds) as p90
          from replies group by grouping sets ((day), (staff_id), ())
        ) r) as replies,
        -- A talk is open while its latest message is the member's: each message opens (+1) or closes (-1) it
        -- or leaves it, so a day's changes summed up to that day give the talks open at its end.
        (select coalesce(json_agg(x), '[]') from (
          select greatest(day, ${firstDay})::text as day,
            (count(*) filter (where from_member and not before))::int as members,
            (count(*) filter (where not from_member and not before))::int as staff,
            sum(from_member::int - coalesce(prev_member, false)::int)::int as change
          from marked group by 1
        ) x) as days`);
    const [row] = rowsOf<{ replies: unknown; days: unknown }>(result);
    const parse = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
    return {
      replies: parse<ReplyGroup[]>(row!.replies),
      days: parse<TalkFigures['days']>(row!.days),
    };
  }

  /** Setting requests that came in, and decisions made, each month from `start` up to `end`. */
  async settingFigures(start: string, end: string): Promise<SettingFigure[]> {
    const from = sql`${start}::timestamptz`;
    const to = sql`${end}::timestamptz`;
    const result = await this.db.execute(sql`
      select to_char(created_at at time zone ${JST}, 'YYYY-MM') as month, 'requested' as status, count(*)::int as count
      from setting_requests where created_at >= ${from} and created_at < ${to} group by 1
      union all
      select to_char(decided_at at time zone ${JST}, 'YYYY-MM'), status, count(*)::int
      from setting_requests where decided_at >= ${from} and decided_at < ${to} group by 1, 2`);
    return rowsOf<SettingFigure>(result);
  }
}

/**
 * Each desk talk: one row for where it stood when the month began (its latest message: the member's, dated
 * when their wait began, or the staff's), then the month's messages.
 */
function deskStream(start: SQL, end: SQL): SQL {
  return sql`
        select d.id as conversation_id, r.created_at, r.id, r.sender_id, r.before,
          coalesce(r.sender_id = d.member_id, false) as from_member
        from conversations d
        cross join lateral (
          (
            select coalesce(run.created_at, last.created_at) as created_at, 0::bigint as id, last.sender_id, true as before
            from (
              select m.created_at, m.sender_id from messages m
              where m.conversation_id = d.id and m.deleted_at is null and m.created_at < ${start}
              order by m.created_at desc, m.id desc limit 1
            ) last
            -- A member still waiting: their wait began with the first message since the staff's last one.
            left join lateral (
              select m.created_at, m.id from messages m
              where last.sender_id = d.member_id and m.conversation_id = d.id and m.deleted_at is null
                and m.created_at < ${start} and m.sender_id is distinct from d.member_id
              order by m.created_at desc, m.id desc limit 1
            ) staff on true
            left join lateral (
              select m.created_at from messages m
              where last.sender_id = d.member_id and m.conversation_id = d.id and m.deleted_at is null
                and (m.created_at, m.id) > (coalesce(staff.created_at, '-infinity'), coalesce(staff.id, 0))
              order by m.created_at, m.id limit 1
            ) run on true
          )
          union all
          (
            select m.created_at, m.id, m.sender_id, false from messages m
            where m.conversation_id = d.id and m.deleted_at is null
              and m.created_at >= ${start} and m.created_at < ${end}
          )
        ) r
        where d.kind = 'desk'
  `;
}
