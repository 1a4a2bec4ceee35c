import { topicsOf } from '../bus/delivery.js';
import type { LiveMessage, StoredMessages } from '../bus/message-order.js';
import type { MessageRepository, MessageRow } from '../repositories/message-repository.js';
import type { MessageFact } from '../presenters/message-fact.js';
import { audienceOf } from './conversation-service.js';
import { bulkSendAudience } from './message-posting.js';

/**
 * The stored messages as their writer would have published them (decision 019): what an instance reads
 * when a publish did not come (bus/message-order.ts). A bulk send's copies reach whom bulkSendAudience says.
 * `fact` is how MessagePosting builds what readers see.
 */
export function storedMessages(
  messages: MessageRepository,
  fact: (row: MessageRow) => MessageFact,
): StoredMessages {
  return {
    newestId: () => messages.newestId(),
    between: async (afterId, upToId, limit) => {
      const rows = await messages.between(afterId, upToId, limit);
      return rows.map(({ bulkCopy, ...row }): LiveMessage => {
        const history = row.kind === 'sendmen' || row.kind === 'sendwomen';
        const audience = bulkCopy || history ? bulkSendAudience(row) : audienceOf(row);
        return {
          id: row.id,
          topics: topicsOf(audience),
          event: { event: 'message.created', message: fact(row), ...(bulkCopy ? { broadcast: true } : {}) },
        };
      });
    },
  };
}
