import { ja, jaMember, kindOfRole, type MemberKind, type MemberTableRow } from '@enishi/contract';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@/components/layouts/page';
import { ButtonLink } from '@/components/ui/button';
import { CloseIcon, PersonAddIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { MemberNotes } from '@/features/desk/components/member-notes';
import { MemberTable } from '@/features/member-table/components/member-table';
import { useMember } from '@/features/members/api/get-member';
import { MemberForm } from '@/features/members/components/member-form';
import { MemberProfile } from '@/features/members/components/member-profile';
import { memberKinds } from '@/features/members/utils/member-kinds';
import { MemberSettings } from '@/features/setting/components/member-settings';
import './member-table.css';
import { ErrorNote } from '@/components/ui/error-note';

/*
 * The member tables of the back office from 1024 px (product.md §2.8): its own chunk with the table library,
 * loaded only by staff at a desk. Phones keep the search-and-pick list.
 */

/** The record of the open row, beside the table: editable in place with the member editor's own parts. */
function MemberPanel({ kind, row, onClose }: { kind: MemberKind; row: MemberTableRow; onClose: () => void }) {
  const member = useMember(row.uid);
  const user = member.data?.rows[0];
  const heading = useRef<HTMLHeadingElement>(null);
  const t = jaMember.table;
  useEffect(() => heading.current?.focus(), [row.uid]);
  return (
    <aside
      className="member-panel"
      aria-labelledby="member-panel-title"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) onClose();
      }}
    >
      <div className="member-panel__head">
        <h2 id="member-panel-title" ref={heading} tabIndex={-1} className="member-panel__title">
          {t.panel(row.name)}
        </h2>
        <button type="button" className="member-panel__close" onClick={onClose}>
          <CloseIcon size={20} />
          <span className="visually-hidden">{t.close}</span>
        </button>
      </div>
      {row.conversation_id ? (
        <Link to={`/talk/${row.conversation_id}`} className="page-link">
          {t.toTalk}
        </Link>
      ) : null}
      {member.isPending ? <Spinner label={ja.app.loading} /> : null}
      {member.isError ? <ErrorNote error={member.error} /> : null}
      {user && kindOfRole(user.role) === kind ? (
        <>
          <MemberForm key={user.uid} kind={kind} user={user} />
          {kind === 'staff' ? null : (
            <>
              <MemberSettings uid={user.uid} heading={t.settings} />
              <MemberNotes uid={user.uid} headingLevel={3} />
              <MemberProfile key={`profile-${user.uid}`} uid={user.uid} />
            </>
          )}
        </>
      ) : null}
    </aside>
  );
}

export function MemberTableScreen({ kind, title }: { kind: MemberKind; title: string }) {
  const [open, setOpen] = useState<MemberTableRow | null>(null);
  const { label, addPath } = memberKinds[kind];
  function close() {
    const uid = open?.uid;
    setOpen(null);
    // Back to the row that was open.
    requestAnimationFrame(() =>
      document.querySelector<HTMLButtonElement>(`[data-member-row="${uid}"] .member-table__open`)?.focus(),
    );
  }
  return (
    <div className={open ? 'member-admin member-admin--open' : 'member-admin'}>
      <div className="member-admin__main">
        <Page title={title}>
          <p className="member-admin__add">
            <ButtonLink to={addPath} variant="quiet" icon={<PersonAddIcon size={20} />}>
              {jaMember.members.add}
            </ButtonLink>
          </p>
          <MemberTable kind={kind} label={label} openUid={open?.uid ?? null} onOpen={setOpen} />
        </Page>
      </div>
      {open ? <MemberPanel key={open.uid} kind={kind} row={open} onClose={close} /> : null}
    </div>
  );
}
