import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/app.js';
import { closeAll, listen, TestSocket } from '../test/socket.js';
import { createRoleUsers, newsCalls, newsCounter, type RoleName } from '../test/content.js';

/* The news badge (product.md §3.6, §3.10): a member's unseen news of their group, counted and raised live. */

describe('news', () => {
  let ctx: TestContext;
  let ssid: Record<RoleName, string>;
  const { add, get } = newsCalls(
    () => ctx.app,
    () => ssid,
  );

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ ssid } = await createRoleUsers(ctx.app));
  });
  afterAll(() => ctx.close());

  describe('the news badge', () => {
    it('counts a member’s unseen news of their group until they open the list', async () => {
      await get('man');
      await get('woman');
      expect(await newsCounter(ctx.app, ssid.man)).toBe(0);

      await add('staff', { title: '新着1', type: 1 });
      await add('staff', { title: '新着2', type: 1 });
      await add('staff', { title: '女性新着', type: 2 });
      expect(await newsCounter(ctx.app, ssid.man)).toBe(2);
      expect(await newsCounter(ctx.app, ssid.woman)).toBe(1);
      expect(await newsCounter(ctx.app, ssid.staff)).toBe(0);

      // Opening one item does not mark the list seen; opening the list does.
      const [newest] = await get('staff', { type: 1 });
      await get('man', { id: newest!.id });
      expect(await newsCounter(ctx.app, ssid.man)).toBe(2);
      await get('man');
      expect(await newsCounter(ctx.app, ssid.man)).toBe(0);
      expect(await newsCounter(ctx.app, ssid.woman)).toBe(1);
    });

    it('raises the badge live on the group’s chat sockets when news is added', async () => {
      const base = await listen(ctx.app);
      const woman = await TestSocket.session(base, ssid.woman);
      const man = await TestSocket.session(base, ssid.man);
      try {
        await get('woman');
        await woman.take((frame) => frame.type === 'notifications' && frame.news === 0);
        await add('staff', { title: '女性向けの新着', type: 2 });
        expect(await woman.take((frame) => frame.type === 'notifications' && frame.news === 1)).toMatchObject(
          {
            news: 1,
          },
        );
        expect(man.untaken().filter((frame) => frame.type === 'notifications' && frame.news > 0)).toEqual([]);
      } finally {
        await closeAll([woman, man]);
      }
    });
  });
});
