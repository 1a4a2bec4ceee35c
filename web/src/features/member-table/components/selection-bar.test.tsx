// @vitest-environment jsdom
import { jaMember } from '@enishi/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { describedBy } from '@/testing/described-by';
import { SelectionBar } from './selection-bar';

/* The member table's bulk send (product.md §2.8): greyed out with nobody chosen, and the reason is read with it. */

const t = jaMember.table;

afterEach(cleanup);

function show(selected: Record<string, boolean>) {
  render(
    <MemoryRouter>
      <SelectionBar kind="men" selected={selected} onClear={() => undefined} />
    </MemoryRouter>,
  );
  return screen.getByRole('button', { name: t.sendToSelected });
}

describe('the bulk send of the member table', () => {
  it('with no row chosen is greyed out, and its description says to choose rows first', () => {
    const send = show({});
    expect((send as HTMLButtonElement).disabled).toBe(true);
    expect(describedBy(send)).toBe(t.sendDisabled);
    expect(screen.getByText(t.sendDisabled)).toBeTruthy();
  });

  it('with rows chosen is ready and says how many', () => {
    const send = show({ '11': true, '12': true, '13': false });
    expect((send as HTMLButtonElement).disabled).toBe(false);
    expect(send.getAttribute('aria-describedby')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe(t.selected(2));
  });
});
