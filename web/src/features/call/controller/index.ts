import { type CallParty, type ConversationRow, can, mayCall, roleGroup } from '@enishi/contract';
import { useSyncExternalStore } from 'react';
import { api } from '@/lib/api-client';
import { getChatStatus, onChatEvent, onChatStatus } from '@/lib/chat/events';
import { sendFrame } from '@/lib/chat/socket';
import { useSession } from '@/lib/session';
import { CallController } from './call-controller';
import { IDLE, type CallState } from './call-state';
import { createBrowserPeer } from './peer';
import { createAudioRinger } from './ringer';

/*
 * The app's one call controller (product.md §17), on the app's one chat socket: started once at start-up,
 * fed the socket's call frames and status, and told when the device changes networks.
 */

let controller: CallController | null = null;

function getController(): CallController {
  controller ??= new CallController({
    send: sendFrame,
    // Fetched for every call: TURN credentials expire (product.md §17.5).
    peerOptions: async () => ({ iceServers: (await api('config', {})).iceServers }),
    createPeer: createBrowserPeer,
    ringer: createAudioRinger(),
  });
  return controller;
}

let started = false;

/** Called once at start-up (main.tsx). */
export function startCalls(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const calls = getController();
  onChatEvent('call', (frame) => calls.onFrame(frame));
  onChatEvent('error', () => calls.onRefused());
  onChatStatus(() => calls.onSocket(getChatStatus() === 'live'));
  window.addEventListener('online', () => calls.onNetworkChange());
  const connection = (navigator as { connection?: EventTarget }).connection;
  connection?.addEventListener?.('change', () => calls.onNetworkChange());
  window.addEventListener('pagehide', () => calls.onUnload());
}

/** The call as the overlay shows it. */
export function useCall(): CallState {
  return useSyncExternalStore(
    (listener) => getController().subscribe(listener),
    () => getController().getState(),
    () => IDLE,
  );
}

/** What screens may do with the call: the phone buttons and the overlay's buttons. */
export const calls = {
  ask: (party: CallParty) => getController().ask(party),
  start: () => getController().start(),
  hangUp: () => getController().hangUp(),
  accept: () => getController().accept(),
  decline: () => getController().decline(),
  toggleMute: () => getController().toggleMute(),
  nextOutput: () => void getController().nextOutput(),
  dismiss: () => getController().dismiss(),
};

/** Whether the logged-in user takes part in calls at all (staff and role 101). */
export function useMayCall(): boolean {
  const role = useSession()?.role ?? 0;
  return mayTakePart(role);
}

export const mayTakePart = (role: number): boolean => can({ role }, 'call.place');

/**
 * The phone button of a talk (product.md §17): staff in a talk with a male member call him; any other talk or
 * viewer has none.
 */
export function phoneFor(row: ConversationRow, viewerRole: number): (() => void) | undefined {
  if (
    roleGroup(viewerRole) !== 'staff' ||
    row.uid === null ||
    row.role === null ||
    !mayCall(viewerRole, row.role) ||
    row.type === 'st'
  )
    return undefined;
  const party: CallParty = { uid: row.uid, name: row.name, image: row.user_image };
  return () => calls.ask(party);
}
