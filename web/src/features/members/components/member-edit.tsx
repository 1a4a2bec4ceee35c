import { ja, kindOfRole, type MemberKind, jaMember } from '@enishi/contract';
import { useSearchParams } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { ButtonLink } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useMember } from '../api/get-member';
import { memberKinds } from '../utils/member-kinds';
import { MemberProfile } from './member-profile';
import { MemberForm } from './member-form';
import { MemberSessions } from './member-sessions';
import './members.css';
import { Phrases } from '@/components/ui/phrases';

/** /men/edit?id=, /women/edit?id=, /staff/edit?id=: the form filled with the record (of that kind only). */
export function MemberEdit({ kind }: { kind: MemberKind }) {
  const [params] = useSearchParams();
  const uid = /^\d{1,10}$/.test(params.get('id') ?? '') ? Number(params.get('id')) : 0;
  const member = useMember(uid);
  const user = member.data?.rows[0];

  if (uid > 0 && member.isPending) return <Spinner label={ja.app.loading} />;
  if (!user || kindOfRole(user.role) !== kind) {
    return (
      <div className="notice-box" role="alert">
        <p>
          <Phrases text={member.isError ? errorMessage(member.error) : jaMember.members.loadFailed} />
        </p>
        <ButtonLink to={memberKinds[kind].listPath} variant="secondary">
          {ja.app.back}
        </ButtonLink>
      </div>
    );
  }
  // Keyed by uid, so moving to another record starts a fresh form. Men and women have a profile too.
  return (
    <>
      <MemberForm key={user.uid} kind={kind} user={user} />
      {kind === 'staff' ? null : <MemberProfile key={`profile-${user.uid}`} uid={user.uid} />}
      <MemberSessions key={`sessions-${user.uid}`} uid={user.uid} name={user.name} />
    </>
  );
}
