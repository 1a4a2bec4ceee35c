import { ja, jaMember, type ConversationType, type Message, type ReplyRef, can } from '@enishi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { newClientId } from '@/lib/chat/client-id';
import type { OutboxEntry } from '@/lib/chat/outbox';
import { sendFrame } from '@/lib/chat/live-socket';
import { discardMessage, retryMessage, submitMessage } from '@/lib/chat/sending';
import { updateLocalState } from '@/lib/local-state';
import { toast, toastSuccess } from '@/lib/toast';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { messagesQueryOptions } from '../api/get-messages';
import type { Outgoing } from '../components/composer';
import type { MenuItem } from '../components/message-menu';
import type { MenuTarget } from '../components/timeline-row';
import { copyText } from '../utils/clipboard';
import { withoutMessages } from '../utils/live-pages';
import { rememberStamp } from '../api/get-stamps';

const toReplyRef = (message: Message): ReplyRef => ({
  id: message.id,
  message: message.message,
  own: message.own,
  name: message.name,
  role: message.role,
  image: message.image,
  ...(message.stamp ? { stamp: message.stamp } : {}),
});

async function copy(text: string) {
  if (await copyText(text)) toastSuccess(ja.talk.copied);
  else toast(ja.talk.copyFailed);
}

/** A message not yet stored: copy, send again when it failed, or give it up. */
function pendingItems(entry: OutboxEntry): MenuItem[] {
  const items: MenuItem[] = [];
  if (entry.message.trim()) {
    items.push({
      key: 'copy',
      label: ja.talk.copy,
      run: () => void copy(entry.message),
    });
  }
  if (entry.status === 'failed') {
    const run = () => retryMessage(entry.client_id);
    items.push({ key: 'retry', label: ja.talk.retry, run });
  }
  const discard = () => discardMessage(entry.client_id);
  items.push({ key: 'discard', label: ja.talk.discard, danger: true, run: discard });
  return items;
}

/** 送信取消 (product.md §15.4), once confirmed: the message comes back in its new words for everyone in the talk. */
async function unsend(message: Message, confirm: ReturnType<typeof useConfirm>) {
  if (!(await confirm({ message: jaMember.unsend.confirm }))) return;
  if (!sendFrame({ type: 'unsend', message_id: message.id })) {
    toast(ja.talk.notConnected);
    return;
  }
  toastSuccess(jaMember.unsend.done);
}

/** 送信取消 is offered on one's own message while the server would still take it back (24 hours). */
const mayUnsend = (message: Message, actor: { uid: number; role: number }) =>
  message.own &&
  message.message_type === 0 &&
  can(actor, 'talk.unsend', { authorId: actor.uid, sentAt: Date.parse(message.date), now: Date.now() });

/** An announcement the user closes: hidden here; staff, and whoever pinned it, take it down for everyone. */
function hide(message: Message, staff: boolean) {
  updateLocalState((state) => ({
    ...state,
    hiddenAnnouncements: [...state.hiddenAnnouncements.filter((id) => id !== message.id), message.id].slice(
      -500,
    ),
  }));
  // Staff, and whoever pinned it, take it down for everyone; anyone else just stops seeing it.
  if (staff || message.own) sendFrame({ type: 'delete', delete_announce_id: message.id });
}

function announce(message: Message) {
  // The message itself is pinned (product.md §15.4); it comes back with `announce` for everyone in the talk.
  if (!sendFrame({ type: 'pin', message_id: message.id })) {
    toast(ja.talk.notConnected);
    return;
  }
  toastSuccess(ja.talk.announced);
}

/** The words (or 画像) a menu shows of the message it is for. */
export function menuPreview(target: MenuTarget): string {
  const text = target.kind === 'message' ? target.message.message : target.entry.message;
  const images = target.kind === 'message' ? target.message.image : target.entry.image;
  const stamp = target.kind === 'message' ? target.message.stamp : target.entry.stamp;
  if (stamp) return jaMember.talkLimit.stamp.preview;
  return text.trim() || (images.length > 0 ? ja.talk.image : '');
}

/** What the user does in a talk: send (through the outbox), and the actions of a message's menu. */
export function useTalkActions({
  conversationId,
  conversationType,
  uid,
  role,
  staff,
  onReply,
}: {
  conversationId: number;
  conversationType: ConversationType | null;
  uid: number;
  role: number;
  staff: boolean;
  onReply: (reply: ReplyRef) => void;
}) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();

  function send(outgoing: Outgoing & { announce?: boolean }): void {
    submitMessage({
      client_id: newClientId(),
      conversation_id: conversationId,
      conversation_type: conversationType,
      message: outgoing.message,
      image: outgoing.image,
      reply: outgoing.reply,
      announce: outgoing.announce ?? false,
      created: new Date().toISOString(),
      ...(outgoing.stamp ? { stamp: outgoing.stamp } : {}),
    });
    if (outgoing.stamp) rememberStamp(queryClient, outgoing.stamp.id);
  }

  async function remove(message: Message) {
    if (!(await confirm({ message: ja.talk.deleteConfirm }))) return;
    if (!sendFrame({ type: 'delete', delete_message_id: message.id })) {
      toast(ja.talk.notConnected);
      return;
    }
    queryClient.setQueryData(messagesQueryOptions(conversationId).queryKey, (pages) =>
      pages ? withoutMessages(pages, new Set([message.id])) : pages,
    );
    toastSuccess(ja.talk.deleted);
  }

  const hideAnnouncement = (message: Message) => hide(message, staff);

  function menuItems(target: MenuTarget): MenuItem[] {
    if (target.kind === 'pending') return pendingItems(target.entry);
    const { message } = target;
    if (message.unsent) return deleteItems(message);
    const text = message.message.trim() ? message.message : '';
    const items: MenuItem[] = [
      { key: 'reply', label: ja.talk.reply, run: () => onReply(toReplyRef(message)) },
    ];
    if (text && message.message_type === 0) {
      items.push({
        key: 'announce',
        label: ja.talk.announce,
        run: () => announce(message),
      });
    }
    if (text) items.push({ key: 'copy', label: ja.talk.copy, run: () => void copy(text) });
    if (mayUnsend(message, { uid, role })) {
      const run = () => void unsend(message, confirm);
      items.push({ key: 'unsend', label: jaMember.unsend.action, danger: true, run });
    }
    return [...items, ...deleteItems(message)];
  }

  function deleteItems(message: Message): MenuItem[] {
    if (!message.own && !can({ role }, 'talk.delete_any')) return [];
    const run = () => void remove(message);
    return [{ key: 'delete', label: ja.talk.delete, danger: true, run }];
  }

  return { send, hideAnnouncement, menuItems };
}
