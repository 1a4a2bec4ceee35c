import { ja, jaMember, ROLE_TRAITS } from '@enishi/contract';
import { Link } from 'react-router';
import { UserIcon } from '@/components/ui/user-icon';
import { useMemberNotes } from '../api/notes';
import { MemberNotes } from './member-notes';
import './desk.css';
import { Phrases } from '@/components/ui/phrases';

/** The desk's third pane (product.md §2.6): the member of the open talk, a link to their record, the notes. */
export function MemberPane({ uid }: { uid: number | null }) {
  const notes = useMemberNotes(uid);
  const member = notes.data?.member;
  if (!uid) {
    return (
      <aside className="desk-pane" aria-label={jaMember.desk.profile}>
        <p className="notice-box">
          <Phrases text={jaMember.desk.noProfile} />
        </p>
      </aside>
    );
  }
  const editPath = `/${ROLE_TRAITS[member?.role ?? 0]?.kind ?? 'men'}/edit`;
  return (
    <aside className="desk-pane" aria-label={jaMember.desk.profile}>
      {member ? (
        <section className="desk-profile paper-card" aria-label={jaMember.desk.profile}>
          <UserIcon name={member.name} role={member.role} image={member.image} />
          <div className="desk-profile__text">
            <p className="desk-profile__name">{member.name}</p>
            <p className="desk-profile__meta">
              {ja.roles[member.role]}
              {member.rank ? ` ・ ${ja.ranks[member.rank]}` : ''} ・ ID {member.id}
            </p>
            <Link className="page-link" to={`${editPath}?id=${member.uid}`}>
              {jaMember.desk.memberEdit}
            </Link>
          </div>
        </section>
      ) : null}
      <MemberNotes uid={uid} />
    </aside>
  );
}
