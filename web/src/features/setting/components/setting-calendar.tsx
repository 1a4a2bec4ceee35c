import { SETTING_PAGE_SIZE, ja, jaMember, type SettingRow } from '@enishi/contract';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { cx } from '@/components/ui/class-names';
import { useSettings } from '../api/settings';
import { addDays, addMonths, japanToday, monthWeeks, weekDays } from '../utils/calendar';
import { settingSlot } from './setting-board';
import './setting-calendar.css';
import { ErrorNote } from '@/components/ui/error-note';

const t = jaMember.board;
/** Most arranged settings the calendar reads (pages of SETTING_PAGE_SIZE, newest first). */
const MAX_PAGES = 25;

/** Every arranged setting (up to MAX_PAGES pages), grouped by its day in Japan. */
function useArrangedByDay() {
  const settings = useSettings('arranged');
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = settings;
  const pages = settings.data?.pages.length ?? 0;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && pages < MAX_PAGES) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, pages, fetchNextPage]);
  const byDay = useMemo(() => {
    const days = new Map<string, SettingRow[]>();
    for (const row of settings.data?.pages.flatMap((page) => page.rows) ?? []) {
      const day = settingSlot(row).slice(0, 10);
      days.set(day, [...(days.get(day) ?? []), row]);
    }
    for (const rows of days.values()) rows.sort((a, b) => settingSlot(a).localeCompare(settingSlot(b)));
    return days;
  }, [settings.data]);
  return { settings, byDay, capped: pages * SETTING_PAGE_SIZE };
}

function dayLabel(day: string): string {
  const [, month, date] = day.split('-').map(Number) as [number, number, number];
  const weekday = t.weekdays[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7]!;
  return t.dayLabel(month, date, weekday);
}

/** The settings of one day: time, the pair, a link to their group talk. */
function DayEntries({ rows }: { rows: SettingRow[] }) {
  if (rows.length === 0) return null;
  return (
    <ul className="calendar__entries">
      {rows.map((row) => (
        <li key={row.id}>
          <Link
            className="calendar__entry"
            to={row.conversation_id ? `/talk/${row.conversation_id}` : `/setting/requests?status=arranged`}
          >
            <span className="calendar__time">{settingSlot(row).slice(11)}</span>
            <span className="calendar__pair">{t.pair(row.men.name, row.women.name)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Arranged settings by week or month (product.md §2.8), each linked to the pair's group talk. */
export function SettingCalendar() {
  const today = japanToday();
  const [scale, setScale] = useState<'week' | 'month'>('week');
  const [cursor, setCursor] = useState(today);
  const { settings, byDay } = useArrangedByDay();
  const week = weekDays(cursor);
  const [year, month] = cursor.split('-').map(Number) as [number, number];
  const title = scale === 'week' ? t.weekOf(dayLabel(week[0]!), dayLabel(week[6]!)) : t.monthOf(year, month);
  const move = (step: number) =>
    setCursor(scale === 'week' ? addDays(cursor, step * 7) : addMonths(cursor, step));

  return (
    <section className="calendar" aria-labelledby="calendar-title">
      <div className="calendar__bar">
        <h2 id="calendar-title" className="calendar__title" aria-live="polite">
          {title}
        </h2>
        <div className="calendar__nav">
          <button type="button" className="btn btn--quiet" onClick={() => move(-1)}>
            <span className="btn__label">{t.previous}</span>
          </button>
          <button type="button" className="btn btn--quiet" onClick={() => setCursor(today)}>
            <span className="btn__label">{t.today}</span>
          </button>
          <button type="button" className="btn btn--quiet" onClick={() => move(1)}>
            <span className="btn__label">{t.next}</span>
          </button>
        </div>
        <div className="calendar__scale" role="group" aria-label={t.scale}>
          {(['week', 'month'] as const).map((each) => (
            <button
              key={each}
              type="button"
              className="calendar__toggle"
              aria-pressed={scale === each}
              onClick={() => setScale(each)}
            >
              {t[each]}
            </button>
          ))}
        </div>
      </div>
      {settings.isPending ? <Spinner label={ja.app.loading} /> : null}
      {settings.isError ? <ErrorNote error={settings.error} /> : null}
      {scale === 'week' ? (
        <ol className="calendar__week">
          {week.map((day) => (
            <li key={day} className={cx('calendar__day', day === today && 'calendar__day--today')}>
              <h3 className="calendar__date">{dayLabel(day)}</h3>
              <DayEntries rows={byDay.get(day) ?? []} />
            </li>
          ))}
        </ol>
      ) : (
        <MonthGrid cursor={cursor} today={today} byDay={byDay} title={title} />
      )}
    </section>
  );
}

function MonthGrid({
  cursor,
  today,
  byDay,
  title,
}: {
  cursor: string;
  today: string;
  byDay: Map<string, SettingRow[]>;
  title: string;
}) {
  const month = cursor.slice(0, 7);
  return (
    <table className="calendar__month">
      <caption className="visually-hidden">{title}</caption>
      <thead>
        <tr>
          {t.weekdays.map((weekday) => (
            <th key={weekday} scope="col">
              {weekday}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {monthWeeks(cursor).map((days) => (
          <tr key={days[0]}>
            {days.map((day) => (
              <td
                key={day}
                className={cx(
                  'calendar__cell',
                  day.slice(0, 7) !== month && 'calendar__cell--other',
                  day === today && 'calendar__day--today',
                )}
                aria-label={dayLabel(day)}
              >
                <span className="calendar__number" aria-hidden="true">
                  {Number(day.slice(8))}
                </span>
                <DayEntries rows={byDay.get(day) ?? []} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
