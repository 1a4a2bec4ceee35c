import type { ServerFrame } from '@enishi/contract';
import { presentMessage } from '../presenters/message-presenter.js';
import type { MessageFact } from '../presenters/message-fact.js';
import type { Actor } from '../services/session-service.js';

/**
 * A new message's frame for each kind of reader, made once per message instead of once per socket: a
 * desk message reaches every staff socket, and all but its sender read the same bytes.
 */
const messageFrames = new WeakMap<MessageFact, Map<string, string>>();

export function messageFrame(viewer: Actor, fact: MessageFact): string {
  const key = `${viewer.role}:${fact.from === viewer.uid}:${fact.reply?.from === viewer.uid}`;
  let frames = messageFrames.get(fact);
  if (!frames) {
    frames = new Map();
    messageFrames.set(fact, frames);
  }
  let json = frames.get(key);
  if (json === undefined) {
    const frame: ServerFrame = { type: 'message', ...presentMessage(viewer, fact) };
    json = JSON.stringify(frame);
    frames.set(key, json);
  }
  return json;
}
