import { jaMember } from '@enishi/contract';
import { useNow } from '@/lib/use-now';
import { HandsetIcon, MicIcon, MicOffIcon } from '@/components/ui/icons';
import type { CallState } from '../controller/call-state';
import type { CallActions } from './call-actions';

/** The call shrunk to a bar at the top: who, how long, mute, hang up, and back to the full view. */
export function CallBar({
  call,
  actions,
  onExpand,
}: {
  call: CallState;
  actions: CallActions;
  onExpand: () => void;
}) {
  const now = useNow(1000);
  const seconds = call.connectedAt === null ? 0 : Math.max(0, (now.getTime() - call.connectedAt) / 1000);
  const name = call.party?.name ?? '';
  return (
    <section className="call-bar" aria-label={jaMember.calls.bar(name)} data-call-phase={call.phase}>
      <button type="button" className="call-bar__expand" onClick={onExpand} title={jaMember.calls.expand}>
        <span className="call-bar__name">{jaMember.calls.bar(name)}</span>
        <span className="call-bar__time">
          {call.phase === 'active' ? clock(seconds) : jaMember.calls.connecting}
        </span>
        <span className="visually-hidden">{jaMember.calls.expand}</span>
      </button>
      <button
        type="button"
        className="call-bar__button"
        aria-pressed={call.muted}
        onClick={actions.toggleMute}
      >
        {call.muted ? <MicOffIcon size={18} /> : <MicIcon size={18} />}
        <span>{jaMember.calls.mute}</span>
      </button>
      <button type="button" className="call-bar__button call-bar__button--end" onClick={actions.hangUp}>
        <HandsetIcon size={18} />
        <span>{jaMember.calls.hangUp}</span>
      </button>
    </section>
  );
}

/** 3:12, 1:02:05. */
export function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(whole % 60)}` : `${m}:${pad(whole % 60)}`;
}
