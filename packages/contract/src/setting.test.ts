import * as jaMember from './ja-member.js';
import { describe, expect, it } from 'vitest';
import { EntryQuery } from './women.js';
import { SettingAddBody, SettingUpdateBody, slotInstant, slotLabel, slotOf } from './setting.js';

describe('setting slots (Japan time)', () => {
  it('reads a slot as an instant in Japan time and back', () => {
    expect(slotInstant('2026-12-01T19:00')?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(slotOf(new Date('2026-12-31T15:30:00Z'))).toBe('2027-01-01T00:30');
    expect(slotLabel('2026-12-01T19:00')).toBe('12月1日(火) 19:00');
  });

  it('refuses dates and times that do not exist', () => {
    for (const bad of ['2026-02-30T10:00', '2026-12-01T24:00', '2026-12-01 19:00', '2026-12-1T19:00', '']) {
      expect(slotInstant(bad)).toBeNull();
    }
  });

  it('wants three different slots, and a slot and place to arrange, a reason to decline', () => {
    const body = { ssid: 's', women_id: 5, preferred1: '2030-01-01T10:00', preferred2: '2030-01-02T10:00' };
    const same = SettingAddBody.safeParse({ ...body, preferred3: '2030-01-01T10:00' });
    expect(same.error?.issues[0]?.message).toBe(jaMember.setting.errors.slotsSame);
    expect(SettingAddBody.safeParse({ ...body, preferred3: '2030-01-03T10:00' }).success).toBe(true);
    const arrange = SettingUpdateBody.safeParse({
      ssid: 's',
      id: 1,
      status: 'arranged',
      slot: 4,
      place: '銀座',
    });
    expect(arrange.error?.issues[0]?.message).toBe(jaMember.setting.errors.slotChoice);
    const decline = SettingUpdateBody.safeParse({ ssid: 's', id: 1, status: 'declined', reason: ' ' });
    expect(decline.error?.issues[0]?.message).toBe(jaMember.setting.errors.reasonRequired);
  });

  it('keeps the women filter ranges the right way round', () => {
    expect(EntryQuery.safeParse({ age_min: 30, age_max: 25 }).error?.issues[0]?.message).toBe(
      jaMember.women.errors.minOverMax,
    );
    expect(EntryQuery.parse({ age_min: '25', area: ['1', 6] })).toEqual({ age_min: 25, area: [1, 6] });
  });
});
