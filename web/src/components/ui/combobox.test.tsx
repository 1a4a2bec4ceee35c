// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ComboboxField } from './combobox';

const options = [
  { value: '1', label: '三菱商事' },
  { value: '2', label: '三井物産' },
  { value: '3', label: '伊藤忠商事' },
];

function Harness() {
  const [value, setValue] = useState('');
  return (
    <>
      <ComboboxField id="company" label="会社" value={value} options={options} onChange={setValue} />
      <output>{value}</output>
    </>
  );
}

afterEach(cleanup);

describe('ComboboxField', () => {
  it('filters by any part of the label and chooses with the keyboard', () => {
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: '会社' });
    fireEvent.change(input, { target: { value: '商事' } });
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      '三菱商事',
      '伊藤忠商事',
    ]);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[1]!.id);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByRole('status').textContent).toBe('3');
    expect((input as HTMLInputElement).value).toBe('伊藤忠商事');
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('puts the chosen label back on Escape', () => {
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: '会社' });
    fireEvent.change(input, { target: { value: '三井' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: 'xyz' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect((input as HTMLInputElement).value).toBe('三井物産');
  });
});
