import { describe, expect, it } from 'vitest';
import { groupNamePreview } from './group-selection';

describe('groupNamePreview', () => {
  it('joins the given names, split at half- or full-width spaces', () => {
    expect(groupNamePreview('山田 太郎', '佐藤　花子')).toBe('太郎花子');
    expect(groupNamePreview('タロウ', ' 花子 ')).toBe('タロウ花子');
  });
});
