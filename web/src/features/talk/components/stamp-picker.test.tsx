// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { jaMember, type StampsReply } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { logInAsStaff } from '@/testing/browser-shims';
import { rememberStamp, stampsQueryKey } from '../api/get-stamps';
import { Composer, type Outgoing } from './composer';

vi.stubGlobal('CSS', { supports: () => true });
// The panel is its own chunk, loaded when first opened: loaded here first, so opening it waits for no build.
beforeAll(() => import('./stamp-picker'), 30_000);
beforeEach(() => {
  clearLocalState();
  logInAsStaff();
});
afterEach(cleanup);

const stamp = (id: number, label: string) => ({
  id,
  label,
  image: `/media/stamp/${'a'.repeat(21)}${id}?e=1&s=x`,
});
const reply: StampsReply = {
  sets: [
    {
      id: 1,
      name: 'つるちゃん',
      builtin: true,
      enabled: true,
      stamps: [stamp(11, 'ありがとう'), stamp(12, 'OK'), stamp(13, 'おやすみ')],
    },
    { id: 2, name: '季節', builtin: false, enabled: true, stamps: [stamp(21, 'さくら')] },
  ],
  // Sent last: さくら, then おやすみ.
  recent: [21, 13],
};

function composer() {
  const client = new QueryClient();
  client.setQueryData(stampsQueryKey, reply);
  const onSend = vi.fn<(outgoing: Outgoing) => void>();
  render(
    <QueryClientProvider client={client}>
      <Composer conversationId={992} replyTo={null} onCancelReply={() => {}} onSend={onSend} />
    </QueryClientProvider>,
  );
  return { client, onSend };
}

/** Opens the picker and answers the stamps of each section, in order, by their words. */
async function openPicker() {
  fireEvent.click(screen.getByRole('button', { name: jaMember.talkLimit.stamp.open }));
  const panel = await screen.findByRole('dialog', { name: jaMember.stamps.panel });
  return within(panel)
    .getAllByRole('region')
    .map((section) => ({
      title: section.getAttribute('aria-label'),
      stamps: within(section)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    }));
}

describe('the stamp picker beside the comment box', () => {
  it('shows the stamps sent last first, newest first, then every set', async () => {
    composer();
    expect(await openPicker()).toEqual([
      {
        title: jaMember.stamps.recent,
        stamps: [jaMember.stamps.send('さくら'), jaMember.stamps.send('おやすみ')],
      },
      {
        title: 'つるちゃん',
        stamps: ['ありがとう', 'OK', 'おやすみ'].map((label) => jaMember.stamps.send(label)),
      },
      { title: '季節', stamps: [jaMember.stamps.send('さくら')] },
    ]);
  });

  it('sends a chosen stamp alone at once and closes; the next time it comes first', async () => {
    const { client, onSend } = composer();
    await openPicker();
    fireEvent.click(screen.getAllByRole('button', { name: jaMember.stamps.send('OK') })[0]!);
    expect(onSend).toHaveBeenCalledWith({ message: '', image: [], reply: null, stamp: stamp(12, 'OK') });
    expect(screen.queryByRole('dialog')).toBeNull();
    // What the talk does when it sends one (use-talk-actions.ts).
    rememberStamp(client, 12);
    const [recent] = await openPicker();
    expect(recent!.stamps.slice(0, 2)).toEqual([jaMember.stamps.send('OK'), jaMember.stamps.send('さくら')]);
  });

  it('shows no recent row before the first stamp, and Esc closes the panel', async () => {
    const { client } = composer();
    client.setQueryData(stampsQueryKey, { ...reply, recent: [] });
    const sections = await openPicker();
    expect(sections.map((section) => section.title)).toEqual(['つるちゃん', '季節']);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
