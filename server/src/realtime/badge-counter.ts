import type { Notifications, ServerFrame } from '@enishi/contract';
import { addUnread, badgeOf, raisesBadge, readerOf } from '../rules/conversation-rules.js';
import type { MessageFact } from '../presenters/message-fact.js';
import type { Actor } from '../services/session-service.js';
import type { ChatGateway } from './chat-gateway.js';

/** Badge counters are recomputed at most this often per connection; changes in between make one more run. */
const NOTIFICATION_INTERVAL_MS = 1000;

/** What the counter needs of its socket. */
export interface BadgeSocket {
  readonly actor: Actor | null;
  readonly closed: boolean;
  send(frame: ServerFrame): void;
}

/**
 * The badge counters of one socket (`notifications` frames). A new message in another talk moves the
 * counters known from the last count without a query; reads, deletions and news make a fresh count.
 */
export class BadgeCounter {
  /** The counters as last sent (null until counted), and what is owed to the client. */
  private counters: Notifications | null = null;
  private recountDue = false;
  private changed = false;
  private counting = false;
  private sentAt = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: BadgeSocket,
    private readonly gateway: ChatGateway,
  ) {}

  /** The counters need counting again (a talk was read, a message deleted, news changed...). */
  refresh(): void {
    this.recountDue = true;
    this.schedule();
  }

  /**
   * A message for another talk arrived: it raises a badge by one. The counters known from the last count
   * are moved here without a query, as long as no count is due or running (that count will include it).
   */
  arrival(actor: Actor, message: MessageFact): void {
    if (!this.counters || this.recountDue || this.counting) return this.refresh();
    if (!raisesBadge(actor, message)) return;
    addUnread(this.counters, readerOf(actor).isStaff, message.kind, message.member_role, 1);
    this.changed = true;
    this.schedule();
  }

  /**
   * The user wrote a message: whoever writes has read what came before, so the talk's unread messages are
   * gone from its badge. Only a count can tell how many; it is needed only if that badge shows any.
   */
  own(actor: Actor, message: MessageFact): void {
    const badge = badgeOf(readerOf(actor).isStaff, message.kind, message.member_role);
    if (badge && this.counters && this.counters[badge] > 0) this.refresh();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Sends the counters, counting them first when due. Bursts coalesce: at most one frame per
   * NOTIFICATION_INTERVAL_MS per connection, plus one trailing frame for changes that came meanwhile, so a
   * busy desk costs each staff socket one frame a second and a count only when something other than a new
   * message changed them.
   */
  private schedule(): void {
    if (this.counting || this.timer || this.socket.closed) return;
    const wait = this.sentAt + NOTIFICATION_INTERVAL_MS - this.gateway.clock();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      return;
    }
    this.sentAt = this.gateway.clock();
    if (!this.recountDue) {
      if (this.changed && this.counters) this.socket.send({ type: 'notifications', ...this.counters });
      this.changed = false;
      return;
    }
    this.recountDue = false;
    this.changed = false;
    this.counting = true;
    this.gateway.track(this.count());
  }

  private async count(): Promise<void> {
    try {
      const actor = this.socket.actor;
      if (this.socket.closed || !actor) return;
      this.counters = await this.gateway.services.notifications.of(actor);
      this.socket.send({ type: 'notifications', ...this.counters });
    } catch (error) {
      this.counters = null;
      this.gateway.log.error({ err: error }, 'notification counters failed');
    } finally {
      this.counting = false;
      if (this.recountDue || this.changed) this.schedule();
    }
  }
}
