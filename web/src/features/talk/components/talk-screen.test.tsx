// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { ja } from '@enishi/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { forgetUser } from '@/lib/auth';
import { getChatStatus } from '@/lib/chat/events';
import { loadTalk, saveTalk } from '@/lib/chat/history';
import { deskTalk, logInAsStaff, staffSession } from '@/testing/browser-shims';
import type { ClubServer } from '@/testing/club-server';
import { drawTalk, openTalk, send, talkScreenSuite, untilLive } from '@/testing/talk-screen';
import { prefetchNewestPage, readKeptPages } from '../api/get-messages';

const suite = talkScreenSuite();
let server: ClubServer;
beforeAll(() => {
  server = suite.server();
});

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

  it('keeps the messages that arrive while the newest page is on its way over the kept copy', async () => {
    const known = server.receive({ message: '端末に残っているメッセージ' });
    const page = { rows: [{ date: 'today', messages: [known] }], isEnd: true };
    await saveTalk({ uid: staffSession.uid, conversation_id: deskTalk.id, row: deskTalk, page });
    server.receive({ message: 'サーバーにだけあるメッセージ' });
    const slowPage = server.holdNextPage();
    void prefetchNewestPage(deskTalk.id);
    await readKeptPages(staffSession.uid, deskTalk.id);
    drawTalk();
    const log = screen.getByRole('log', { name: ja.talk.timeline });
    await slowPage.requested; // the page is read before either message below is stored
    server.receive({ message: '読み込み中に届いたメッセージ' });
    await within(log).findByText('読み込み中に届いたメッセージ');
    send('読み込み中に送ったメッセージ');
    await waitFor(() => expect(within(log).queryByText(ja.talk.sending)).toBeNull());
    slowPage.release();
    // The page takes the kept copy's place; the two messages it could not know stay, once each.
    await within(log).findByText('サーバーにだけあるメッセージ');
    for (const text of [
      '端末に残っているメッセージ',
      '読み込み中に届いたメッセージ',
      '読み込み中に送ったメッセージ',
    ])
      expect(within(log).getAllByText(text)).toHaveLength(1);
  });

  it('shows a message from the other side as it arrives', async () => {
    const log = await openTalk();
    server.receive({ message: 'こんにちは、山田です' });
    expect(await within(log).findByText('こんにちは、山田です')).toBeTruthy();
  });

  it('shows a sent comment at once and once only, also after the server stored it', async () => {
    const log = await openTalk();
    send('本日はありがとうございました');
    expect(within(log).getAllByText('本日はありがとうございました')).toHaveLength(1);
    await waitFor(() => expect(server.messages.at(-1)?.message).toBe('本日はありがとうございました'));
    await waitFor(() => expect(within(log).queryByText(ja.talk.sending)).toBeNull());
    expect(within(log).getAllByText('本日はありがとうございました')).toHaveLength(1);
  });

  it('keeps a comment written while disconnected as 送信待ち and sends it when the socket is back', async () => {
    const log = await openTalk();
    server.dropSockets();
    await waitFor(() => expect(getChatStatus()).toBe('offline'));
    send('電波が戻ったら送ってください');
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
    send('読み直しの最中に送ります');
    await waitFor(() => expect(within(log).queryByText(ja.talk.sending)).toBeNull());
    slowPage.release();
    // The page came (it took away what was deleted meanwhile); the comment it could not know stays, once.
    await waitFor(() => expect(within(log).queryByText(gone.message)).toBeNull());
    expect(within(log).getAllByText('読み直しの最中に送ります')).toHaveLength(1);
  }, 15_000);

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
});
