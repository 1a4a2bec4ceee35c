import type { apiCalls } from '../http/calls.js';
import type { CalendarService } from '../services/calendar-service.js';

/**
 * The club's calendar (product.md §9.3): its closing days for anyone signed in (the auto-reply of a member's
 * talk with the desk skips them), and the admin's add and delete (calendar.manage).
 */
export function calendarRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { calendar: CalendarService },
): void {
  calls.session('calendar', 'account.use', async () => ({
    closingDays: await services.calendar.closingDays(),
  }));
  calls.session('calendar/add', 'calendar.manage', async ({ body, actor }) => ({
    status: 'OK',
    ...(await services.calendar.add(actor, body)),
  }));
  calls.session('calendar/delete', 'calendar.manage', async ({ body, actor }) => {
    await services.calendar.remove(actor, body.id);
    return { status: 'OK' };
  });
}
