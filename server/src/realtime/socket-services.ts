import type { Delivery } from '../bus/delivery.js';
import type { CallService } from '../services/call-service.js';
import type { Foreground } from '../services/foreground.js';
import type { MessageService } from '../services/message-service.js';
import type { NotificationCounts } from '../services/notification-counts.js';
import type { SessionService } from '../services/session-service.js';
import type { FairUse } from './fair-use.js';

/**
 * What the chat socket asks of the rest of the server: the services its frames call and the bus it listens
 * on. The composition root (composition/container.ts) hands it its own `Services`, which hold these.
 */
export interface SocketServices {
  sessions: SessionService;
  messages: MessageService;
  notifications: NotificationCounts;
  calls: CallService;
  delivery: Delivery;
  foreground: Foreground;
  /** Per-member limits on the chat socket (sockets, messages, images). */
  fairUse: FairUse;
}
