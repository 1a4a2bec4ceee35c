import { LOOKUPS, ROLE, emptyProfile, type Lookups } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { changedFields, choicesOf, fieldsByGroup } from './profile-fields';

describe('the staff profile form', () => {
  it('lays out the six groups, leaving out the other sex’s fields', () => {
    const women = fieldsByGroup(ROLE.female);
    expect(women.map((group) => group.group)).toEqual([
      'basics',
      'appearance',
      'lifestyle',
      'work',
      'preferences',
      'sales',
    ]);
    const womenFields = women.flatMap((group) => group.fields);
    expect(womenFields).toContain('bust');
    expect(womenFields).toContain('women_rank');
    expect(womenFields).not.toContain('hair_loss');
    const menFields = fieldsByGroup(ROLE.male).flatMap((group) => group.fields);
    expect(menFields).toContain('hair_loss');
    expect(menFields).not.toContain('cup');
    expect(menFields).toContain('entry_type');
  });

  it('sends only what changed', () => {
    const stored = { ...emptyProfile(), height: 160, languages: [1] };
    expect(changedFields(stored, { ...stored })).toEqual({});
    expect(changedFields(stored, { ...stored, height: 161, languages: [1], area: null })).toEqual({
      height: 161,
    });
    expect(changedFields(stored, { ...stored, languages: [] })).toEqual({ languages: [] });
  });

  it('names a medium with its company', () => {
    const lookups = {
      ...LOOKUPS,
      companies: [{ code: 3, label: '銀座クラブ 彩' }],
      media: [{ code: 1, label: '公式サイト', parent: 3 }],
      chargeStaff: [],
    } as Lookups;
    expect(choicesOf('media', lookups)).toEqual([
      { code: 1, label: '公式サイト（銀座クラブ 彩）', parent: 3 },
    ]);
    // Area 0 is blank in the specification; the form's 未設定 stands for it.
    expect(choicesOf('area', lookups)).toEqual(LOOKUPS.areas.slice(1));
    expect(choicesOf('area', lookups).map((item) => item.label)).not.toContain('');
    expect(choicesOf('marriage', lookups).map((item) => item.label)).toEqual(['既婚', '離婚', '未婚']);
    expect(choicesOf('pr', lookups)).toEqual([]);
  });
});
