import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as jaMember from './ja-member.js';
import { AddUserBody, MemberForm } from './admin.js';
import { jaProfile } from './ja-profile.js';
import { isReading, normaliseReading, toHiragana } from './kana.js';
import { NameKana, ProfilePatch } from './profile.js';

/*
 * Readings (ふりがな, product.md §5.7): one stored form, hiragana, whichever kana script was typed; what is not
 * kana is refused with Japanese words.
 */

const e = jaMember.members.errors;
const HIRAGANA = [
  ...'ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをんゔゕゖゝゞー',
];
const katakanaOf = (text: string) =>
  text.replace(/[\u3041-\u3096\u309D\u309E]/g, (kana) => String.fromCharCode(kana.charCodeAt(0) + 0x60));
/** A reading as stored: words of hiragana, one space between them. */
const reading = fc
  .array(fc.array(fc.constantFrom(...HIRAGANA), { minLength: 1, maxLength: 8 }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((words) => words.map((word) => word.join('')).join(' '));

describe('normaliseReading', () => {
  it('gives the same hiragana for a reading typed in hiragana, katakana or half-width katakana', () => {
    expect(normaliseReading('タナカ　ハナコ')).toBe('たなか はなこ');
    expect(normaliseReading(' ﾀﾅｶ  ﾊﾅｺ ')).toBe('たなか はなこ');
    expect(normaliseReading('ヴァイオリン')).toBe('ゔぁいおりん');
    expect(normaliseReading('ラーメン')).toBe('らーめん');
    fc.assert(
      fc.property(reading, (stored) => {
        expect(normaliseReading(stored)).toBe(stored);
        expect(normaliseReading(katakanaOf(stored))).toBe(stored);
        expect(normaliseReading(`\u3000${katakanaOf(stored).replace(/ /g, '  ')} `)).toBe(stored);
        expect(isReading(stored)).toBe(true);
      }),
    );
  });

  it('is idempotent, and never makes katakana', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (text) => {
        const once = normaliseReading(text);
        expect(normaliseReading(once)).toBe(once);
        expect(/[\u30A1-\u30F6]/.test(once)).toBe(false);
      }),
    );
  });

  it('sorts by code point in あいうえお order', () => {
    const names = ['わたなべ', 'いとう', 'たなか', 'こばやし', 'やまもと', 'あべ', 'がっこう', 'かわ'];
    expect([...names].sort()).toEqual([
      'あべ',
      'いとう',
      'かわ',
      'がっこう',
      'こばやし',
      'たなか',
      'やまもと',
      'わたなべ',
    ]);
  });

  it('leaves what is not kana for the search to match as it is', () => {
    expect(toHiragana('田中ＡＢＣ')).toBe('田中ABC');
  });
});

describe('the reading in the member form and the profile', () => {
  it('stores hiragana and makes empty no reading', () => {
    expect(NameKana.parse('ヤマダ')).toBe('やまだ');
    expect(NameKana.parse('  ')).toBe(null);
    expect(NameKana.parse(null)).toBe(null);
    fc.assert(
      fc.property(reading, (stored) => {
        expect(NameKana.parse(katakanaOf(stored))).toBe(stored);
      }),
    );
  });

  it('refuses kanji, letters, digits and too long a reading in Japanese', () => {
    for (const [value, message] of [
      ['山田', e.kanaInvalid],
      ['yamada', e.kanaInvalid],
      ['やまだ1', e.kanaInvalid],
      [3, e.kanaInvalid],
      ['あ'.repeat(51), e.kanaTooLong],
    ] as const) {
      const result = NameKana.safeParse(value);
      expect(result.success, String(value)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(message);
    }
    fc.assert(
      fc.property(reading, fc.constantFrom('山', 'a', '1', '!', '々'), (stored, other) => {
        expect(NameKana.safeParse(stored + other).success).toBe(false);
      }),
    );
  });

  it('is optional in adduser and the forms, and checked the same way in the profile', () => {
    const man = { id: 'yamada', name: '山田', pass: 'Pass-1234', rank: 1, role: 101 };
    expect(AddUserBody.parse({ ...man, ssid: 'x'.repeat(43) }).name_kana).toBeUndefined();
    expect(MemberForm.edit.parse({ ...man, name_kana: 'ヤマダ' }).name_kana).toBe('やまだ');
    expect(ProfilePatch.parse({ name_kana: 'ヤマダ' })).toEqual({ name_kana: 'やまだ' });
    expect(ProfilePatch.parse({ name_kana: '' })).toEqual({ name_kana: '' });
    const bad = ProfilePatch.safeParse({ name_kana: '山田' });
    expect(bad.error?.issues[0]?.message).toBe(jaProfile.errors.notKana(jaProfile.fields.name_kana));
  });
});
