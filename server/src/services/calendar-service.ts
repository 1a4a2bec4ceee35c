import {
  can,
  clockMinutes,
  DEFAULT_HOURS,
  jaMember,
  japanTime,
  type BusinessDay,
  type BusinessHoursBody,
  type ClosingDay,
  type ClosingDayAddBody,
} from '@enishi/contract';
import type { NewAuditRecord } from '../db/schema-admin.js';
import type { BusinessHoursRecord } from '../db/schema.js';
import type { z } from 'zod';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { CalendarRepository } from '../repositories/calendar-repository.js';
import type { Actor } from './session-service.js';

const e = jaMember.calendar.errors;
const a = jaMember.calendar.audit;

const pad = (value: number) => String(value).padStart(2, '0');
const clock = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/**
 * An audit row of a calendar change (product.md §2.8): the admin is its target, its name says what changed
 * (営業時間 or 休業日), and `changes` holds the value before and after.
 */
function calendarAudit(actor: Actor, what: string, changes: NewAuditRecord['changes']): NewAuditRecord {
  return {
    actorId: actor.uid,
    actorName: actor.name,
    action: 'calendar',
    targetId: actor.uid,
    targetRole: actor.role,
    targetName: what,
    changes,
  };
}

/**
 * The club's calendar (product.md §9.3): the closing days the desk's auto-reply skips. Anyone signed in reads
 * those not yet over (a member's talk computes its auto-reply from them); the admin and the owner add and
 * delete them (calendar.manage).
 */
export class CalendarService {
  constructor(
    private readonly closings: CalendarRepository,
    private readonly clock: Clock,
  ) {}

  /** The hours of each weekday, Sunday first: the saved ones, DEFAULT_HOURS for a weekday never saved. */
  async hours(): Promise<BusinessDay[]> {
    const saved = new Map((await this.closings.hours()).map((row) => [row.weekday, row]));
    return DEFAULT_HOURS.map((fallback, weekday) => {
      const row = saved.get(weekday);
      return row
        ? { open: row.open, opens: clock(row.opensAt), closes: clock(row.closesAt) }
        : { ...fallback };
    });
  }

  /** Saves the hours of all seven weekdays, audited with the hours before and after. */
  async setHours(actor: Actor, hours: BusinessHoursBody['hours']): Promise<void> {
    if (!can(actor, 'calendar.manage')) throw forbidden();
    const before = await this.hours();
    const rows: BusinessHoursRecord[] = hours.map((day, weekday) => ({
      weekday,
      open: day.open,
      opensAt: clockMinutes(day.opens),
      closesAt: clockMinutes(day.closes),
    }));
    await this.closings.setHours(rows, calendarAudit(actor, a.hours, { hours: [before, hours] }));
  }

  /** The closings that end today (Japan time) or later, by start date. */
  async closingDays(): Promise<ClosingDay[]> {
    const rows = await this.closings.closingsFrom(japanTime(new Date(this.clock())).dateKey);
    return rows.map((row) => ({ id: row.id, name: row.name, start: row.startDate, end: row.endDate }));
  }

  /** Adds a closing; one sharing a day with another is refused, naming that one. */
  async add(actor: Actor, input: z.output<typeof ClosingDayAddBody>): Promise<{ id: number }> {
    if (!can(actor, 'calendar.manage')) throw forbidden();
    const result = await this.closings.addUnlessOverlapping(
      {
        name: input.name,
        startDate: input.start,
        endDate: input.end,
        createdBy: actor.uid,
      },
      calendarAudit(actor, a.closing, {
        closing: [null, { name: input.name, start: input.start, end: input.end }],
      }),
    );
    if ('overlapping' in result) throw badRequest(e.overlaps(result.overlapping.name));
    return result;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    if (!can(actor, 'calendar.manage')) throw forbidden();
    const removed = await this.closings.remove(id, (closing) =>
      calendarAudit(actor, a.closing, {
        closing: [{ name: closing.name, start: closing.startDate, end: closing.endDate }, null],
      }),
    );
    if (!removed) throw notFound(e.notFound);
  }
}
