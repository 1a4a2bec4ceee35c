import { ja, jaMember } from '@enishi/contract';
import { cx } from '@/components/ui/class-names';
import { HandsetIcon, MicIcon, MicOffIcon, SpeakerIcon } from '@/components/ui/icons';
import { canChooseOutput, type CallState } from '../controller/call-state';

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

/** The overlay's buttons in each phase (product.md §17); the likely one takes the focus (data-autofocus). */
export function CallPhaseActions({ call, actions }: { call: CallState; actions: CallActions }) {
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
