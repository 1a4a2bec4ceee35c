// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { ja, jaMember } from '@enishi/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClubServer } from '@/testing/club-server';
import { openTalk, send, talkScreenSuite } from '@/testing/talk-screen';

const suite = talkScreenSuite();
let server: ClubServer;
beforeAll(() => {
  server = suite.server();
});

/** Sends `text`, chooses `item` in its menu once stored, and answers yes to `question`; the timeline. */
async function sendAndChoose(text: string, item: string, question: string): Promise<HTMLElement> {
  const log = await openTalk();
  send(text);
  await waitFor(() => expect(server.messages.at(-1)?.message).toBe(text));
  await waitFor(() => expect(within(log).queryByText(ja.talk.sending)).toBeNull());
  const article = within(log).getByText(text).closest('article') as HTMLElement;
  fireEvent.click(within(article).getByRole('button', { name: ja.talk.messageMenu }));
  fireEvent.click(await screen.findByRole('menuitem', { name: item }));
  const dialog = await screen.findByRole('alertdialog');
  expect(within(dialog).getByText(question)).toBeTruthy();
  fireEvent.click(within(dialog).getByRole('button', { name: ja.app.yes }));
  return log;
}

describe("the talk screen's message menu", () => {
  it('deletes a message after asking, for this screen and the server', async () => {
    const log = await sendAndChoose('消すメッセージ', ja.talk.delete, ja.talk.deleteConfirm);

    await waitFor(() => expect(within(log).queryByText('消すメッセージ')).toBeNull());
    expect(server.messages.some((message) => message.message === '消すメッセージ')).toBe(false);
    expect(await screen.findByText(ja.talk.deleted)).toBeTruthy();
  });

  it('takes back one of its own messages after asking: a muted bubble says so, with no other words', async () => {
    const log = await sendAndChoose('取り消すメッセージ', jaMember.unsend.action, jaMember.unsend.confirm);

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
    suite
      .server()
      .push({ type: 'message', ...original, message: jaMember.unsend.unsent, image: [], unsent: true });
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
