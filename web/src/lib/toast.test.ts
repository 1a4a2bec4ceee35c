import { LIMITS } from '@enishi/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentToasts, toast, toastSuccess } from './toast';

describe('toasts', () => {
  afterEach(() => {
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it('lets a success replace the error still standing, and the success before it', () => {
    vi.useFakeTimers();
    toast('送信できませんでした');
    expect(currentToasts().map((t) => t.message)).toEqual(['送信できませんでした']);
    toastSuccess('登録しました');
    toastSuccess('削除しました');
    expect(currentToasts().map((t) => [t.message, t.success])).toEqual([['削除しました', true]]);
    vi.advanceTimersByTime(LIMITS.toastMs);
    expect(currentToasts()).toEqual([]);
  });

  it('lets a new notice replace the notice standing, never stacking beside it', () => {
    vi.useFakeTimers();
    toastSuccess('保存しました');
    toast('年齢は20歳以上で入力してください');
    toast('電話番号の形式が正しくありません');
    expect(currentToasts().map((t) => [t.message, t.success])).toEqual([
      ['保存しました', true],
      ['電話番号の形式が正しくありません', false],
    ]);
    // The same notice again restarts its time instead of showing twice.
    toast('電話番号の形式が正しくありません');
    expect(currentToasts()).toHaveLength(2);
  });
});
