import { jaMember } from '@enishi/contract';
import { CalendarAdmin } from '@/features/calendar/components/calendar-admin';
import { Page } from '@/components/layouts/page';

/** /calendar: the club's closing days, which the desk's auto-reply skips (product.md §9.3). */
export default function CalendarAdminRoute() {
  return (
    <Page title={jaMember.calendar.title}>
      <CalendarAdmin />
    </Page>
  );
}
