// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetUser } from '@/lib/auth';
import { clearHistory, loadTalk } from '@/lib/chat/history';
import { deskTalk, logInAsStaff, staffSession } from '@/testing/browser-shims';
import { testMessage, testPage } from '@/testing/chat';
import { useKeepHistory } from './use-keep-history';

afterEach(async () => {
  forgetUser();
  await clearHistory();
});

const keptTexts = async () =>
  (await loadTalk(staffSession.uid, deskTalk.id))?.page.rows.flatMap((group) =>
    group.messages.map((message) => message.message),
  );

function openTalk() {
  const first = [testPage([testMessage(1, { message: '取り消す前の言葉' })])];
  return renderHook(({ pages }) => useKeepHistory(staffSession.uid, deskTalk.id, deskTalk, pages), {
    initialProps: { pages: first },
  });
}

const takenBack = [testPage([testMessage(1, { message: '取り消されました', unsent: true })])];

describe('useKeepHistory', () => {
  it('keeps the talk as last shown when it closes just after a change', async () => {
    logInAsStaff();
    const talk = openTalk();
    talk.rerender({ pages: takenBack });
    talk.unmount(); // before the 0.5 s the save waits for
    // Read at once: the save was started before this read, and IndexedDB answers them in that order.
    expect(await keptTexts()).toEqual(['取り消されました']);
  });

  it('keeps it when the page goes away (a reload) just after a change', async () => {
    logInAsStaff();
    const talk = openTalk();
    talk.rerender({ pages: takenBack });
    dispatchEvent(new Event('pagehide'));
    expect(await keptTexts()).toEqual(['取り消されました']);
    talk.unmount();
  });

  it('keeps nothing when the user has logged out before the talk closed', async () => {
    logInAsStaff();
    const talk = openTalk();
    forgetUser();
    talk.unmount();
    // Read at once, as above: a save the unmount started would be seen.
    expect(await keptTexts()).toBeUndefined();
  });
});
