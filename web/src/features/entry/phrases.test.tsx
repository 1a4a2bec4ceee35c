// @vitest-environment jsdom
import { ja } from '@enishi/contract';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { computePhrases } from './utils/compute-phrases';
import { Phrases } from './components/phrases';
import { PHRASE_BREAKS } from './phrases';

describe('phrase breaks of the public pages', () => {
  it('are what BudouX finds in today’s catalogue (else: npm run phrases -w @enishi/web)', () => {
    expect(PHRASE_BREAKS).toEqual(computePhrases());
  });

  it('break lines between phrases only, and keep the text as it is', () => {
    const { container } = render(<Phrases text={ja.intro.installLead} />);
    const shown = container.querySelector('.phrases')!;
    expect(shown.textContent).toBe(ja.intro.installLead);
    const phrases = shown.innerHTML.split('<wbr>');
    expect(phrases.length).toBeGreaterThan(2);
    expect(phrases).toContain('すぐ');
    expect(phrases.join('')).toBe(ja.intro.installLead);
  });
});
