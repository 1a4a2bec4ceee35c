import type { Message } from '@enishi/contract';
import type { MessageFact } from './message-fact.js';
import { conversationType } from './conversation-presenter.js';

/** The contract `Message` for one reader. */
export function presentMessage(viewer: { uid: number; role: number }, fact: MessageFact): Message {
  return {
    id: fact.id,
    client_id: fact.client_id,
    from: fact.from,
    name: fact.name,
    role: fact.role,
    conversation_id: fact.conversation_id,
    conversation_type: conversationType(viewer.role, fact.kind, fact.member_role),
    message: fact.message,
    image: fact.image,
    reply: fact.reply && {
      id: fact.reply.id,
      message: fact.reply.message,
      own: fact.reply.from === viewer.uid,
      name: fact.reply.name,
      role: fact.reply.role,
      image: fact.reply.image,
      ...(fact.reply.stamp ? { stamp: fact.reply.stamp } : {}),
    },
    announce: fact.announce,
    message_type: fact.message_type,
    date: fact.date,
    own: fact.from === viewer.uid,
    user_image: fact.user_image,
    read: fact.read,
    ...(fact.stamp ? { stamp: fact.stamp } : {}),
    ...(fact.unsent ? { unsent: true } : {}),
  };
}
