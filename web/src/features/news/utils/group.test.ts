import { ja } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { groupOfPath, savedText, screenTitle, typeOf } from './group';

describe('news admin groups', () => {
  it('reads the group from the path', () => {
    expect(groupOfPath('/news/women/list')).toBe('women');
    expect(groupOfPath('/news/women/edit')).toBe('women');
    expect(groupOfPath('/news/men/add')).toBe('men');
  });

  it('gives each group its type, title and success text', () => {
    expect([typeOf('men'), typeOf('women')]).toEqual([1, 2]);
    expect(screenTitle('women', 'edit')).toBe(ja.screens.newsWomenEdit);
    expect(savedText('men')).toBe('男性向け最新情報を登録しました');
    expect(savedText('women')).toBe('女性向け最新情報を登録しました');
  });
});
