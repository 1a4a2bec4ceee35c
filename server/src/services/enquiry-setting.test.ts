import { MessagesReply, SettingListReply, SettingUpdateReply, jaMember, slotOf } from '@enishi/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext } from '../test/app.js';
import { EnquiryStub } from '../test/enquiry-stub.js';

const DAY = 24 * 60 * 60 * 1000;
const ahead = (days: number, hour = 19) =>
  `${slotOf(new Date(Date.now() + days * DAY)).slice(0, 10)}T${hour}:00`;
const e = jaMember.women.errors;

/*
 * Setting requests for a woman only the external enquiry service knows (product.md §19.11, decision 022):
 * the request keeps her id there and her name, staff see both, and the man reads the arranged date in his
 * desk talk. The service's 404 and failures are Japanese errors, and nothing is stored.
 */
describe('setting requests for the enquiry service’s women', () => {
  let stub: EnquiryStub;
  let ctx: TestContext;
  let man: string;
  let staff: string;

  beforeAll(async () => {
    const entry = { age: 27, height: 160, rank: 1, area_id: '[1]', lang: '[1]', type_id: '[2]' };
    stub = await EnquiryStub.start((origin) => [
      { ...entry, id: 7001, name: '外部 桜', photo: `${origin}/photos/7001.jpg` },
      { ...entry, id: 7002, name: '外部 楓', photo: `${origin}/photos/7002.jpg` },
    ]);
    ctx = await createTestContext({
      env: {
        ENQUIRY_SERVICE_URL: `${stub.url}/`,
        ENQUIRY_SERVICE_TOKEN: 'club-token',
        ENQUIRY_TIMEOUT_MS: '400',
        LOG_LEVEL: 'silent',
      },
    });
    man = await login(
      ctx.app,
      await createUser(ctx.app, { loginId: 'enqset-man', role: 101, name: '外部 次郎' }),
    );
    staff = await login(ctx.app, await createUser(ctx.app, { loginId: 'enqset-staff', role: 3, name: '係' }));
  });
  afterAll(async () => {
    await ctx.close();
    await stub.close();
  });
  beforeEach(() => {
    stub.mode = 'ok';
    stub.calls.length = 0;
  });

  const ask = (womenId: number) =>
    call(ctx.app, 'setting/add', {
      ssid: man,
      women_id: womenId,
      preferred1: ahead(3),
      preferred2: ahead(4),
      preferred3: ahead(5, 12),
    });
  const rowsOf = async (ssid: string) =>
    SettingListReply.parse((await call(ctx.app, 'setting/list', { ssid, page: 0 })).body).rows;

  it('stores her id in the service and her name; staff see both and arrange it in the man’s desk talk', async () => {
    const reply = await ask(7002);
    expect(reply.status).toBe(200);
    const { id } = reply.body as { id: number };
    // She was looked up in the service with the man's pseudonym, as the list does.
    expect(stub.calls.find((c) => c.path === '/api/entry')?.body).toMatchObject({
      userId: 7002,
      token: 'club-token',
    });

    const seen = (await rowsOf(staff)).find((row) => row.id === id)!;
    expect(seen.women).toEqual({ uid: null, name: '外部 楓', enquiry_id: 7002 });
    expect((await rowsOf(man)).find((row) => row.id === id)?.women.name).toBe('外部 楓');

    const arranged = await call(ctx.app, 'setting/update', {
      ssid: staff,
      id,
      status: 'arranged',
      slot: 1,
      place: '銀座',
    });
    expect(arranged.status).toBe(200);
    const { row } = SettingUpdateReply.parse(arranged.body);
    expect(row).toMatchObject({ status: 'arranged', place: '銀座' });
    const desk = (await call(ctx.app, 'conversations', { ssid: man, type: 'staff', search: '', page: 0 }))
      .body as { rows: { id: number }[] };
    expect(row.conversation_id).toBe(desk.rows[0]!.id);
    const messages = MessagesReply.parse(
      (await call(ctx.app, 'messages', { ssid: man, id: row.conversation_id })).body,
    ).rows.flatMap((group) => group.messages);
    const told = messages.find((message) =>
      message.message.startsWith('外部 楓さんとのセッティングが決まりました'),
    );
    expect(told?.message).toContain('場所：銀座');
  });

  it('answers 404 in Japanese when the service does not know her, and stores nothing', async () => {
    const before = (await rowsOf(staff)).length;
    expect(await ask(7999)).toMatchObject({
      status: 404,
      body: { error: jaMember.setting.errors.notInService },
    });
    expect((await rowsOf(staff)).length).toBe(before);
  });

  it.each([
    ['fails', 'error', 502, e.serviceDown],
    ['does not answer in time', 'slow', 504, e.serviceTimeout],
    ['answers nonsense', 'garbage', 502, e.serviceBroken],
  ] as const)('answers %s as the list does (%s → %i)', async (_case, mode, status, error) => {
    stub.mode = mode;
    expect(await ask(7001)).toMatchObject({ status, body: { error } });
  });
});
