import { jaMember } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { checkMemberForm, type MemberFormValues } from './member-form';

const e = jaMember.members.errors;
const filled: MemberFormValues = {
  id: 'yamada',
  name: '山田 太郎',
  name_kana: 'ヤマダ タロウ',
  pass: 'Pass-123',
  rank: '2',
  introducer: '',
};

describe('checkMemberForm (product.md §5)', () => {
  it('accepts a complete man and gives the rank as a number', () => {
    expect(checkMemberForm('add', 101, filled)).toEqual({
      ok: true,
      data: {
        id: 'yamada',
        name: '山田 太郎',
        name_kana: 'やまだ たろう',
        pass: 'Pass-123',
        rank: 2,
        role: 101,
        introducer: '',
      },
    });
  });

  it('names every missing field at once', () => {
    const empty: MemberFormValues = { id: '', name: ' ', name_kana: '', pass: '', rank: '', introducer: '' };
    expect(checkMemberForm('add', 101, empty)).toEqual({
      ok: false,
      errors: { id: e.idRequired, name: e.nameRequired, pass: e.passRequired, rank: e.rankRequired },
    });
  });

  it('needs no rank for women and staff, and no password on edit', () => {
    expect(checkMemberForm('add', 201, { ...filled, rank: '' }).ok).toBe(true);
    expect(checkMemberForm('add', 3, { ...filled, rank: '' }).ok).toBe(true);
    expect(checkMemberForm('edit', 101, { ...filled, pass: '' }).ok).toBe(true);
    expect(checkMemberForm('add', 101, { ...filled, pass: '' })).toEqual({
      ok: false,
      errors: { pass: e.passRequired },
    });
  });

  it('keeps the reading in hiragana, none when empty, and refuses other characters (product.md §5.7)', () => {
    const data = (name_kana: string) => {
      const checked = checkMemberForm('add', 3, { ...filled, name_kana });
      return checked.ok ? checked.data.name_kana : checked.errors;
    };
    expect(data('ﾔﾏﾀﾞ  タロウ ')).toBe('やまだ たろう');
    expect(data(' ')).toBe(null);
    expect(data('山田')).toEqual({ name_kana: e.kanaInvalid });
  });

  it('refuses what typing cannot produce but a paste could', () => {
    expect(checkMemberForm('add', 201, { ...filled, id: 'a b' })).toEqual({
      ok: false,
      errors: { id: e.idInvalid },
    });
    expect(checkMemberForm('add', 201, { ...filled, introducer: 'x'.repeat(25) })).toEqual({
      ok: false,
      errors: { introducer: e.introducerTooLong },
    });
  });
});
