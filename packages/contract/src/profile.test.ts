import * as jaMember from './ja-member.js';
import { describe, expect, it } from 'vitest';
import { ja } from './ja.js';
import {
  AREAS,
  LOOKUPS,
  PREFECTURES,
  WOMEN_RANKS,
  ENTRY_TYPES,
  OCCUPATIONS,
  SIDE_JOBS,
} from './lookups/index.js';
import { PROFILE_FIELDS, ProfilePatch, ageOn, emptyProfile, firstErrorMessage } from './index.js';

describe('code tables', () => {
  it('have the ranges of product.md §9.5 and unique codes', () => {
    expect(AREAS.map((item) => item.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(PREFECTURES).toHaveLength(48);
    expect(PREFECTURES[0]).toEqual({ code: 1, label: '北海道' });
    expect(PREFECTURES[12]).toEqual({ code: 13, label: '東京都' });
    expect(PREFECTURES[47]).toEqual({ code: 48, label: '海外' });
    expect(WOMEN_RANKS.map((item) => item.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ENTRY_TYPES.map((item) => item.code)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(OCCUPATIONS.at(-1)!.code).toBe(53);
    expect(SIDE_JOBS.at(-1)!.code).toBe(16);
    for (const [name, items] of Object.entries(LOOKUPS)) {
      const codes = items.map((item) => item.code);
      expect(new Set(codes).size, name).toBe(codes.length);
      // Area 0 is the one blank label (the specification's "blank"); lookups/spec-tables.test.ts pins the rest.
      for (const item of items) {
        if (name !== 'areas' || item.code !== 0) expect(item.label.length, name).toBeGreaterThan(0);
      }
    }
  });

  it('cover every coded profile field', () => {
    const club = ['companies', 'media', 'chargeStaff'];
    for (const spec of Object.values(PROFILE_FIELDS)) {
      if ('lookup' in spec && !club.includes(spec.lookup)) expect(LOOKUPS).toHaveProperty(spec.lookup);
    }
  });
});

describe('ProfilePatch', () => {
  it('accepts a partial profile and normalises lists and text', () => {
    const parsed = ProfilePatch.parse({
      height: 160,
      languages: [3, 1, 1],
      pr: '  よろしく ',
      birth_date: '1995-02-28',
    });
    expect(parsed).toEqual({ height: 160, languages: [1, 3], pr: 'よろしく', birth_date: '1995-02-28' });
    expect(ProfilePatch.parse({ area: null, birth_date: null })).toEqual({ area: null, birth_date: null });
    // Area 0 is blank (product.md §9.5): stored as no area, as migration 0014 left the old rows.
    expect(ProfilePatch.parse({ area: 0, marriage: 2 })).toEqual({ area: null, marriage: 2 });
  });

  it('refuses unknown codes, ranges, bad dates and unknown fields in Japanese', () => {
    const message = (body: unknown) => {
      const result = ProfilePatch.safeParse(body);
      return result.success ? null : firstErrorMessage(result.error);
    };
    expect(message({ area: 10 })).toBe(jaMember.profile.errors.badCode('エリア'));
    expect(message({ women_rank: 9 })).toBe(jaMember.profile.errors.badCode('女性ランク'));
    expect(message({ languages: [99] })).toBe(jaMember.profile.errors.badCode('話せる言語'));
    expect(message({ height: 300 })).toBe(jaMember.profile.errors.outOfRange('身長(cm)', 120, 220));
    expect(message({ birth_date: '1995-02-30' })).toBe(jaMember.profile.errors.badDate('生年月日'));
    expect(message({ pr: 'あ'.repeat(1001) })).toBe(jaMember.profile.errors.tooLong('自己PR', 1000));
    expect(message({ password: 'x' })).toBe(ja.errors.unknownField);
  });

  it('an empty profile has every field', () => {
    const empty = emptyProfile();
    expect(Object.keys(empty).sort()).toEqual(Object.keys(PROFILE_FIELDS).sort());
    expect(empty.languages).toEqual([]);
    expect(empty.height).toBeNull();
  });

  it('counts age in whole years', () => {
    expect(ageOn('2000-05-10', '2026-05-09')).toBe(25);
    expect(ageOn('2000-05-10', '2026-05-10')).toBe(26);
  });
});
