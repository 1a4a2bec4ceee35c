import { CALL_RECORD_TYPE, can, isServerFrame, ja } from '@enishi/contract';
import { setCounters } from '../notifications';
import { toast } from '../toast';
import { emitChatEvent, getChatStatus } from './events';
import { noteSeen } from './last-seen';
import { removeEntry, resendLater, updateEntry } from './outbox';
import { sendEntry } from './sending';

/*
 * What the server says on the chat socket (product.md §15), handed to whichever screen listens (events.ts),
 * the outbox and the badge counters; `ready` (caught up) goes back to the socket, which then goes live.
 */

export type FrameHooks = {
  /** The talk on screen, whose messages raise no toast. */
  openTalkId: () => number | undefined;
  /** The connection has caught up. */
  ready: () => void;
};

export function onServerFrame(data: string, socket: FrameHooks): void {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return;
  }
  // Frames this version does not know are ignored, as product.md §15.4 asks of clients. The rest are read as
  // the contract's types, not parsed: zod stays out of the first load (decision 021).
  if (!isServerFrame(json)) return;
  const frame = json;
  switch (frame.type) {
    case 'message': {
      noteSeen(frame.id);
      if (frame.own && frame.client_id) removeEntry(frame.client_id);
      emitChatEvent('message', frame);
      // A call's record raises no toast: the call itself was the notice (product.md §17.10).
      const arrived = !frame.own && !frame.unsent && frame.message_type !== CALL_RECORD_TYPE;
      if (getChatStatus() === 'live' && arrived && frame.conversation_id !== socket.openTalkId()) {
        // Another talk: its badge rises (the counters come from the server) and a toast tells who wrote, until
        // that talk is opened.
        toast(
          frame.conversation_type === 'st' || !can({ role: frame.role }, 'desk.use')
            ? ja.talk.fromMember.replace('{name}', frame.name)
            : ja.talk.fromStaff,
          false,
          frame.conversation_id,
        );
      }
      return;
    }
    case 'delete':
      emitChatEvent('delete', frame);
      return;
    case 'read':
      emitChatEvent('read', frame);
      return;
    case 'notifications': {
      const { type: _type, ...counters } = frame;
      setCounters(counters);
      return;
    }
    case 'ready':
      noteSeen(frame.last_id);
      socket.ready();
      return;
    case 'reload':
      emitChatEvent('reload', null);
      return;
    case 'error':
      if (frame.client_id && frame.retry) return resendLater(frame.client_id, sendEntry);
      toast(frame.error);
      if (frame.client_id) updateEntry(frame.client_id, { status: 'failed', error: frame.error });
      else emitChatEvent('error', frame);
      return;
    case 'setting':
      emitChatEvent('setting', frame); // staff: setting requests (product.md §2.8)
      return;
    case 'desk':
      emitChatEvent('desk', frame); // staff: a desk talk's status or 担当 (product.md §2.6)
      return;
    default:
      emitChatEvent('call', frame); // voice calls (product.md §17)
  }
}
