// @vitest-environment jsdom
import { jaMember, jaIntro } from '@enishi/contract';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { computePhrases } from './utils/compute-phrases';
import { PublicPhrases } from '@/components/ui/public-phrases';
import { PACKED_PHRASES } from '@/lib/phrases-public';
import { hashText, packPhrases, unpackPhrases } from '@/lib/phrase-pack';
import { PACKED_PHRASES as MEMBER_PACKED } from '@/lib/phrases-member';

describe('phrase breaks of the public pages', () => {
  it('are what BudouX finds in today’s catalogue (else: npm run phrases -w @enishi/web)', () => {
    expect(PACKED_PHRASES).toBe(packPhrases(computePhrases()));
  });

  it('of the member area are what BudouX finds in the rest of the catalogue (course, empty states, …)', () => {
    expect(MEMBER_PACKED).toBe(packPhrases(computePhrases('member')));
    // お問い合わせ stays one word (the お問い / 合わせ).
    const text = jaMember.course.fees;
    const cut = unpackPhrases(MEMBER_PACKED)
      .get(hashText(text))!
      .map((at) => text.slice(0, at));
    expect(cut.some((head) => head.endsWith('お問い'))).toBe(false);
  });

  it('break lines between phrases only, and keep the text as it is', () => {
    const { container } = render(<PublicPhrases text={jaIntro.installLead} />);
    const shown = container.querySelector('.phrases')!;
    expect(shown.textContent).toBe(jaIntro.installLead);
    const phrases = shown.innerHTML.split('<wbr>');
    expect(phrases.length).toBeGreaterThan(2);
    expect(phrases).toContain('すぐ');
    expect(phrases.join('')).toBe(jaIntro.installLead);
  });
});
