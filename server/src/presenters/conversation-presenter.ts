import type { ProfileUrl } from './message-fact.js';
import { can, ja, jaMember, type ConversationRow, type ConversationType } from '@enishi/contract';
import type { ConversationKind } from '../db/schema.js';
import type { ConversationListItem } from '../repositories/conversation-repository.js';
import { deskSideOf } from '../rules/conversation-rules.js';

/**
 * The type a viewer sees (product.md §12.1): a desk conversation is `staff` (talk with staff) to its member and
 * `men`/`women` to staff; a staff room is `staff` to staff; the others are their kind.
 */
export function conversationType(
  viewerRole: number,
  kind: ConversationKind,
  memberRole: number | null,
): ConversationType {
  switch (kind) {
    case 'desk':
      return deskSideOf(can({ role: viewerRole }, 'desk.use'), memberRole);
    case 'staffroom':
      return 'staff';
    default:
      return kind;
  }
}

/**
 * `{"content": ...}` as the original client reads it: the text, [スタンプ] for a stamp, or 画像 for a message
 * of images only.
 */
export function lastContent(body: string | null, imageCount: number | null, isStamp = false): string {
  const content = body ? body : isStamp ? jaMember.talkLimit.stamp.preview : imageCount ? ja.talk.image : '';
  return JSON.stringify({ content });
}

export function presentConversation(
  viewer: { uid: number; role: number },
  item: ConversationListItem,
  profileUrl: ProfileUrl,
): ConversationRow {
  const isDesk = item.kind === 'desk';
  // To its member, the desk is simply "staff"; to staff it is the member.
  const deskForMember = isDesk && !can(viewer, 'desk.use');
  const name = deskForMember ? ja.talk.staffDesk : isDesk ? (item.memberName ?? '') : item.name;
  return {
    id: item.id,
    conversation_id: item.id,
    type: conversationType(viewer.role, item.kind, item.memberRole),
    name,
    uid: item.memberId,
    username: name,
    role: deskForMember ? null : item.memberRole,
    rank: deskForMember ? null : item.memberRank,
    user_image: deskForMember ? null : profileUrl(item.memberImage),
    last_content: lastContent(item.lastBody, item.lastImageCount, item.lastIsStamp ?? false),
    last_date: item.lastAt ? item.lastAt.toISOString() : null,
    unread: item.unread,
    // Staff only (product.md §2.6): a member never learns the status or 担当 of their talk.
    ...(isDesk && can(viewer, 'desk.status')
      ? {
          desk_status: item.deskStatus,
          assignee: item.assigneeId !== null ? { uid: item.assigneeId, name: item.assigneeName ?? '' } : null,
        }
      : {}),
  };
}
