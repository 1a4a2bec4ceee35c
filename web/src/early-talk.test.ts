// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getMessages } from '@/features/talk/api/get-messages';
import { api } from '@/lib/api-client';
import { EARLY_CALL_FRESH_MS } from '@/lib/early-calls';
import { STORAGE_KEY, clearLocalState } from '@/lib/local-state';
import { setSession } from '@/lib/session';

const man = { uid: 7, role: 101, rank: 1, name: '佐藤 健一', session: 'ssid-man', image: null };
const page = { rows: [], dates: [] };

/** Every call sent, and a reply that names the call it answers. */
function server() {
  const sent: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(JSON.stringify({ ...page, asked: sent.length }), { status: 200 });
    }),
  );
  return sent;
}

/** The talk's HTML at `path` runs its first script. */
async function openTalkPage(path: string): Promise<void> {
  window.history.replaceState(null, '', path);
  vi.resetModules();
  await import('./early-talk');
}

describe("a talk's first calls, asked for before the app's scripts arrive (product.md §2.7)", () => {
  beforeEach(() => {
    setSession(man);
    delete (globalThis as { __enishiEarlyCalls?: unknown }).__enishiEarlyCalls;
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    clearLocalState();
  });

  it('asks as the app would, and the app takes the answers instead of asking again', async () => {
    const sent = server();
    await openTalkPage('/talk/staff/42');
    // In a member's talk with the desk, the club's calendar its auto-reply follows too; and the member area's
    // account notices.
    expect(sent.map(({ url }) => url)).toEqual([
      '/api/get_conversation',
      '/api/messages',
      '/api/notices',
      '/api/calendar',
    ]);

    await expect(getMessages(42, undefined)).resolves.toMatchObject({ asked: 2 });
    await expect(api('get_conversation', { conversation_id: 42 })).resolves.toMatchObject({ asked: 1 });
    await expect(api('notices', {})).resolves.toMatchObject({ asked: 3 });
    await expect(api('calendar', {})).resolves.toMatchObject({ asked: 4 });
    expect(sent).toHaveLength(4);
    // The same request the app makes itself (its next read of the page is its own).
    await api('messages', { id: 42 });
    expect(sent).toHaveLength(5);
    const { signal, ...own } = sent[4]!.init;
    expect(signal).toBeNull();
    expect(sent[1]).toEqual({ url: sent[4]!.url, init: own });
  });

  it("asks for no calendar in the staff desk's talk, which shows no auto-reply", async () => {
    const sent = server();
    await openTalkPage('/talk/42');
    expect(sent.map(({ url }) => url)).toEqual(['/api/get_conversation', '/api/messages', '/api/notices']);
  });

  it('reads the session where the app keeps it, and asks nothing for nobody or elsewhere', async () => {
    expect(STORAGE_KEY).toBe((await import('./early-talk')).STORAGE_KEY);
    const sent = server();
    await openTalkPage('/talk/staff/42?m=3');
    await openTalkPage('/news');
    clearLocalState();
    await openTalkPage('/talk/42');
    expect(sent.filter(({ url }) => url === '/api/messages')).toHaveLength(1);
  });

  it("another session's answer, or a stale one, is not taken", async () => {
    const sent = server();
    await openTalkPage('/talk/42');
    setSession({ ...man, uid: 8, session: 'ssid-other' });
    await api('messages', { id: 42 });
    expect(sent).toHaveLength(4);

    setSession(man);
    vi.useFakeTimers({ toFake: ['Date'] });
    await openTalkPage('/talk/43');
    vi.setSystemTime(Date.now() + EARLY_CALL_FRESH_MS);
    await api('messages', { id: 43 });
    expect(sent).toHaveLength(8);
  });
});
