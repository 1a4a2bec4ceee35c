import { ja, isStaffRole, type ConversationRow } from '@enishi/contract';
import { useEffect, useState, type Ref } from 'react';
import { ChevronLeftIcon } from '@/components/ui/icons';
import { UserIcon, type IconTone } from '@/components/ui/user-icon';
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
      return isStaffRole(viewerRole) ? ja.talk.staffTalk : ja.talk.deskTalk;
  }
}

function tone(row: ConversationRow): IconTone | undefined {
  if (row.type === 'st') return 'group';
  if (row.type === 'staff') return 'staff';
  return undefined;
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

/** The talk's header (product.md §2): back, who the talk is with (スタッフ for a member's desk talk), its kind. */
export function TalkHeader({
  conversation,
  viewerRole,
  reconnecting,
  onBack,
  headingRef,
}: {
  conversation: ConversationRow | undefined;
  viewerRole: number;
  reconnecting: boolean;
  onBack: () => void;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const showReconnecting = useLasting(reconnecting, RECONNECTING_NOTICE_MS);
  return (
    <header className="talk-header">
      <button type="button" className="talk-header__back" aria-label={ja.app.back} onClick={onBack}>
        <ChevronLeftIcon size={26} />
      </button>
      {conversation ? (
        <UserIcon
          name={conversation.name}
          role={conversation.role ?? 0}
          image={conversation.user_image}
          tone={tone(conversation)}
        />
      ) : null}
      <div className="talk-header__titles">
        <h1 ref={headingRef} tabIndex={-1} className="talk-header__name">
          {conversation?.name ?? ja.screens.talk}
        </h1>
        {conversation ? (
          <p className="talk-header__kind">
            {talkKind(conversation, viewerRole)}
            {showReconnecting ? (
              <span className="talk-header__status" role="status">
                {ja.talk.reconnecting}
              </span>
            ) : null}
          </p>
        ) : null}
      </div>
    </header>
  );
}
