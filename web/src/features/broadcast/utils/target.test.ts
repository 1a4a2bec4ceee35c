import { describe, expect, it } from 'vitest';
import { draftKey, groupOfPath, sentText } from './target';

describe('bulk-send targets', () => {
  it('reads the group from the path and keeps each draft under its own key', () => {
    expect(groupOfPath('/women/send/form')).toBe('women');
    expect(groupOfPath('/men/send')).toBe('men');
    expect([draftKey('men'), draftKey('women')]).toEqual(['sendmen', 'sendwomen']);
  });

  it('says where the message went (product.md §8)', () => {
    expect(sentText('men')).toBe('一括送信男性へ送信しました');
    expect(sentText('women')).toBe('一括送信女性へ送信しました');
  });
});
