import { can, ja, type ConversationRow, jaMember } from '@enishi/contract';
import { useEffect, useState, type ReactNode, type Ref } from 'react';
import { ChevronLeftIcon, HandsetIcon } from '@/components/ui/icons';
import { talkTone, UserIcon } from '@/components/ui/user-icon';
import './talk-header.css';

/** What kind of talk this is, in the viewer's words. */
export function talkKind(row: Pick<ConversationRow, 'type'>, viewerRole: number): string {
  switch (row.type) {
    case 'st':
      return ja.talk.groupTalk;
    case 'men':
    case 'sendmen':
      return ja.talk.menTalk;
    case 'women':
    case 'sendwomen':
      return ja.talk.womenTalk;
    case 'staff':
      return can({ role: viewerRole }, 'desk.use') ? ja.talk.staffTalk : ja.talk.deskTalk;
  }
}

/** A connection that is still down after this long is worth mentioning (a normal connect takes far less). */
const RECONNECTING_NOTICE_MS = 1500;

function useLasting(flag: boolean, delayMs: number): boolean {
  const [lasting, setLasting] = useState(false);
  useEffect(() => {
    if (!flag) return;
    const timer = setTimeout(() => setLasting(true), delayMs);
    return () => {
      clearTimeout(timer);
      setLasting(false);
    };
  }, [flag, delayMs]);
  return flag && lasting;
}

/**
 * The talk's one header (product.md §2.4): back, who the talk is with (the club's mark for the staff desk), its
 * kind, and at the end the buttons a talk offers (`actions`), and in a staff member's talk with a male member
 * the phone button (§17).
 */
export function TalkHeader({
  conversation,
  viewerRole,
  reconnecting,
  onBack,
  onCall,
  headingRef,
  actions,
}: {
  conversation: ConversationRow | undefined;
  viewerRole: number;
  reconnecting: boolean;
  onBack: () => void;
  /** A staff member's talk with a male member: the phone button (product.md §17). */
  onCall?: () => void;
  headingRef: Ref<HTMLHeadingElement>;
  actions?: ReactNode;
}) {
  const showReconnecting = useLasting(reconnecting, RECONNECTING_NOTICE_MS);
  return (
    <header className="talk-header">
      <button type="button" className="talk-header__back" aria-label={ja.app.back} onClick={onBack}>
        <ChevronLeftIcon size={26} />
      </button>
      {/* Until the talk's row arrives, its icon's place and its kind's line are kept: nothing moves when it comes. */}
      {conversation ? (
        <UserIcon
          name={conversation.name}
          role={conversation.role ?? 0}
          image={conversation.user_image}
          tone={talkTone(conversation.type)}
        />
      ) : (
        <span className="user-icon user-icon--sm talk-header__icon-slot" aria-hidden="true" />
      )}
      <div className="talk-header__titles">
        <h1 ref={headingRef} tabIndex={-1} className="talk-header__name">
          {conversation?.name ?? ja.screens.talk}
        </h1>
        <p className="talk-header__kind">
          {conversation ? talkKind(conversation, viewerRole) : null}
          {conversation && showReconnecting ? (
            <span className="talk-header__status" role="status">
              {ja.talk.reconnecting}
            </span>
          ) : null}
        </p>
      </div>
      {actions || onCall ? (
        <div className="talk-header__actions">
          {actions}
          {onCall ? (
            <button type="button" className="talk-header__call" onClick={onCall}>
              <HandsetIcon size={22} />
              <span className="visually-hidden">{jaMember.calls.callButton}</span>
            </button>
          ) : null}
        </div>
      ) : null}
    </header>
  );
}
