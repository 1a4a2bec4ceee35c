// @vitest-environment jsdom
import { jaMember, type MemberKind } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { describedBy } from '@/testing/described-by';
import { MemberForm } from './member-form';

/*
 * The member and staff forms explain their rules before anything is sent (product.md §2.8, §5): what an ID
 * and a password may hold is on the screen under each field and is the field's accessible description, so a
 * screen reader reads it on entering the field. Only the first 登録する is pressed here, and the check before
 * sending stops it: nothing reaches a server.
 */

const text = jaMember.members;

afterEach(cleanup);

/** A field by its label (the label holds 必須 on a required field; パスワードを表示 is another label). */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}(${text.required})?$`));

function show(kind: MemberKind) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <MemberForm kind={kind} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe.each(['men', 'staff'] as const)('the %s add form', (kind) => {
  it('shows the ID and password rules under their fields before it is sent, as their descriptions', () => {
    show(kind);
    const id = field(text.fields.id);
    const pass = field(text.fields.pass);
    expect(screen.getByText(text.hints.id)).toBeTruthy();
    expect(screen.getByText(text.hints.pass)).toBeTruthy();
    expect(describedBy(id)).toBe(text.hints.id);
    expect(describedBy(pass)).toBe(text.hints.pass);
  });

  it('keeps the rule beside the error once the check before sending finds one', () => {
    show(kind);
    fireEvent.click(screen.getByRole('button', { name: text.submitAdd }));
    const id = field(text.fields.id);
    expect(id.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(id)).toContain(text.hints.id);
    expect(describedBy(id).length).toBeGreaterThan(text.hints.id.length);
  });
});
