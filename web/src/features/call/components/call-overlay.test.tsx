// @vitest-environment jsdom
import { ja, type CallParty, jaMember } from '@enishi/contract';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { callHarness, type CallHarness } from '@/testing/call';
import { clock } from './call-bar';
import { CallOverlay } from './call-overlay';

/* The overlay a user sees for each phase of a call, driven by the real controller (with a stand-in connection). */

const man: CallParty = { uid: 101, name: '山田太郎', image: null };

beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Harness({ harness }: { harness: CallHarness }) {
  const { calls } = harness;
  const call = useSyncExternalStore(
    (listener) => calls.subscribe(listener),
    () => calls.getState(),
  );
  return (
    <CallOverlay
      viewerIsStaff
      call={call}
      actions={{
        start: () => calls.start(),
        hangUp: () => calls.hangUp(),
        accept: () => calls.accept(),
        decline: () => calls.decline(),
        toggleMute: () => calls.toggleMute(),
        nextOutput: () => void calls.nextOutput(),
        dismiss: () => calls.dismiss(),
      }}
    />
  );
}

function show() {
  const harness = callHarness();
  render(
    <>
      <button type="button">トーク</button>
      <Harness harness={harness} />
    </>,
  );
  return harness;
}

const dialog = () => screen.getByRole('dialog');
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('the call overlay', () => {
  it('shows nothing without a call', () => {
    show();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('outgoing: asks 緊急音声通話を開始しますか？, then calling, and cancel goes back', () => {
    const { calls, sent } = show();
    act(() => calls.ask(man));
    expect(dialog().getAttribute('aria-labelledby')).toBeTruthy();
    expect(screen.getByRole('heading', { name: jaMember.calls.startPrompt })).toBeTruthy();
    expect(dialog().textContent).toContain(man.name);
    // Focus moves into the overlay, on the harmless button.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: jaMember.calls.cancel }));
    fireEvent.click(screen.getByRole('button', { name: jaMember.calls.start }));
    expect(screen.getByRole('heading', { name: jaMember.calls.calling })).toBeTruthy();
    expect(sent).toEqual([{ type: 'calling', to: man.uid }]);
    act(() => calls.onFrame({ type: 'ringing', to: man, push: true, escalated: false }));
    expect(dialog().textContent).toContain(jaMember.calls.ringingByPush);
    fireEvent.click(screen.getByRole('button', { name: jaMember.calls.cancel }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent.at(-1)).toEqual({ type: 'cancelCall', to: man.uid });
  });

  it('incoming: the caller, accept focused, ringing until declined', () => {
    const harness = show();
    act(() => harness.calls.onFrame({ type: 'calling', from: man }));
    expect(screen.getByRole('heading', { name: jaMember.calls.incoming })).toBeTruthy();
    expect(dialog().textContent).toContain(jaMember.calls.incomingFrom(man.name));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: jaMember.calls.accept }));
    expect(harness.ringing()).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: jaMember.calls.decline }));
    expect(harness.ringing()).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(harness.sent).toEqual([{ type: 'cancelCall', to: man.uid }]);
  });

  it('in a call: timer, mute as a toggle, hang up, then how long it lasted', async () => {
    // The clock stands still, so the call lasts 0 s however slowly a busy machine runs the test.
    vi.useFakeTimers({ toFake: ['Date'] });
    const harness = show();
    act(() => harness.calls.onFrame({ type: 'calling', from: man }));
    fireEvent.click(screen.getByRole('button', { name: jaMember.calls.accept }));
    await settle();
    expect(screen.getByRole('heading', { name: jaMember.calls.connecting })).toBeTruthy();
    act(() => harness.peers[0]!.events.state('connected'));
    expect(screen.getByRole('heading', { name: jaMember.calls.inCall })).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('0:00');
    const mute = screen.getByRole('button', { name: jaMember.calls.mute });
    expect(mute.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(mute);
    expect(mute.getAttribute('aria-pressed')).toBe('true');
    expect(harness.peers[0]!.muted).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: jaMember.calls.hangUp }));
    expect(screen.getByRole('heading', { name: jaMember.calls.reasons.ended })).toBeTruthy();
    expect(dialog().textContent).toContain(jaMember.calls.duration(0));
    fireEvent.click(screen.getByRole('button', { name: ja.app.close }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Focus goes back where it was before the call.
    expect(document.activeElement?.textContent).not.toBe(ja.app.close);
  });

  it.each([
    ['busy', jaMember.calls.reasons.busy],
    ['offline', jaMember.calls.reasons.offline],
    ['timeout', jaMember.calls.reasons.timeout],
  ] as const)('says why a call was not taken: %s', (reason, text) => {
    const { calls } = show();
    act(() => {
      calls.ask(man);
      calls.start();
      calls.onFrame({ type: 'cancelCall', from: man, reason });
    });
    expect(screen.getByRole('heading', { name: text })).toBeTruthy();
  });

  it('a refused microphone is explained', async () => {
    const harness = show();
    harness.refuseMicrophone();
    act(() => harness.calls.onFrame({ type: 'calling', from: man }));
    fireEvent.click(screen.getByRole('button', { name: jaMember.calls.accept }));
    await settle();
    expect(screen.getByRole('heading', { name: jaMember.calls.micDenied })).toBeTruthy();
  });
});

describe('clock', () => {
  it('reads minutes and seconds, hours when needed', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(192.7)).toBe('3:12');
    expect(clock(3725)).toBe('1:02:05');
  });
});
