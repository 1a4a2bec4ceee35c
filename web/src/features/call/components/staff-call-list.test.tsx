// @vitest-environment jsdom
import { ja, type StaffRow, jaMember } from '@enishi/contract';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { emitChatEvent } from '@/lib/chat/events';
import { useStaffList } from '../hooks/use-staff-list';
import { StaffCallList } from './staff-call-list';

/* /contact's staff list: the `staff` frame fills it, `updateConnection` frames keep presence live. */

const rows: StaffRow[] = [
  { uid: 3, name: '佐藤', image: null, isOnline: true },
  { uid: 4, name: '鈴木', image: null, isOnline: false },
];

afterEach(cleanup);

function LiveList({ onCall }: { onCall?: (row: StaffRow) => void }) {
  return <StaffCallList rows={useStaffList()} onCall={onCall} />;
}

const rowOf = (name: string) => screen.getByText(name, { selector: '.staff-calls__name' }).closest('li')!;

describe('the staff list of /contact and /call', () => {
  it('waits for the list, then shows who is online, live', () => {
    render(<LiveList />);
    expect(screen.getByRole('progressbar', { name: ja.app.loading })).toBeTruthy();
    act(() => emitChatEvent('call', { type: 'staff', rows }));
    expect(within(rowOf('佐藤')).getByText(jaMember.calls.online)).toBeTruthy();
    expect(within(rowOf('鈴木')).getByText(jaMember.calls.offline)).toBeTruthy();
    act(() => emitChatEvent('call', { type: 'updateConnection', uid: 4, isOnline: true }));
    act(() => emitChatEvent('call', { type: 'updateConnection', uid: 3, isOnline: false }));
    expect(within(rowOf('鈴木')).getByText(jaMember.calls.online)).toBeTruthy();
    expect(within(rowOf('佐藤')).getByText(jaMember.calls.offline)).toBeTruthy();
    // Staff only look: no buttons.
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('for a male member each staff member is a button that calls them, offline ones too', () => {
    const called: number[] = [];
    render(<LiveList onCall={(row) => called.push(row.uid)} />);
    act(() => emitChatEvent('call', { type: 'staff', rows }));
    expect(screen.getAllByRole('button')).toHaveLength(2);
    screen.getByRole('button', {
      name: new RegExp(`佐藤.*${jaMember.calls.online}.*${jaMember.calls.callButton}`),
    });
    fireEvent.click(
      screen.getByRole('button', {
        name: new RegExp(`鈴木.*${jaMember.calls.offline}.*${jaMember.calls.callButton}`),
      }),
    );
    expect(called).toEqual([4]);
  });

  it('says so when the club has no staff', () => {
    render(<LiveList />);
    act(() => emitChatEvent('call', { type: 'staff', rows: [] }));
    expect(screen.getByText(jaMember.calls.noStaff)).toBeTruthy();
  });
});
