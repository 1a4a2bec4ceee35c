import { can, jaMember, japanTime, type ClosingDay, type ClosingDayAddBody } from '@enishi/contract';
import type { z } from 'zod';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { CalendarRepository } from '../repositories/calendar-repository.js';
import type { Actor } from './session-service.js';

const e = jaMember.calendar.errors;

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

  /** The closings that end today (Japan time) or later, by start date. */
  async closingDays(): Promise<ClosingDay[]> {
    const rows = await this.closings.closingsFrom(japanTime(new Date(this.clock())).dateKey);
    return rows.map((row) => ({ id: row.id, name: row.name, start: row.startDate, end: row.endDate }));
  }

  /** Adds a closing; one sharing a day with another is refused, naming that one. */
  async add(actor: Actor, input: z.output<typeof ClosingDayAddBody>): Promise<{ id: number }> {
    if (!can(actor, 'calendar.manage')) throw forbidden();
    const result = await this.closings.addUnlessOverlapping({
      name: input.name,
      startDate: input.start,
      endDate: input.end,
      createdBy: actor.uid,
    });
    if ('overlapping' in result) throw badRequest(e.overlaps(result.overlapping.name));
    return result;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    if (!can(actor, 'calendar.manage')) throw forbidden();
    if (!(await this.closings.remove(id))) throw notFound(e.notFound);
  }
}
