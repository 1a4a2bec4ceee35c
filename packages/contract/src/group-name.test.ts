import { describe, expect, it } from 'vitest';
import { groupTalkName } from './wire.js';

describe('groupTalkName', () => {
  it('joins the given names with ×, split at half- or full-width spaces', () => {
    expect(groupTalkName('山田 直樹', '佐藤　結衣')).toBe('直樹×結衣');
    expect(groupTalkName('タロウ', ' 花子 ')).toBe('タロウ×花子');
  });
});
