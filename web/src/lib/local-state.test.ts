import { describe, expect, it } from 'vitest';
import { readStoredState } from './local-state';

const session = { uid: 7, role: 101, rank: 1, name: '佐藤 健一', session: 'ssid-1', image: null };

describe('readStoredState', () => {
  it('reads back what the app stored', () => {
    const stored = {
      session,
      counters: { news: 1, fromStaff: 2, setting: 0, fromWomen: 0, fromMen: 3 },
      drafts: { '12': 'こんにちは' },
      lastMessageId: 40,
      hiddenAnnouncements: [5],
      recipients: { sendmen: [7, 8] },
    };
    expect(readStoredState(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
  });

  it('drops each field that does not fit on its own, keeping the others', () => {
    const state = readStoredState({
      session: { ...session, session: '' },
      counters: { news: -1 },
      drafts: { '12': 5 },
      lastMessageId: 'x',
      hiddenAnnouncements: [1.5],
      recipients: { sendmen: [7] },
    });
    expect(state).toEqual({
      session: null,
      counters: { news: 0, fromStaff: 0, setting: 0, fromWomen: 0, fromMen: 0 },
      drafts: {},
      lastMessageId: null,
      hiddenAnnouncements: [],
      recipients: { sendmen: [7] },
    });
  });

  it('gives a stored session without an image a null one', () => {
    const { image: _, ...withoutImage } = session;
    expect(readStoredState({ session: withoutImage }).session).toEqual(session);
    expect(readStoredState(null).session).toBeNull();
  });
});
