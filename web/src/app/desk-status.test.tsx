// @vitest-environment jsdom
import { jaMember, type ConversationRow } from '@enishi/contract';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { setSession } from '@/lib/session';
import { RoomList } from '@/features/rooms/components/room-list';
import { DeskFilters, useDeskFilters } from '@/features/desk/components/desk-filters';
import { DeskTalkBar } from '@/features/desk/components/desk-talk-bar';

/*
 * The desk's status and 担当 (product.md §2.6): the filters ask the server for what they say and live in the
 * address, the rows show status and 担当 in words, the open talk's status buttons and 担当 picker are named
 * controls that send the change.
 */

const t = jaMember.deskTalk;
const row = (patch: Partial<ConversationRow>): ConversationRow => ({
  id: 11,
  conversation_id: 11,
  type: 'men',
  name: '山田 太郎',
  uid: 101,
  username: '山田 太郎',
  role: 101,
  rank: 1,
  user_image: null,
  last_content: JSON.stringify({ content: 'よろしくお願いします' }),
  last_date: null,
  unread: 1,
  desk_status: 'open',
  assignee: null,
  ...patch,
});

let asked: { url: string; body: Record<string, unknown> }[] = [];
let talk: ConversationRow;

beforeEach(() => {
  // Staff of role 6: takes talks, but hands none over.
  setSession({ uid: 6, role: 6, rank: 0, name: '受付 佐藤', session: 's', image: null });
  asked = [];
  talk = row({});
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      asked.push({ url, body });
      const reply = (value: unknown) => Promise.resolve(Response.json(value));
      if (url === '/api/conversations') {
        const rows =
          body.desk_status === 'done'
            ? []
            : [
                talk,
                row({
                  id: 12,
                  name: '鈴木 一郎',
                  desk_status: 'pending',
                  assignee: { uid: 3, name: '主任 田中' },
                  unread: 0,
                }),
              ];
        return reply({ rows, isEnd: true });
      }
      if (url === '/api/desk/staff')
        return reply({
          rows: [
            { uid: 3, name: '主任 田中' },
            { uid: 6, name: '受付 佐藤' },
          ],
          round_robin: false,
        });
      if (url === '/api/desk/status') {
        talk = { ...talk, desk_status: body.status as 'done' };
        return reply({ conversation_id: 11, uid: 101, status: body.status, assignee: talk.assignee });
      }
      if (url === '/api/desk/assign') {
        talk = { ...talk, assignee: body.assignee === 6 ? { uid: 6, name: '受付 佐藤' } : null };
        return reply({ conversation_id: 11, uid: 101, status: talk.desk_status, assignee: talk.assignee });
      }
      return new Promise(() => {});
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Filtered() {
  const [filters, setFilters] = useDeskFilters();
  return (
    <>
      <DeskFilters filters={filters} onChange={setFilters} />
      <RoomList type="men" filters={filters} noHits={t.noFilterHits} />
    </>
  );
}

/** The open talk's bar, reading its row as the desk does (the change updates it). */
function OpenTalk() {
  const current = useQuery({ queryKey: ['conversation', 11], queryFn: () => talk }).data;
  return current ? <DeskTalkBar row={current} /> : null;
}

function renderDesk(ui: React.ReactNode, path = '/talkrooms') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const listAsks = () => asked.filter((each) => each.url === '/api/conversations').map((each) => each.body);

describe('the desk list’s filters', () => {
  it('shows each talk’s status and 担当 in words', async () => {
    renderDesk(<Filtered />);
    const list = await screen.findByRole('list', { name: /./ });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]!.textContent).toContain('未対応');
    expect(rows[0]!.textContent).toContain('担当なし');
    expect(rows[1]!.textContent).toContain('対応中');
    expect(rows[1]!.textContent).toContain('担当：主任 田中');
  }, 20_000);

  it('asks the server for the status, 担当 and unread chosen, and says when none match', async () => {
    renderDesk(<Filtered />);
    await screen.findByText('鈴木 一郎');
    const statuses = screen.getByRole('group', { name: t.filterStatus });
    const all = within(statuses).getByRole('button', { name: t.allStatuses });
    expect(all.getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(within(statuses).getByRole('button', { name: '未対応' }));
    await waitFor(() => expect(listAsks().at(-1)).toMatchObject({ desk_status: 'open' }));
    expect(within(statuses).getByRole('button', { name: '未対応' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    fireEvent.change(screen.getByRole('combobox', { name: t.filterAssignee }), { target: { value: 'me' } });
    await waitFor(() => expect(listAsks().at(-1)).toMatchObject({ desk_status: 'open', assignee: 'me' }));

    fireEvent.click(screen.getByRole('checkbox', { name: t.unreadOnly }));
    await waitFor(() =>
      expect(listAsks().at(-1)).toMatchObject({ desk_status: 'open', assignee: 'me', unread_only: true }),
    );

    fireEvent.click(within(statuses).getByRole('button', { name: '対応済み' }));
    expect(await screen.findByText(t.noFilterHits)).toBeTruthy();
  }, 20_000);

  it('reads the filters from the address (a reload keeps them)', async () => {
    renderDesk(<Filtered />, '/talkrooms?status=pending&assignee=3&unread=1');
    await screen.findByText('鈴木 一郎');
    expect(listAsks()[0]).toMatchObject({ desk_status: 'pending', assignee: 3, unread_only: true });
    expect(
      (screen.getByRole('combobox', { name: t.filterAssignee }) as HTMLSelectElement).selectedOptions[0]
        ?.textContent,
    ).toBe('主任 田中');
  }, 20_000);
});

describe('the open talk’s status and 担当', () => {
  it('has one pressed status button of three, and sends the one pressed', async () => {
    renderDesk(<OpenTalk />);
    const group = await screen.findByRole('group', { name: t.statusGroup });
    const buttons = within(group).getAllByRole('button');
    expect(buttons.map((button) => [button.textContent, button.getAttribute('aria-pressed')])).toEqual([
      ['未対応', 'true'],
      ['対応中', 'false'],
      ['対応済み', 'false'],
    ]);
    fireEvent.click(within(group).getByRole('button', { name: '対応済み' }));
    await waitFor(() =>
      expect(within(group).getByRole('button', { name: '対応済み' }).getAttribute('aria-pressed')).toBe(
        'true',
      ),
    );
    expect(asked.find((each) => each.url === '/api/desk/status')?.body).toMatchObject({
      conversation_id: 11,
      status: 'done',
    });
  }, 20_000);

  it('takes the talk with 自分が担当; role 6 is offered only 担当なし and themself', async () => {
    renderDesk(<OpenTalk />);
    const picker = (await screen.findByRole('combobox', { name: t.assignee })) as HTMLSelectElement;
    await waitFor(() => expect(picker.options.length).toBe(2));
    expect([...picker.options].map((option) => option.textContent)).toEqual([t.assigneeNone, '受付 佐藤']);
    fireEvent.click(screen.getByRole('button', { name: t.takeMine }));
    await waitFor(() => expect(picker.selectedOptions[0]?.textContent).toBe('受付 佐藤'));
    expect(asked.find((each) => each.url === '/api/desk/assign')?.body).toMatchObject({
      conversation_id: 11,
      assignee: 6,
    });
    // Once one's own, the button is gone (nothing to take).
    expect(screen.queryByRole('button', { name: t.takeMine })).toBeNull();
  }, 20_000);
});
