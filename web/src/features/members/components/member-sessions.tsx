import { ja, jaMember } from '@enishi/contract';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { DeviceList, DeviceSection } from '@/components/device-list';
import { ErrorNote } from '@/components/ui/error-note';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { useEndMemberSessions, useMemberSessions } from '../api/member-sessions';
import './profiles.css';
import { Phrases } from '@/components/ui/phrases';

/**
 * ログイン中の端末 on a member's (or, for the owner, a staff member's) record (product.md §2.1, §11.6): the
 * devices logged in as them, and one button that logs every one of them out, for a lost phone.
 */
export function MemberSessions({ uid, name }: { uid: number; name: string }) {
  const sessions = useMemberSessions(uid);
  const end = useEndMemberSessions(uid);
  const confirm = useConfirm();
  const rows = sessions.data?.rows ?? [];

  async function onEndAll() {
    if (
      !(await confirm({
        message: jaMember.sessions.staffConfirm(name),
        confirmLabel: jaMember.sessions.endOne,
      }))
    )
      return;
    try {
      const { count } = await end.mutateAsync();
      toastSuccess(jaMember.sessions.staffEnded(count));
    } catch (error) {
      toast(errorMessage(error));
    }
  }

  return (
    <DeviceSection
      block="member-sessions"
      title={jaMember.sessions.staffTitle}
      lead={jaMember.sessions.staffLead}
      loading={ja.app.loading}
      sessions={sessions}
    >
      {sessions.isError ? <ErrorNote error={sessions.error} /> : null}
      {sessions.isSuccess && rows.length === 0 ? (
        <p className="member-sessions__lead">
          <Phrases text={jaMember.sessions.staffNone} />
        </p>
      ) : null}
      {rows.length > 0 ? (
        <>
          <DeviceList rows={rows} />
          <Button
            variant="secondary"
            busy={end.isPending}
            disabled={end.isPending}
            onClick={() => void onEndAll()}
          >
            {jaMember.sessions.staffEndAll}
          </Button>
        </>
      ) : null}
    </DeviceSection>
  );
}
