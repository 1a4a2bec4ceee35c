import { holdsNoRow, scope, type Notifications } from '@enishi/contract';
import type { ConversationRepository } from '../repositories/conversation-repository.js';
import type { NewsRepository } from '../repositories/news-repository.js';
import { addUnread, readerOf } from '../rules/conversation-rules.js';

/** Who the counters are for. */
export interface Reader {
  uid: number;
  role: number;
}

/**
 * The badge counters (product.md §3), derived from read state: the chat socket's `notifications` frame, the
 * `notifications` call and the icon badge of a push. Members: fromStaff is their desk talk, setting their
 * group talks. Staff: fromMen / fromWomen the members' desk talks, setting the group talks, fromStaff the
 * staff rooms. News: a member's unseen news of their group (staff: 0).
 */
export class NotificationCounts {
  constructor(
    private readonly conversations: Pick<ConversationRepository, 'unreadCounts'>,
    private readonly news: Pick<NewsRepository, 'unseenCount'>,
  ) {}

  async of(reader: Reader): Promise<Notifications> {
    const { isStaff } = readerOf({ uid: reader.uid, role: reader.role });
    const [counts, news] = await Promise.all([
      this.conversations.unreadCounts({ uid: reader.uid, isStaff }),
      this.unseenNews(reader),
    ]);
    const result: Notifications = { news, fromStaff: 0, setting: 0, fromWomen: 0, fromMen: 0 };
    for (const { kind, memberRole, count } of counts) addUnread(result, isStaff, kind, memberRole, count);
    return result;
  }

  /** A member's unseen news in content.read's rows (their group's); staff, who read every group's, have none. */
  private async unseenNews(reader: Reader): Promise<number> {
    const readable = scope(reader, 'content.read');
    return readable.all || holdsNoRow(readable) ? 0 : this.news.unseenCount(reader.uid, readable);
  }
}
