import { can, ja, jaMember, ROLE } from '@enishi/contract';
import { useLocation } from 'react-router';
import { useSession } from '@/lib/session';
import { Page } from '@/components/layouts/page';
import { calls } from '@/features/call/controller';
import { StaffCallList } from '@/features/call/components/staff-call-list';
import { useStaffList } from '@/features/call/hooks/use-staff-list';
import './call.css';
import { Phrases } from '@/components/ui/phrases';

/**
 * /contact and /call (product.md §2, §17): the notice, then the staff with who is online. A male member calls
 * one by pressing them; staff see who is there (they call a member from the member's talk).
 */
export default function CallRoute() {
  const contact = useLocation().pathname === '/contact';
  // Whoever may call the staff (a male member) presses one; staff only see who is there.
  const male = can(useSession(), 'call.place', { role: ROLE.staff });
  const rows = useStaffList();
  return (
    <Page title={contact ? ja.screens.contact : ja.screens.call}>
      <p className="paper-card call-notice">
        <Phrases text={male || contact ? jaMember.calls.contactNotice : jaMember.calls.callNotice} />
      </p>
      <section className="call-staff" aria-labelledby="call-staff-title">
        <h2 id="call-staff-title" className="call-staff__title">
          {jaMember.calls.staffList}
        </h2>
        <StaffCallList
          rows={rows}
          onCall={male ? (row) => calls.ask({ uid: row.uid, name: row.name, image: row.image }) : undefined}
        />
      </section>
    </Page>
  );
}
