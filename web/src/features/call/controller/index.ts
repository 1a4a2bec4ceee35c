import { type CallParty, type ConversationRow, can, mayCall } from '@enishi/contract';
import { useSyncExternalStore } from 'react';
import { getChatStatus, onChatEvent, onChatStatus } from '@/lib/chat/events';
import { useSession } from '@/lib/session';
import type { CallController } from './call-controller';
import { IDLE, type CallState } from './call-state';

/*
 * The app's one call controller (product.md §17), on the app's one chat socket: its frames and status are
 * listened to from start-up, and the controller itself (signalling, the peer, the ringer) is a chunk of its own
 * loaded by the first call frame or the first phone button, so a screen without a call never downloads it.
 */

let controller: CallController | null = null;
let loading: Promise<CallController> | null = null;
/** The overlay's listeners: told when the controller arrives, then whenever its state changes. */
const listeners = new Set<() => void>();
const tell = () => listeners.forEach((listener) => listener());

function loadController(): Promise<CallController> {
  loading ??= import('./create').then(
    ({ createController }) => {
      const created = createController();
      created.onSocket(getChatStatus() === 'live');
      created.subscribe(tell);
      controller = created;
      tell();
      return created;
    },
    (error: unknown) => {
      // Tried again by the next frame or button (the chunk could not be fetched).
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Now if the controller is here, else once it is (frames that arrive meanwhile keep their order). */
function withController(act: (calls: CallController) => void): void {
  if (controller) act(controller);
  else void loadController().then(act, () => undefined);
}

let started = false;

/** Called once when the member area opens (app/member-services.ts). */
export function startCalls(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  onChatEvent('call', (frame) => withController((calls) => calls.onFrame(frame)));
  // Without a controller there is no call that these could change.
  onChatEvent('error', () => controller?.onRefused());
  onChatStatus(() => controller?.onSocket(getChatStatus() === 'live'));
  window.addEventListener('online', () => controller?.onNetworkChange());
  const connection = (navigator as { connection?: EventTarget }).connection;
  connection?.addEventListener?.('change', () => controller?.onNetworkChange());
  window.addEventListener('pagehide', () => controller?.onUnload());
}

/** The call as the overlay shows it (idle until the controller is loaded). */
export function useCall(): CallState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => controller?.getState() ?? IDLE,
    () => IDLE,
  );
}

/** What screens may do with the call: the phone buttons and the overlay's buttons. */
export const calls = {
  ask: (party: CallParty) => withController((calls) => calls.ask(party)),
  start: () => withController((calls) => calls.start()),
  hangUp: () => withController((calls) => calls.hangUp()),
  accept: () => withController((calls) => calls.accept()),
  decline: () => withController((calls) => calls.decline()),
  toggleMute: () => withController((calls) => calls.toggleMute()),
  nextOutput: () => withController((calls) => void calls.nextOutput()),
  dismiss: () => withController((calls) => calls.dismiss()),
};

/** Whether the logged-in user takes part in calls at all (staff and role 101). */
export function useMayCall(): boolean {
  const role = useSession()?.role ?? 0;
  return mayTakePart(role);
}

export const mayTakePart = (role: number): boolean => can({ role }, 'call.place');

/**
 * The phone button of a talk (product.md §17): staff (call.answer) in a talk with a male member call him; any
 * other talk or viewer has none.
 */
export function phoneFor(row: ConversationRow, viewerRole: number): (() => void) | undefined {
  if (
    !can({ role: viewerRole }, 'call.answer') ||
    row.uid === null ||
    row.role === null ||
    !mayCall(viewerRole, row.role) ||
    row.type === 'st'
  )
    return undefined;
  const party: CallParty = { uid: row.uid, name: row.name, image: row.user_image };
  return () => calls.ask(party);
}
