import { fillCannedReply, type ConversationRow, type ReplyRef, jaMember } from '@enishi/contract';
import { useMemo } from 'react';
import type { Session } from '@/lib/session';
import { useCannedReplyList } from '../api/get-canned-replies';
import { Composer, type Outgoing } from './composer';
import { Phrases } from '@/components/ui/phrases';

/**
 * The bottom of a talk: the comment box, with staff's saved replies ({name} the member's or room's name,
 * {staff} the writer's), or, in a bulk-send history, a note that nobody can write there (product.md §12.7).
 */
export function TalkComposer({
  conversationId,
  row,
  session,
  staff,
  replyTo,
  onCancelReply,
  onSend,
}: {
  conversationId: number;
  row: ConversationRow | undefined;
  session: Session;
  staff: boolean;
  replyTo: ReplyRef | null;
  onCancelReply: () => void;
  onSend: (outgoing: Outgoing) => void;
}) {
  const history = row?.type === 'sendmen' || row?.type === 'sendwomen';
  const canned = useCannedReplyList(staff && !history);
  const name = row?.username ?? '';
  const fill = useMemo(
    () => (body: string) => fillCannedReply(body, { name, staff: session.name }),
    [name, session.name],
  );
  if (history) {
    return (
      <p className="notice-box talk__read-only" role="note">
        <Phrases text={jaMember.desk.readOnly} />
      </p>
    );
  }
  return (
    <Composer
      conversationId={conversationId}
      replyTo={replyTo}
      onCancelReply={onCancelReply}
      onSend={onSend}
      canned={canned.data?.rows ?? []}
      fillCanned={fill}
    />
  );
}
