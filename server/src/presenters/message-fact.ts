import { ja } from '@enishi/contract';
import type { ConversationKind } from '../db/schema.js';
import type { MessageRow } from '../repositories/message-repository.js';

/**
 * A message as every reader sees it, before the parts that depend on the reader (`own`, the conversation
 * type, `reply.own`): the one message type of the server. It travels through the fan-out as JSON;
 * `presentMessage` (presenters/message-presenter.ts) finishes it per reader.
 */
export interface MessageFact {
  id: number;
  client_id: string | null;
  /** 0 once the sender's account is gone. */
  from: number;
  name: string;
  role: number;
  conversation_id: number;
  kind: ConversationKind;
  member_role: number | null;
  message: string;
  image: string[];
  reply: {
    id: number;
    message: string;
    from: number;
    name: string;
    role: number;
    image: string[];
    stamp?: { id: number; label: string };
  } | null;
  announce: boolean;
  message_type: number;
  date: string;
  user_image: string | null;
  read: boolean;
  /** A stamp (product.md §12.8): `image` is its picture. */
  stamp?: { id: number; label: string };
  /** 送信取消: `message` is already the text shown in its place, `image` empty. */
  unsent?: boolean;
}

/** Signs media ids into URLs that work for about an hour. */
export type SignImages = (ids: string[]) => string[];
/** Signs a stamp's picture (`/media/stamp/<id>?e=&s=`). */
export type SignStamp = (imageId: string) => string;
/** A stored profile picture as a signed URL (null for none): a raw picture id never reaches a client. */
export type ProfileUrl = (stored: string | null) => string | null;
const noProfileUrl: ProfileUrl = () => null;

export function messageFact(
  row: MessageRow,
  signImages: SignImages,
  read = false,
  profileUrl: ProfileUrl = noProfileUrl,
  signStamp?: SignStamp,
): MessageFact {
  // A stamp's one picture is the stamp's own; a stamp whose set is gone shows as its words alone.
  const stamp = row.stamp && signStamp ? row.stamp : null;
  const quotedStamp = row.reply?.stamp && signStamp ? row.reply.stamp : null;
  return {
    id: row.id,
    client_id: row.clientId,
    from: row.senderId ?? 0,
    name: row.senderName ?? ja.talk.formerUser,
    role: row.senderRole ?? 0,
    conversation_id: row.conversationId,
    kind: row.kind,
    member_role: row.memberRole,
    message: row.body,
    image: stamp ? [signStamp!(stamp.imageId)] : signImages(row.images),
    reply: row.reply && {
      id: row.reply.id,
      message: row.reply.body,
      from: row.reply.senderId ?? 0,
      name: row.reply.senderName ?? ja.talk.formerUser,
      role: row.reply.senderRole ?? 0,
      // A quoted stamp travels as a stamp does: its picture in `image`, its words in `stamp` (product.md §12.8).
      image: quotedStamp ? [signStamp!(quotedStamp.imageId)] : signImages(row.reply.images),
      ...(quotedStamp ? { stamp: { id: quotedStamp.id, label: quotedStamp.label } } : {}),
    },
    announce: row.announce,
    message_type: row.messageType,
    date: row.createdAt.toISOString(),
    user_image: profileUrl(row.senderImage),
    read,
    ...(stamp ? { stamp: { id: stamp.id, label: stamp.label } } : {}),
    ...(row.unsentAt ? { unsent: true } : {}),
  };
}
