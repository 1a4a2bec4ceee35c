import { Suspense, lazy } from 'react';
import { useSearchParams } from 'react-router';
import { useDeskLayout } from '@/components/layouts/app-layout';
import { Spinner } from '@/components/ui/spinner';
import { MemberNotes } from '@/features/desk/components/member-notes';
import { ja, type MemberKind, jaMember } from '@enishi/contract';
import { AuditLog } from '@/features/members/components/audit-log';
import { MemberEdit } from '@/features/members/components/member-edit';
import { MemberForm } from '@/features/members/components/member-form';
import { MemberList } from '@/features/members/components/member-list';
import { MemberMenu } from '@/features/members/components/member-menu';
import { memberKinds } from '@/features/members/utils/member-kinds';
import { Page } from '@/components/layouts/page';
import { Phrases } from '@/components/ui/phrases';

/*
 * The member and staff administration screens (product.md §2). One chunk for all of them: they share the list,
 * the form and the search. Staff admin is routed behind the owner guard.
 */

const menu = (kind: MemberKind) =>
  function MenuScreen() {
    return (
      <Page title={memberKinds[kind].titles.menu} lead={<Phrases text={jaMember.members.menuLead[kind]} />}>
        <MemberMenu kind={kind} />
      </Page>
    );
  };

/** The member tables (product.md §2.8): their own chunk with the table library, for staff at a desk only. */
const MemberTableScreen = lazy(async () => ({
  default: (await import('./member-table')).MemberTableScreen,
}));

const list = (kind: MemberKind, title = memberKinds[kind].titles.list) =>
  function ListScreen() {
    const desk = useDeskLayout();
    if (desk) {
      return (
        <Suspense fallback={<Spinner label={ja.app.loading} />}>
          <MemberTableScreen kind={kind} title={title} />
        </Suspense>
      );
    }
    return (
      <Page title={title}>
        <MemberList kind={kind} />
      </Page>
    );
  };

const add = (kind: MemberKind) =>
  function AddScreen() {
    return (
      <Page title={memberKinds[kind].titles.add}>
        <MemberForm kind={kind} />
      </Page>
    );
  };

const edit = (kind: MemberKind) =>
  function EditScreen() {
    const [params] = useSearchParams();
    const uid = /^\d{1,10}$/.test(params.get('id') ?? '') ? Number(params.get('id')) : 0;
    return (
      <Page title={memberKinds[kind].titles.edit}>
        <MemberEdit kind={kind} />
        {/* Staff notes on a member (product.md §2.6); a staff record has none. */}
        {kind !== 'staff' && uid > 0 ? <MemberNotes uid={uid} /> : null}
      </Page>
    );
  };

export const MenMenu = menu('men');
export const MenList = list('men');
export const MenAdd = add('men');
export const MenEdit = edit('men');
export const WomenMenu = menu('women');
export const WomenList = list('women');
export const ManageWomen = list('women', ja.screens.manageWomen);
export const WomenAdd = add('women');
export const WomenEdit = edit('women');
export const StaffMenu = menu('staff');
export const StaffList = list('staff');
export const StaffAdd = add('staff');
export const StaffEdit = edit('staff');

export function AuditLogScreen() {
  return (
    <Page title={jaMember.audit.title}>
      <AuditLog />
    </Page>
  );
}
