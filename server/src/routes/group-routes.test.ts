import { AddConversationReply, ConversationsReply, ja } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';

describe('/api/add_conversation (group registration)', () => {
  let ctx: TestContext;
  let man: TestUser;
  let woman: TestUser;
  const ssid: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestContext();
    man = await createUser(ctx.app, { loginId: 'g-man', role: 101, name: '山田 太郎', rank: 1 });
    woman = await createUser(ctx.app, { loginId: 'g-woman', role: 201, name: '佐藤 花子' });
    const staff = await createUser(ctx.app, { loginId: 'g-staff', role: 6, name: 'スタッフ' });
    ssid.man = await login(ctx.app, man);
    ssid.woman = await login(ctx.app, woman);
    ssid.staff = await login(ctx.app, staff);
  });
  afterAll(() => ctx.close());

  const register = (caller: string, params: Record<string, unknown>) =>
    call(ctx.app, 'add_conversation', { ssid: ssid[caller], params });

  it('lets staff register a group of a man and a woman, named after their given names', async () => {
    const reply = await register('staff', {
      men: man.uid,
      women: String(woman.uid),
      type: 'st',
      register: 1,
    });
    expect(reply.status).toBe(200);
    const { conversation_id } = AddConversationReply.parse(reply.body);

    for (const who of ['man', 'woman']) {
      const list = await call(ctx.app, 'conversations', { ssid: ssid[who], type: 'st', search: '', page: 0 });
      const rows = ConversationsReply.parse(list.body).rows;
      expect(rows.map((row) => [row.id, row.name])).toEqual([[conversation_id, '太郎×花子']]);
    }
  });

  it('answers 403 to members and 401 without a session', async () => {
    for (const caller of ['man', 'woman']) {
      expect(await register(caller, { men: man.uid, women: woman.uid, type: 'st' })).toMatchObject({
        status: 403,
        body: { error: ja.errors.forbidden },
      });
    }
    expect((await call(ctx.app, 'add_conversation', { params: {} })).status).toBe(401);
  });

  it.each([
    ['the man and woman swapped', () => ({ men: woman.uid, women: man.uid, type: 'st' })],
    ['the man as the woman too', () => ({ men: man.uid, women: man.uid, type: 'st' })],
    ['someone who does not exist', () => ({ men: man.uid, women: 999_999, type: 'st' })],
    ['another type', () => ({ men: man.uid, women: woman.uid, type: 'staff' })],
    ['no woman', () => ({ men: man.uid, type: 'st' })],
  ])('refuses %s with 400', async (_case, params) => {
    const reply = await register('staff', params());
    expect(reply.status).toBe(400);
  });
});
