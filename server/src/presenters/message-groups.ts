import { japanTime, type Message, type MessageGroup } from '@enishi/contract';

/** Groups messages (oldest first) by their Japan-time date, oldest group first: a heading per day in the talk. */
export function groupByJapanDate(messages: Message[]): MessageGroup[] {
  const groups: MessageGroup[] = [];
  for (const message of messages) {
    const date = japanTime(new Date(message.date)).dateKey;
    const last = groups.at(-1);
    if (last?.date === date) last.messages.push(message);
    else groups.push({ date, messages: [message] });
  }
  return groups;
}
