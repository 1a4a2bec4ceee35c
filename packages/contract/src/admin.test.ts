import * as jaMember from './ja-member.js';
import { describe, expect, it } from 'vitest';
import { MemberForm, kindOfRole, stripLoginId, stripPassword } from './admin.js';
import { loginId, password } from './common.js';
import { LIMITS } from './limits.js';

describe('the member form as typed (product.md §5)', () => {
  it.each([
    ['yamada-taro', 'yamada-taro'],
    ['山田 taro_01!', 'taro01'],
    ['ｙａｍａｄａ－１２', 'yamada-12'],
    ['a'.repeat(30), 'a'.repeat(24)],
  ])('keeps only letters, digits and hyphen of the ID %j', (typed, kept) => {
    expect(stripLoginId(typed)).toBe(kept);
  });

  it.each([
    ['Pass.word?/-1', 'Pass.word?/-1'],
    ['pass word!#', 'password'],
    ['ＰＡＳＳ．１', 'PASS.1'],
    ['x'.repeat(30), 'x'.repeat(24)],
  ])('keeps only letters, digits and . ? / - of the password %j', (typed, kept) => {
    expect(stripPassword(typed)).toBe(kept);
  });

  it('accepts whatever the stripping keeps, with the same rules as login', () => {
    for (const typed of ['ab c', 'ｘ－１', '---', 'Z'.repeat(40)]) {
      const id = stripLoginId(typed);
      expect(loginId.safeParse(id).success).toBe(true);
      expect(MemberForm.add.shape.id.safeParse(id).success).toBe(true);
    }
    for (const typed of ['a b.c-d?e/f', '？／12345678', 'あ1234abcd']) {
      expect(password.safeParse(stripPassword(typed)).success).toBe(true);
    }
  });

  it('needs a new password of 8 to 24 characters', () => {
    expect(password.safeParse('Abc-123').error?.issues[0]?.message).toBe(
      jaMember.members.errors.passTooShort,
    );
    expect(password.safeParse('Abc-1234').success).toBe(true);
    const form = { id: 'a', name: '名前', introducer: '', role: 201 };
    expect(MemberForm.add.safeParse({ ...form, pass: 'short' }).error?.issues[0]).toMatchObject({
      path: ['pass'],
      message: jaMember.members.errors.passTooShort,
    });
    expect(MemberForm.edit.safeParse({ ...form, pass: '' }).success).toBe(true);
  });

  it('states both bounds of the password in the hint under its field', () => {
    expect(jaMember.members.hints.pass).toContain(`${LIMITS.passwordMin}〜${LIMITS.passwordMax}文字`);
  });

  it('needs a rank of 1 to 6 for men only', () => {
    const base = { id: 'a', name: '名前', pass: 'pass-word', introducer: '' };
    expect(MemberForm.add.safeParse({ ...base, role: 101, rank: '' }).error?.issues[0]).toMatchObject({
      path: ['rank'],
      message: jaMember.members.errors.rankRequired,
    });
    expect(MemberForm.add.safeParse({ ...base, role: 101, rank: '3' }).data?.rank).toBe(3);
    expect(MemberForm.add.safeParse({ ...base, role: 201, rank: '' }).success).toBe(true);
    expect(MemberForm.add.safeParse({ ...base, role: 3 }).success).toBe(true);
  });

  it('tells the kind of a record by its role', () => {
    expect([101, 201, 1, 2, 3, 6, 7, 0].map(kindOfRole)).toEqual([
      'men',
      'women',
      'staff',
      'staff',
      'staff',
      'staff',
      null,
      null,
    ]);
  });
});
