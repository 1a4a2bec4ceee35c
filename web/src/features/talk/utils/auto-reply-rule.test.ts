import { afterEach, describe, expect, it, vi } from 'vitest';

describe("the auto-reply rule's loader", () => {
  afterEach(() => vi.doUnmock('./auto-reply'));

  it('asks again after a load that failed (offline, say), and keeps the rule once loaded', async () => {
    vi.resetModules();
    let online = false;
    const rule = () => null;
    vi.doMock('./auto-reply', () => {
      if (!online) throw new Error('offline');
      return { autoReplyFor: rule };
    });
    const { loadAutoReplyRule, loadedAutoReplyRule } = await import('./auto-reply-rule');
    await expect(loadAutoReplyRule()).rejects.toThrow();
    expect(loadedAutoReplyRule()).toBeNull();
    online = true;
    await expect(loadAutoReplyRule()).resolves.toBe(rule);
    expect(loadedAutoReplyRule()).toBe(rule);
  });
});
