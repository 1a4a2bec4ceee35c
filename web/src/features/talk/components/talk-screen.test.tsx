// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { ja, jaMember } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forgetUser } from '@/lib/auth';
import { getChatStatus } from '@/lib/chat/events';
import { clearHistory, loadTalk, saveTalk } from '@/lib/chat/history';
import { startChatSocket, stopChatSocket } from '@/lib/chat/socket';
import { ConfirmProvider } from '@/components/ui/confirm-dialog';
import { ToastViewport } from '@/components/ui/toast-viewport';
import { actAsBrowserAt, deskTalk, logInAsStaff, staffSession } from '@/testing/browser-shims';
import { startClubServer, type ClubServer } from '@/testing/club-server';
import { prefetchNewestPage, readKeptPages } from '../api/get-messages';
import { TalkScreen } from './talk-screen';

let server: ClubServer;

beforeAll(async () => {
  server = await startClubServer(deskTalk, []);
  actAsBrowserAt(server.origin);
  startChatSocket();
});
// Each test logs in to an empty talk on a server that has heard nothing yet, and logs out after it (the
// socket closed, nothing of the user left on the device), so no test sees another's socket or messages.
beforeEach(async () => {
  server.messages.splice(0);
  server.frames.splice(0);
  logInAsStaff();
  await untilLive();
});
afterEach(async () => {
  cleanup();
  forgetUser();
  // forgetUser does not wait for the stored talks to go.
  await clearHistory();
});
afterAll(async () => {
  stopChatSocket();
  await server.close();
});

const untilLive = () => waitFor(() => expect(getChatStatus()).toBe('live'), { timeout: 10_000 });

function openTalk() {
  drawTalk();
  return screen.findByRole('log', { name: ja.talk.timeline });
}

function drawTalk() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ConfirmProvider>
        <MemoryRouter initialEntries={['/talk/1']}>
          <TalkScreen conversationId={deskTalk.id} />
        </MemoryRouter>
        <ToastViewport />
      </ConfirmProvider>
    </QueryClientProvider>,
  );
}

async function send(text: string) {
  const box = screen.getByRole('textbox', { name: ja.talk.composer });
  // The comment box is controlled: a change event carries the typed text.
  fireEvent.change(box, { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: ja.talk.send }));
}

/** How often the server was told that talk 1 is on screen (each time marks it read). */
const opensOfTalk = () =>
  server.frames.filter(
    (frame) => (frame.type === 'open' || frame.type === 'session') && frame.conversation_id === deskTalk.id,
  ).length;

