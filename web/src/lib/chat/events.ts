import type {
  CallServerFrame,
  DeleteEvent,
  DeskEvent,
  ErrorEvent,
  MessageEvent,
  ReadEvent,
  SettingEvent,
} from '@enishi/contract';
import { useEffect, useRef, useSyncExternalStore } from 'react';

/*
 * What the chat socket tells the screens: its status, and the messages, deletions and read marks it brings.
 * Kept apart from the connection so that screens and tests listen without knowing how frames arrive.
 */

/** offline: no connection; connecting: opened, catching up; live: caught up, frames flow both ways. */
export type ChatStatus = 'offline' | 'connecting' | 'live';

export type ChatEvents = {
  message: MessageEvent;
  delete: DeleteEvent;
  read: ReadEvent;
  /**
   * The connection is (again) up to date: screens may refresh lists. `caughtUp`: the catch-up brought every
   * message after the device's last one (the session frame had its `last_id`), so only deletions meanwhile
   * may be missing.
   */
  live: { caughtUp: boolean };
  /** The server could not catch up (too far behind): screens load what they show again over HTTP. */
  reload: null;
  /** Voice call signalling, the staff list and staff presence (product.md §17). */
  call: CallServerFrame;
  /** An `error` frame that answers no message (a call frame the server refused, say). */
  error: ErrorEvent;
  /** Staff: a setting request was made or decided (product.md §2.8). */
  setting: SettingEvent;
  /** Staff: a desk talk's status or 担当 changed (product.md §2.6). */
  desk: DeskEvent;
};

let status: ChatStatus = 'offline';
const statusListeners = new Set<() => void>();
const eventListeners: { [K in keyof ChatEvents]: Set<(event: ChatEvents[K]) => void> } = {
  message: new Set(),
  delete: new Set(),
  read: new Set(),
  live: new Set(),
  reload: new Set(),
  call: new Set(),
  error: new Set(),
  setting: new Set(),
  desk: new Set(),
};

export function emitChatEvent<K extends keyof ChatEvents>(type: K, event: ChatEvents[K]): void {
  eventListeners[type].forEach((listener) => listener(event));
}

/** When a connection last went down (ms since the epoch; 0 before any did): what came after may be missed. */
let droppedAt = 0;
export const socketDroppedAt = (): number => droppedAt;

/** False when the status was already `next`. */
export function setChatStatus(next: ChatStatus): boolean {
  if (status === next) return false;
  if (next === 'offline') droppedAt = Date.now();
  status = next;
  statusListeners.forEach((listener) => listener());
  return true;
}

export const getChatStatus = (): ChatStatus => status;

/** Follow the status outside React (the call controller); returns the unsubscribe. */
export function onChatStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

export function useChatStatus(): ChatStatus {
  return useSyncExternalStore(
    onChatStatus,
    () => status,
    () => 'offline',
  );
}

export function onChatEvent<K extends keyof ChatEvents>(
  type: K,
  listener: (event: ChatEvents[K]) => void,
): () => void {
  eventListeners[type].add(listener);
  return () => eventListeners[type].delete(listener);
}

/** Listen to one kind of socket event while the component is mounted (the latest callback is used). */
export function useChatEvent<K extends keyof ChatEvents>(
  type: K,
  listener: (event: ChatEvents[K]) => void,
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onChatEvent(type, (event) => latest.current(event)), [type]);
}
