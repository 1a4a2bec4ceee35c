import type { apiCalls } from '../http/calls.js';
import type { CalendarService } from '../services/calendar-service.js';

/**
 * The club's calendar (product.md §9.3): its business hours and closing days for anyone signed in (the
 * auto-reply of a member's talk with the desk follows them), and the admin's changes (calendar.manage).
 */
export function calendarRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { calendar: CalendarService },
): void {
  calls.session('calendar', 'account.use', async () => ({
    closingDays: await services.calendar.closingDays(),
    hours: await services.calendar.hours(),
  }));
  calls.session('calendar/hours', 'calendar.manage', async ({ body, actor }) => {
    await services.calendar.setHours(actor, body.hours);
    return { status: 'OK' };
  });
  calls.session('calendar/add', 'calendar.manage', async ({ body, actor }) => ({
    status: 'OK',
    ...(await services.calendar.add(actor, body)),
  }));
  calls.session('calendar/delete', 'calendar.manage', async ({ body, actor }) => {
    await services.calendar.remove(actor, body.id);
    return { status: 'OK' };
  });
}
