import { ja, jaMember } from '@enishi/contract';
import type { ReactNode } from 'react';
import { useNow } from '@/lib/use-now';
import { Phrases } from '@/components/ui/phrases';
import type { CallEnd, CallState } from '../controller/call-state';
import { clock } from './call-bar';

/** What the overlay says in each phase (product.md §17): the title, and the notes and timer under it. */
export function CallPhaseText({ call, titleId }: { call: CallState; titleId: string }) {
  switch (call.phase) {
    case 'prompt':
      return <Title id={titleId}>{jaMember.calls.startPrompt}</Title>;
    case 'calling':
      return (
        <>
          <Title id={titleId}>{jaMember.calls.calling}</Title>
          {call.byPush ? (
            <p className="call__note">
              <Phrases text={jaMember.calls.ringingByPush} />
            </p>
          ) : null}
          {call.escalated ? (
            <p className="call__note">
              <Phrases text={jaMember.calls.escalated} />
            </p>
          ) : null}
        </>
      );
    case 'incoming':
      return (
        <>
          <Title id={titleId}>{jaMember.calls.incoming}</Title>
          <p className="call__note">{jaMember.calls.incomingFrom(call.party?.name ?? '')}</p>
        </>
      );
    case 'connecting':
    case 'active':
      return <InCall call={call} titleId={titleId} />;
    case 'ended':
      return (
        <>
          <Title id={titleId}>{endText(call.end)}</Title>
          {call.endedAfter !== null ? (
            <p className="call__note">{jaMember.calls.duration(call.endedAfter)}</p>
          ) : null}
        </>
      );
    default:
      return null;
  }
}

function Title({ id, children }: { id: string; children: ReactNode }) {
  return (
    // A live region around the heading: a screen reader hears each new phase (呼び出し中…, 通話が終了しました).
    <div role="status">
      <h2 id={id} className="call__title">
        {children}
      </h2>
    </div>
  );
}

function InCall({ call, titleId }: { call: CallState; titleId: string }) {
  const now = useNow(1000);
  const seconds = call.connectedAt === null ? 0 : Math.max(0, (now.getTime() - call.connectedAt) / 1000);
  return (
    <>
      <h2 id={titleId} className="call__title">
        {call.phase === 'active' ? jaMember.calls.inCall : jaMember.calls.connecting}
      </h2>
      {call.phase === 'active' ? (
        <p className="call__timer" role="timer" aria-label={jaMember.calls.inCall}>
          {clock(seconds)}
        </p>
      ) : null}
      {call.reconnecting ? (
        <p className="call__note" role="status">
          <Phrases text={jaMember.calls.connecting} />
        </p>
      ) : null}
    </>
  );
}

export function endText(end: CallEnd | null): string {
  switch (end) {
    case null:
    case 'hungUp':
      return jaMember.calls.reasons.ended;
    case 'micDenied':
      return jaMember.calls.micDenied;
    case 'unsupported':
      return jaMember.calls.unsupported;
    case 'notConnected':
      return ja.talk.notConnected;
    case 'failed':
      return jaMember.calls.reasons.dropped;
    default:
      return jaMember.calls.reasons[end];
  }
}
