import { LIMITS } from '@enishi/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentToasts, toast, toastSuccess } from './toast';

describe('toasts', () => {
  afterEach(() => {
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it('lets a success replace the error still standing, and keeps other successes', () => {
    vi.useFakeTimers();
    toast('送信できませんでした');
    expect(currentToasts().map((t) => t.message)).toEqual(['送信できませんでした']);
    toastSuccess('登録しました');
    toastSuccess('削除しました');
    expect(currentToasts().map((t) => [t.message, t.success])).toEqual([
      ['登録しました', true],
      ['削除しました', true],
    ]);
    vi.advanceTimersByTime(LIMITS.toastMs);
    expect(currentToasts()).toEqual([]);
  });
});
