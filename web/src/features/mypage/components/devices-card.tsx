import { jaMember, type SessionRow } from '@enishi/contract';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { DeviceList, DeviceSection } from '@/components/device-list';
import { ErrorNote } from '@/components/ui/error-note';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { useEndSessions, useSessions } from '../api/sessions';
import { Phrases } from '@/components/ui/phrases';

/**
 * ログイン中の端末 on mypage (product.md §2.3): every device logged in to this account, each with ログアウト,
 * and 他の端末からログアウト. An ended device's calls are refused and its chat closes at once.
 */
export function DevicesCard() {
  const sessions = useSessions();
  const end = useEndSessions();
  const confirm = useConfirm();
  const rows = sessions.data?.rows ?? [];
  const others = rows.filter((row) => !row.current).length;
  const busyId = end.isPending ? (end.variables ?? 'others') : null;

  async function endSessions(row: SessionRow | null) {
    const message = row ? jaMember.sessions.confirmOne(row.device) : jaMember.sessions.confirmOthers;
    if (!(await confirm({ message, confirmLabel: jaMember.sessions.endOne }))) return;
    try {
      await end.mutateAsync(row?.id ?? null);
      toastSuccess(row ? jaMember.sessions.endedOne : jaMember.sessions.endedOthers(others));
    } catch (error) {
      toast(errorMessage(error));
      void sessions.refetch();
    }
  }

  return (
    <DeviceSection
      block="devices-card"
      className="paper-card"
      title={jaMember.sessions.title}
      lead={jaMember.sessions.lead}
      loading={jaMember.sessions.loading}
      sessions={sessions}
    >
      {sessions.isError ? <ErrorNote error={sessions.error} /> : null}
      {rows.length > 0 ? (
        <DeviceList rows={rows} busyId={busyId} onEnd={(row) => void endSessions(row)} />
      ) : null}
      {sessions.isSuccess && others === 0 ? (
        <p className="devices-card__note">
          <Phrases text={jaMember.sessions.onlyThis} />
        </p>
      ) : null}
      {others > 0 ? (
        <Button
          variant="secondary"
          block
          busy={busyId === 'others'}
          disabled={busyId !== null}
          onClick={() => void endSessions(null)}
        >
          {jaMember.sessions.endOthers}
        </Button>
      ) : null}
    </DeviceSection>
  );
}
