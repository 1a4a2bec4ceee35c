import { csvFile, japanTime, jaMember, type ReportReply } from '@enishi/contract';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { downloadText } from '@/lib/download';
import { useReport } from '../api/get-report';
import { reportTables, shortDay, type ReportTable } from '../utils/report-tables';
import { ReportChart, type ChartSeries } from './report-chart';
import './reports.css';

const t = jaMember.reports;
const NAVY = '#1f3157';
const GOLD = '#a98846';
const ROSE = '#a3405a';
const GREY = '#4f5a70';
const toMinutes = (seconds: number | null) => (seconds === null ? null : seconds / 60);

/** The months to choose from: this one and the 23 before it (and the one chosen, if older). */
function recentMonths(chosen: string): string[] {
  const now = japanTime(new Date());
  const months = Array.from({ length: 24 }, (_each, back) => {
    const date = new Date(Date.UTC(now.year, now.month - 1 - back, 1));
    return date.toISOString().slice(0, 7);
  });
  return months.includes(chosen) ? months : [...months, chosen];
}

/** /reports (product.md §2.9): a month's charts, each with its table and a CSV download. */
export function ReportsScreen() {
  const [month, setMonth] = useState(() => japanTime(new Date()).dateKey.slice(0, 7));
  const report = useReport(month);
  return (
    <div className="reports">
      <p className="reports__intro">
        <Phrases text={t.intro} />
      </p>
      <div className="reports__month field">
        <label htmlFor="report-month" className="field__label">
          {t.month}
        </label>
        <select
          id="report-month"
          className="field__input"
          value={month}
          onChange={(event) => setMonth(event.target.value)}
        >
          {recentMonths(month).map((each) => (
            <option key={each} value={each}>
              {t.monthLabel(each)}
            </option>
          ))}
        </select>
      </div>
      {report.isPending ? (
        <Spinner label={t.loading} />
      ) : report.isError ? (
        <p role="alert">
          <Phrases text={errorMessage(report.error)} />
        </p>
      ) : (
        <Report report={report.data} />
      )}
    </div>
  );
}

function Report({ report }: { report: ReportReply }) {
  const charts = useMemo(() => chartsOf(report), [report]);
  return (
    <>
      {reportTables(report).map((table) => (
        <section key={table.key} className="reports__section" aria-labelledby={`report-${table.key}`}>
          <div className="reports__head">
            <h2 id={`report-${table.key}`} className="reports__title">
              {table.title}
            </h2>
            <Button
              type="button"
              variant="secondary"
              onClick={() =>
                downloadText(t.fileName(table.file, report.month), csvFile(table.header, table.rows))
              }
              aria-label={t.csvOf(table.title)}
            >
              {t.csv}
            </Button>
          </div>
          <ReportChart label={t.chartLabel(table.title)} empty={t.empty} {...charts[table.key]} />
          <FigureTable table={table} />
        </section>
      ))}
    </>
  );
}

/** The chart's figures as a table: the screen reader's view of it (product.md §2.9). */
function FigureTable({ table }: { table: ReportTable }) {
  return (
    <div className="reports__table-box" tabIndex={0} role="region" aria-label={t.tableLabel(table.title)}>
      <table className="reports__table">
        <caption className="visually-hidden">{table.title}</caption>
        <thead>
          <tr>
            {table.header.map((cell) => (
              <th key={cell} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row[0]}>
              <th scope="row">{row[0]}</th>
              {row.slice(1).map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Chart = { labels: string[]; series: ChartSeries[]; bars?: boolean; counts?: boolean };

function chartsOf(report: ReportReply): Record<ReportTable['key'], Chart> {
  const days = report.days.map((day) => shortDay(day.day));
  return {
    replies: {
      labels: days,
      series: [
        { label: t.replies.median, values: report.days.map((day) => toMinutes(day.median)), color: NAVY },
        { label: t.replies.p90, values: report.days.map((day) => toMinutes(day.p90)), color: GOLD },
      ],
    },
    staff: {
      labels: report.staff.map((row) => row.name),
      bars: true,
      series: [
        { label: t.replies.median, values: report.staff.map((row) => toMinutes(row.median)), color: NAVY },
        { label: t.replies.p90, values: report.staff.map((row) => toMinutes(row.p90)), color: GOLD },
      ],
    },
    messages: {
      labels: days,
      counts: true,
      series: [
        { label: t.messages.members, values: report.days.map((day) => day.from_members), color: ROSE },
        { label: t.messages.staff, values: report.days.map((day) => day.from_staff), color: NAVY },
      ],
    },
    open: {
      labels: days,
      counts: true,
      series: [{ label: t.open.series, values: report.days.map((day) => day.open_talks), color: ROSE }],
    },
    settings: {
      labels: report.settings.map((month) => `${Number(month.month.slice(5))}月`),
      counts: true,
      series: t.settings.header.slice(1).map((label, index) => ({
        label,
        values: report.settings.map(
          (month) => [month.requested, month.arranged, month.declined, month.cancelled][index] ?? 0,
        ),
        color: [NAVY, GOLD, ROSE, GREY][index]!,
      })),
    },
  };
}
