// @vitest-environment jsdom
import { type EntryQueryInput, jaMember } from '@enishi/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WomenFilters } from './women-filters';

/* The search form of the women's list: the club (company) control from the owner's company list. */

afterEach(cleanup);

const companies = [
  { code: 7, label: '銀座エンジェル' },
  { code: 12, label: '六本木ローズ' },
];

function renderFilters(value: EntryQueryInput = {}, list = companies) {
  const applied: EntryQueryInput[] = [];
  render(<WomenFilters value={value} companies={list} onApply={(query) => applied.push(query)} />);
  return applied;
}

const search = () => fireEvent.click(screen.getByRole('button', { name: jaMember.women.apply }));

describe('the club filter of the women list', () => {
  it('offers the club’s companies and searches by the one chosen', () => {
    const applied = renderFilters();
    const club = screen.getByRole('combobox', { name: jaMember.women.club }) as HTMLSelectElement;
    expect([...club.options].map((option) => option.textContent)).toEqual([
      jaMember.women.any,
      '銀座エンジェル',
      '六本木ローズ',
    ]);
    fireEvent.change(club, { target: { value: '12' } });
    search();
    expect(applied).toEqual([{ club: [12] }]);
  });

  it('shows the club already applied, and 指定なし drops it from the search', () => {
    const applied = renderFilters({ club: [7], area: [1] });
    const club = screen.getByRole('combobox', { name: jaMember.women.club }) as HTMLSelectElement;
    expect(club.selectedOptions[0]?.textContent).toBe('銀座エンジェル');
    fireEvent.change(club, { target: { value: '' } });
    search();
    expect(applied).toEqual([{ area: [1] }]);
  });

  it('has no club control while the club has no companies', () => {
    renderFilters({}, []);
    expect(screen.queryByRole('combobox', { name: jaMember.women.club })).toBeNull();
    expect(screen.getByRole('combobox', { name: jaMember.women.sake })).toBeTruthy();
  });
});
