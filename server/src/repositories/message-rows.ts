import { and, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
import { conversations, messages, stamps, users, type ConversationKind } from '../db/schema.js';

/*
 * How a message is read for the people who see it: one select with its sender, talk, stamp and the message it
 * replies to (the message repository's reads all start here), and the row it gives.
 */

/** A message with everything a reader sees: sender, conversation, and the message it replies to. */
export interface MessageRow {
  id: number;
  conversationId: number;
  senderId: number | null;
  senderName: string | null;
  senderRole: number | null;
  senderImage: string | null;
  body: string;
  images: string[];
  announce: boolean;
  messageType: number;
  clientId: string | null;
  createdAt: Date;
  /** A stamp (product.md §12.8): the message is its picture. */
  stamp: { id: number; label: string; imageId: string } | null;
  /** 送信取消: when its sender took it back (null or absent: never). */
  unsentAt?: Date | null;
  kind: ConversationKind;
  memberId: number | null;
  memberRole: number | null;
  manId: number | null;
  womanId: number | null;
  reply: {
    id: number;
    body: string;
    images: string[];
    senderId: number | null;
    senderName: string | null;
    senderRole: number | null;
    /** A quoted stamp (product.md §12.8): quoted by its picture and its words. */
    stamp: { id: number; label: string; imageId: string } | null;
  } | null;
}

/** The quoted message's stamp, from the columns of a select's join (null when it is no stamp). */
export function stampOf(
  id: number | null,
  label: string | null,
  imageId: string | null,
): { id: number; label: string; imageId: string } | null {
  return id === null ? null : { id, label: label ?? '', imageId: imageId ?? '' };
}

export const sender = alias(users, 'sender');
const member = alias(users, 'member');
const replied = alias(messages, 'replied');
const repliedSender = alias(users, 'replied_sender');
export const repliedStamp = alias(stamps, 'replied_stamp');

/** Messages with their sender, talk, stamp and quoted message; callers add where, order and limit. */
export function selectMessageRows(db: Database) {
  return (
    db
      .select({
        id: messages.id,
        conversationId: messages.conversationId,
        senderId: messages.senderId,
        senderName: sender.name,
        senderRole: sender.role,
        senderImage: sender.image,
        body: messages.body,
        images: messages.images,
        announce: messages.announce,
        messageType: messages.messageType,
        clientId: messages.clientId,
        createdAt: messages.createdAt,
        stampId: stamps.id,
        stampLabel: stamps.label,
        stampImageId: stamps.imageId,
        unsentAt: messages.unsentAt,
        kind: conversations.kind,
        memberId: conversations.memberId,
        memberRole: member.role,
        manId: conversations.manId,
        womanId: conversations.womanId,
        replyId: replied.id,
        replyBody: replied.body,
        replyImages: replied.images,
        replySenderId: replied.senderId,
        replySenderName: repliedSender.name,
        replySenderRole: repliedSender.role,
        replyStampId: repliedStamp.id,
        replyStampLabel: repliedStamp.label,
        replyStampImageId: repliedStamp.imageId,
      })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .leftJoin(member, eq(member.id, conversations.memberId))
      .leftJoin(sender, eq(sender.id, messages.senderId))
      .leftJoin(stamps, eq(stamps.id, messages.stampId))
      // A reply to a message deleted since shows no quote.
      .leftJoin(replied, and(eq(replied.id, messages.replyToId), isNull(replied.deletedAt)))
      .leftJoin(repliedSender, eq(repliedSender.id, replied.senderId))
      .leftJoin(repliedStamp, eq(repliedStamp.id, replied.stampId))
      .$dynamic()
  );
}

export function toMessageRow(row: Awaited<ReturnType<typeof selectMessageRows>>[number]): MessageRow {
  const { replyId, replyBody, replyImages, replySenderId, replySenderName, replySenderRole, ...rest } = row;
  const { replyStampId, replyStampLabel, replyStampImageId, ...withStamp } = rest;
  const { stampId, stampLabel, stampImageId, ...message } = withStamp;
  return {
    ...message,
    stamp: stampOf(stampId, stampLabel, stampImageId),
    reply:
      replyId === null
        ? null
        : {
            id: replyId,
            body: replyBody ?? '',
            images: replyImages ?? [],
            senderId: replySenderId,
            senderName: replySenderName,
            senderRole: replySenderRole,
            stamp: stampOf(replyStampId, replyStampLabel, replyStampImageId),
          },
  };
}
