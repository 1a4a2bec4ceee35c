import type { ConversationRow } from '@enishi/contract';
import { WebSocket as NodeWebSocket } from 'ws';
import { setSession } from '@/lib/session';

/*
 * What jsdom lacks and a browser has, for component tests against a real local server: the page's address
 * (so that `/api/...` and the socket reach it), fetch with a relative URL, a WebSocket client that works in
 * Node (the `ws` package's; jsdom's mixes two kinds of Event), CSS.supports, a phone's size for every element
 * (jsdom lays nothing out, and the timeline draws only the rows within its height), ResizeObserver (nothing
 * resizes) and modal dialogs. Everything else is the real thing.
 */

type Jsdom = { reconfigure: (options: { url: string }) => void };

export function actAsBrowserAt(origin: string): void {
  (globalThis as unknown as { jsdom: Jsdom }).jsdom.reconfigure({ url: `${origin}/` });
  const fetchFromNode = globalThis.fetch;
  globalThis.fetch = (input, init) =>
    fetchFromNode(typeof input === 'string' ? new URL(input, location.href) : input, init);
  globalThis.WebSocket = NodeWebSocket as unknown as typeof WebSocket;
  globalThis.CSS ??= { supports: () => false } as unknown as typeof CSS;
  Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 375 });
  Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => 812 });
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  shimModalDialogs();
}

/** `<dialog>`'s showModal and close, which jsdom lacks. */
export function shimModalDialogs(): void {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}

/** Staff member 1 logged in; their talks are with member 7. */
export const staffSession = {
  uid: 1,
  role: 1,
  rank: 0,
  name: '受付',
  session: 'test-session',
  image: null,
};

export const logInAsStaff = () => setSession(staffSession);

/** Member 7's desk talk, as staff see it in the men's list. */
export const deskTalk: ConversationRow = {
  id: 1,
  conversation_id: 1,
  type: 'men',
  name: '山田太郎',
  uid: 7,
  username: 'yamada',
  role: 101,
  rank: 1,
  user_image: null,
  last_content: '{"content": ""}',
  last_date: null,
  unread: 0,
};