describe('the talk screen', () => {
  it('marks the talk read once when it opens, and not again as messages arrive', async () => {
    server.receive({ message: '開く前のメッセージ' });
    const log = await openTalk();
    await within(log).findByText('開く前のメッセージ');
    await waitFor(() => expect(opensOfTalk()).toBe(1));
    server.receive({ message: '開いている間のメッセージ' });
    await within(log).findByText('開いている間のメッセージ');
    expect(opensOfTalk()).toBe(1);
  });

  it("draws the newest page its loader has read with the screen's first drawing, without a spinner first", async () => {
    server.receive({ message: '画面より先に届いたページ' });
    await prefetchNewestPage(deskTalk.id);
    drawTalk();
    // Not waited for: the messages are in the very first drawing.
    expect(screen.queryByRole('progressbar', { name: ja.app.loading })).toBeNull();
    const log = screen.getByRole('log', { name: ja.talk.timeline });
    expect(within(log).getByText('画面より先に届いたページ')).toBeTruthy();
  });

  it('reads a talk opened again afresh, not the page its loader read for the first opening', async () => {
    await prefetchNewestPage(deskTalk.id);
    drawTalk();
    cleanup();
    server.receive({ message: '閉じている間のメッセージ' });
    // Drawn from a fresh read: with the message from the start, not the old page that the socket mends later.
    const log = await openTalk();
    expect(within(log).getByText('閉じている間のメッセージ')).toBeTruthy();
  });

  it('reads the newest page once when it opens while its socket connects, and again after a drop', async () => {
    const gone = server.receive({ message: '再接続の間に消えるメッセージ' });
    server.dropSockets();
    await waitFor(() => expect(getChatStatus()).toBe('offline'));
    const reads = server.pageReads();
    const log = await openTalk(); // opened while the socket is down: it catches up and is live after the read
    await within(log).findByText(gone.message);
    await untilLive();
    // Dropped once more and deleted meanwhile: back live, the page is read again and takes it away.
    server.dropSockets();
    await waitFor(() => expect(getChatStatus()).toBe('offline'));
    server.messages.splice(server.messages.indexOf(gone), 1);
    await untilLive();
    await waitFor(() => expect(within(log).queryByText(gone.message)).toBeNull());
    expect(server.pageReads() - reads).toBe(2);
  }, 20_000);

  it('draws the copy kept on the device while its newest page is on its way, then the page in its place', async () => {
    const known = server.receive({ message: '端末に残っているメッセージ' });
    const page = { rows: [{ date: 'today', messages: [known] }], isEnd: true };
    await saveTalk({ uid: staffSession.uid, conversation_id: deskTalk.id, row: deskTalk, page });
    const fresh = server.receive({ message: 'サーバーにだけある新しいメッセージ' });
    const slowPage = server.holdNextPage();
    void prefetchNewestPage(deskTalk.id);
    await readKeptPages(staffSession.uid, deskTalk.id);
    drawTalk(); // not waited for: the kept copy is in the first drawing, before the server has answered
    const log = screen.getByRole('log', { name: ja.talk.timeline });
    const shown = () => [known, fresh].map(({ message }) => within(log).queryAllByText(message).length);
    expect(shown()).toEqual([1, 0]);
    slowPage.release();
    await waitFor(() => expect(shown()).toEqual([1, 1]));
  });

  it('shows a message from the other side as it arrives', async () => {
    const log = await openTalk();
    server.receive({ message: 'こんにちは、山田です' });
    expect(await within(log).findByText('こんにちは、山田です')).toBeTruthy();
  });

  it('shows a sent comment at once and once only, also after the server stored it', async () => {
    const log = await openTalk();
    await send('本日はありがとうございました');
    expect(within(log).getAllByText('本日はありがとうございました')).toHaveLength(1);
    await waitFor(() => expect(server.messages.at(-1)?.message).toBe('本日はありがとうございました'));
    await waitFor(() => expect(within(log).queryByText(ja.talk.sending)).toBeNull());
    expect(within(log).getAllByText('本日はありがとうございました')).toHaveLength(1);
  });

  it('keeps a comment written while disconnected as 送信待ち and sends it when the socket is back', async () => {
    const log = await openTalk();
    server.dropSockets();
    await waitFor(() => expect(getChatStatus()).toBe('offline'));
    await send('電波が戻ったら送ってください');
    expect(await within(log).findByText(ja.talk.waiting)).toBeTruthy();

    await untilLive();
    await waitFor(() => expect(within(log).queryByText(ja.talk.waiting)).toBeNull());
    expect(within(log).getAllByText('電波が戻ったら送ってください')).toHaveLength(1);
    expect(
      server.messages.filter((message) => message.message === '電波が戻ったら送ってください'),
    ).toHaveLength(1);
  }, 15_000);

  it('keeps a comment stored while the page read on reconnecting was on its way', async () => {
    const log = await openTalk();
    const gone = server.receive({ message: '接続が切れている間に消えるメッセージ' });
    await within(log).findByText(gone.message);
    const slowPage = server.holdNextPage();
    server.dropSockets();
    server.messages.splice(server.messages.indexOf(gone), 1); // deleted while this screen was offline
    await slowPage.requested; // back live, the newest page is read before the comment is stored
    await send('読み直しの最中に送ります');
    await waitFor(() => expect(within(log).queryByText(ja.talk.sending)).toBeNull());
    slowPage.release();
    // The page came (it took away what was deleted meanwhile); the comment it could not know stays, once.
    await waitFor(() => expect(within(log).queryByText(gone.message)).toBeNull());
    expect(within(log).getAllByText('読み直しの最中に送ります')).toHaveLength(1);
  }, 15_000);

  it('deletes a message after asking, for this screen and the server', async () => {
    const log = await openTalk();
    await send('消すメッセージ');
    await waitFor(() => expect(server.messages.at(-1)?.message).toBe('消すメッセージ'));
    await waitFor(() => expect(within(log).queryByText(ja.talk.sending)).toBeNull());
    const article = within(log).getByText('消すメッセージ').closest('article')!;
    fireEvent.click(within(article as HTMLElement).getByRole('button', { name: ja.talk.messageMenu }));
    fireEvent.click(await screen.findByRole('menuitem', { name: ja.talk.delete }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(ja.talk.deleteConfirm)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: ja.app.yes }));

    await waitFor(() => expect(within(log).queryByText('消すメッセージ')).toBeNull());
    expect(server.messages.some((message) => message.message === '消すメッセージ')).toBe(false);
    expect(await screen.findByText(ja.talk.deleted)).toBeTruthy();
  });

  it('shows the newest messages of a talk opened before when offline, and forgets them at logout', async () => {
    server.receive({ message: '電車の中でも読めますか' });
    const log = await openTalk();
    await within(log).findByText('電車の中でも読めますか');
    const kept = async () => {
      const talk = await loadTalk(staffSession.uid, deskTalk.id);
      return talk?.page.rows.flatMap((group) => group.messages.map((message) => message.message));
    };
    await waitFor(async () => expect(await kept()).toEqual(['電車の中でも読めますか']));
    cleanup();

    const online = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!;
    Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });
    try {
      const offline = await openTalk();
      expect(await within(offline).findByText('電車の中でも読めますか')).toBeTruthy();
      expect(screen.getByRole('heading', { level: 1, name: deskTalk.name })).toBeTruthy();
      cleanup();

      forgetUser();
      logInAsStaff();
      await waitFor(async () => expect(await kept()).toBeUndefined());
    } finally {
      Object.defineProperty(Navigator.prototype, 'onLine', online);
    }
  });

  it('takes back one of its own messages after asking: a muted bubble says so, with no other words', async () => {
    const log = await openTalk();
    await send('取り消すメッセージ');
    await waitFor(() => expect(server.messages.at(-1)?.message).toBe('取り消すメッセージ'));
    await waitFor(() => expect(within(log).queryByText(ja.talk.sending)).toBeNull());
    const article = within(log).getByText('取り消すメッセージ').closest('article')!;
    fireEvent.click(within(article as HTMLElement).getByRole('button', { name: ja.talk.messageMenu }));
    fireEvent.click(await screen.findByRole('menuitem', { name: jaMember.unsend.action }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(jaMember.unsend.confirm)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: ja.app.yes }));

    const unsent = await within(log).findByText(jaMember.unsend.unsent);
    expect(unsent.closest('article')?.classList.contains('msg--unsent')).toBe(true);
    expect(within(log).queryByText('取り消すメッセージ')).toBeNull();
    expect(server.frames.some((frame) => frame.type === 'unsend')).toBe(true);
    // Its menu offers nothing but 削除 now.
    fireEvent.click(
      within(unsent.closest('article') as HTMLElement).getByRole('button', { name: ja.talk.messageMenu }),
    );
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([ja.talk.delete]);
  });

  it("replaces the other side's message taken back as it arrives, and the quote of a reply to it", async () => {
    const original = server.receive({ message: '向こうが取り消す言葉' });
    server.receive({
      message: 'それに返信します',
      reply: {
        id: original.id,
        message: original.message,
        own: false,
        name: original.name,
        role: 101,
        image: [],
      },
    });
    const log = await openTalk();
    expect(await within(log).findAllByText('向こうが取り消す言葉')).toHaveLength(2);
    server.push({ type: 'message', ...original, message: jaMember.unsend.unsent, image: [], unsent: true });
    await waitFor(() => expect(within(log).queryByText('向こうが取り消す言葉')).toBeNull());
    expect(within(log).getAllByText(jaMember.unsend.unsent)).toHaveLength(2);
  });

  it('offers 送信取消 only within 24 hours of sending', async () => {
    const day = 24 * 60 * 60 * 1000;
    server.receive({
      message: '一日前の自分の言葉',
      own: true,
      date: new Date(Date.now() - day - 60_000).toISOString(),
    });
    server.receive({
      message: '少し前の自分の言葉',
      own: true,
      date: new Date(Date.now() - day + 60_000).toISOString(),
    });
    const log = await openTalk();
    const menuOf = async (text: string) => {
      const article = (await within(log).findByText(text)).closest('article') as HTMLElement;
      fireEvent.click(within(article).getByRole('button', { name: ja.talk.messageMenu }));
      const names = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
      fireEvent.click(screen.getByRole('button', { name: ja.app.cancel }));
      await waitFor(() => expect(screen.queryAllByRole('menuitem')).toHaveLength(0));
      return names;
    };
    expect(await menuOf('一日前の自分の言葉')).not.toContain(jaMember.unsend.action);
    expect(await menuOf('少し前の自分の言葉')).toContain(jaMember.unsend.action);
  });
});
