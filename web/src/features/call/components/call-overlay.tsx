import { ja, jaMember } from '@enishi/contract';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useNow } from '@/lib/use-now';
import { cx } from '@/components/ui/class-names';
import { HandsetIcon, MicIcon, MicOffIcon, SpeakerIcon } from '@/components/ui/icons';
import { UserIcon } from '@/components/ui/user-icon';
import { canChooseOutput, type CallEnd, type CallState } from '../controller/call-state';
import '@/components/ui/confirm-dialog.css';
import './call-overlay.css';
import { Phrases } from '@/components/ui/phrases';

/** What the overlay's buttons do (the app's controller, or a test's). */
export type CallActions = {
  start: () => void;
  hangUp: () => void;
  accept: () => void;
  decline: () => void;
  toggleMute: () => void;
  nextOutput: () => void;
  dismiss: () => void;
};

/** The call overlay (product.md §2.4, §17): a modal dialog for every phase but idle. */
export function CallOverlay({
  call,
  actions,
  viewerIsStaff,
}: {
  call: CallState;
  actions: CallActions;
  /** Staff talk with men and men with staff: the other side's icon takes that look. */
  viewerIsStaff: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // In a call the view may shrink to a bar on top, so the app stays usable (product.md §17).
  const [small, setSmall] = useState(false);
  const live = call.phase === 'connecting' || call.phase === 'active';
  if (small && !live) setSmall(false);
  const bar = small && live;
  const open = call.phase !== 'idle' && !bar;

  useEffect(() => {
    const element = dialog.current;
    if (!element || !open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal?.();
    return () => {
      if (element.open) element.close();
      if (previous?.isConnected) previous.focus();
    };
  }, [open]);

  // Each phase moves focus to its first action, so a screen reader hears the new state and Enter does the likely thing.
  useEffect(() => {
    dialog.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [call.phase]);

  if (bar && call.party) {
    return <CallBar call={call} actions={actions} onExpand={() => setSmall(false)} />;
  }
  if (!open || !call.party) return null;
  const party = call.party;
  return (
    <dialog
      ref={dialog}
      className={cx('dialog', 'call', `call--${call.phase}`)}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-call-phase={call.phase}
      onCancel={(event) => {
        // Escape: the harmless way out of each phase (never hangs up a live call by accident).
        event.preventDefault();
        if (call.phase === 'prompt') actions.hangUp();
        else if (call.phase === 'ended') actions.dismiss();
      }}
    >
      <div className="call__party">
        <span className={cx('call__avatar', call.phase === 'incoming' && 'call__avatar--ringing')}>
          <UserIcon
            name={party.name}
            role={0}
            image={party.image}
            size="lg"
            tone={viewerIsStaff ? 'men' : 'staff'}
          />
        </span>
        <p className="call__name">{party.name}</p>
      </div>
      <Body call={call} titleId={titleId} />
      <Actions call={call} actions={actions} />
      {live ? (
        <button type="button" className="call__minimize" onClick={() => setSmall(true)}>
          {jaMember.calls.minimize}
        </button>
      ) : null}
    </dialog>
  );
}

/** The call shrunk to a bar at the top: who, how long, mute, hang up, and back to the full view. */
function CallBar({
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

function Body({ call, titleId }: { call: CallState; titleId: string }) {
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

/** 3:12, 1:02:05. */
export function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(whole % 60)}` : `${m}:${pad(whole % 60)}`;
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

function Actions({ call, actions }: { call: CallState; actions: CallActions }) {
  switch (call.phase) {
    case 'prompt':
      return (
        <div className="call__actions">
          <button type="button" className="btn btn--quiet" onClick={actions.hangUp} data-autofocus>
            <span className="btn__label">{jaMember.calls.cancel}</span>
          </button>
          <button type="button" className="btn btn--primary" onClick={actions.start}>
            <HandsetIcon size={18} />
            <span className="btn__label">{jaMember.calls.start}</span>
          </button>
        </div>
      );
    case 'calling':
      return (
        <div className="call__actions call__actions--one">
          <RoundButton label={jaMember.calls.cancel} tone="end" onClick={actions.hangUp} autoFocus />
        </div>
      );
    case 'incoming':
      return (
        <div className="call__actions call__actions--round">
          <RoundButton label={jaMember.calls.decline} tone="end" onClick={actions.decline} />
          <RoundButton label={jaMember.calls.accept} tone="accept" onClick={actions.accept} autoFocus />
        </div>
      );
    case 'connecting':
    case 'active':
      return <InCallActions call={call} actions={actions} />;
    default:
      return (
        <div className="call__actions call__actions--one">
          <button type="button" className="btn btn--secondary" onClick={actions.dismiss} data-autofocus>
            <span className="btn__label">{ja.app.close}</span>
          </button>
        </div>
      );
  }
}

function InCallActions({ call, actions }: { call: CallState; actions: CallActions }) {
  return (
    <div className="call__actions call__actions--round">
      <button type="button" className="call__toggle" aria-pressed={call.muted} onClick={actions.toggleMute}>
        <span className="call__toggle-mark">{call.muted ? <MicOffIcon /> : <MicIcon />}</span>
        {jaMember.calls.mute}
      </button>
      {canChooseOutput() ? (
        <button
          type="button"
          className="call__toggle"
          aria-pressed={call.speaker}
          onClick={actions.nextOutput}
        >
          <span className="call__toggle-mark">
            <SpeakerIcon />
          </span>
          {jaMember.calls.speaker}
        </button>
      ) : null}
      <RoundButton label={jaMember.calls.hangUp} tone="end" onClick={actions.hangUp} autoFocus />
    </div>
  );
}

function RoundButton({
  label,
  tone,
  onClick,
  autoFocus,
}: {
  label: string;
  tone: 'accept' | 'end';
  onClick: () => void;
  autoFocus?: boolean;
}) {
  return (
    <button
      type="button"
      className={cx('call__round', `call__round--${tone}`)}
      onClick={onClick}
      data-autofocus={autoFocus || undefined}
    >
      <span className="call__round-icon" aria-hidden="true">
        <HandsetIcon size={28} />
      </span>
      <span className="call__round-label">{label}</span>
    </button>
  );
}
