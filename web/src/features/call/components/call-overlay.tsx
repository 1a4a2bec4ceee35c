import { jaMember } from '@enishi/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { cx } from '@/components/ui/class-names';
import { UserIcon } from '@/components/ui/user-icon';
import type { CallState } from '../controller/call-state';
import { CallPhaseActions, type CallActions } from './call-actions';
import { CallBar } from './call-bar';
import { CallPhaseText } from './call-phase-text';
import '@/components/ui/confirm-dialog.css';
import './call-overlay.css';

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
      <CallPhaseText call={call} titleId={titleId} />
      <CallPhaseActions call={call} actions={actions} />
      {live ? (
        <button type="button" className="call__minimize" onClick={() => setSmall(true)}>
          {jaMember.calls.minimize}
        </button>
      ) : null}
    </dialog>
  );
}
