import {
  EntryDetailReply,
  EntryListReply,
  MessagesReply,
  SettingListReply,
  SettingUpdateReply,
  ja,
  jaMember,
  slotOf,
} from '@enishi/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext } from '../test/app.js';
import { EnquiryStub } from '../test/enquiry-stub.js';
import { createLogger } from '../logger.js';

const lines: string[] = [];
const sink = { write: (line: string) => void lines.push(line) };

const e = jaMember.women.errors;
const DAY = 24 * 60 * 60 * 1000;
/** A Japan-time slot `days` ahead at `hour`:00. */
const ahead = (days: number, hour = 19) =>
  `${slotOf(new Date(Date.now() + days * DAY)).slice(0, 10)}T${hour}:00`;

/*
 * The external enquiry service (product.md §19.11) against a local stub that follows the specification: the
 * women's list, a woman's detail and the favourites come from it, with the spec's fields; its failures are
 * Japanese errors (504 on a timeout, 502 otherwise), never an empty list; setting requests for its women.
 */
describe('the women’s list from the external enquiry service', () => {
  let stub: EnquiryStub;
  let ctx: TestContext;
  let man: string;
  let staff: string;
  let woman: string;
  let manUid: number;

  beforeAll(async () => {
    stub = await EnquiryStub.start((origin) =>
      Array.from({ length: 25 }, (_, i) => ({
        id: 9000 + i,
        name: `外部${i}`,
        age: 22 + (i % 10),
        height: 150 + i,
        rank: i % 9,
        photo: `${origin}/photos/${9000 + i}.jpg`,
        area_id: JSON.stringify([1 + (i % 9)]),
        lang: '[1,2]',
        type_id: '[3]',
      })),
    );
    ctx = await createTestContext({
      env: {
        ENQUIRY_SERVICE_URL: `${stub.url}/`,
        ENQUIRY_SERVICE_TOKEN: 'club-token',
        ENQUIRY_TIMEOUT_MS: '400',
        SITE_KINDS: '{"*": 4}',
      },
      deps: { logger: createLogger('warn', sink) },
    });
    const m = await createUser(ctx.app, { loginId: 'enq-man', role: 101, name: '外部 太郎' });
    manUid = m.uid;
    man = await login(ctx.app, m);
    staff = await login(ctx.app, await createUser(ctx.app, { loginId: 'enq-staff', role: 3, name: '係' }));
    woman = await login(ctx.app, await createUser(ctx.app, { loginId: 'enq-woman', role: 201, name: '花' }));
  });

  afterAll(async () => {
    await ctx.close();
    await stub.close();
  });

  beforeEach(() => {
    stub.mode = 'ok';
    stub.calls.length = 0;
  });

  it('lists the service’s women through POST /api/entrylist with settingSession, token, site and type', async () => {
    const reply = await call(ctx.app, 'entrylist', {
      ssid: man,
      page: 1,
      perPage: 10,
      query: { age_min: 20 },
    });
    expect(reply.status).toBe(200);
    const list = EntryListReply.parse(reply.body);
    expect(list).toMatchObject({ isEnd: false, total: 25 });
    expect(list.rows.map((row) => row.id)).toEqual(Array.from({ length: 10 }, (_, i) => 9010 + i));
    expect(list.rows[0]).toMatchObject({ name: '外部10', age: 22, area: 2, height: 160, women_rank: 1 });
    expect(list.rows[0]!.photo).toBe(`${stub.url}/photos/9010.jpg`);

    const sent = stub.calls.find((c) => c.path === '/api/entrylist')!.body;
    expect(sent).toMatchObject({
      token: 'club-token',
      site: 4,
      type: [2],
      page: 1,
      perPage: 10,
      query: { age_min: 20 },
    });
    // settingSession: a pseudonym of the man, never this app's session or login ID.
    expect(typeof sent.ssid).toBe('string');
    expect(sent.ssid).not.toBe(man);
    expect(JSON.stringify(sent)).not.toContain('enq-man');
    // Staff browse too; women may not (403, before the service is asked).
    expect((await call(ctx.app, 'entrylist', { ssid: staff, page: 0, perPage: 5 })).status).toBe(200);
    stub.calls.length = 0;
    expect((await call(ctx.app, 'entrylist', { ssid: woman, page: 0, perPage: 5 })).status).toBe(403);
    expect(stub.calls).toEqual([]);
  });

  it('keeps every well-formed row when one has a field of another type, and logs the one left out', async () => {
    const kept = stub.entries[4]!;
    // A height as text: this row alone is malformed.
    stub.entries[4] = { ...kept, height: '154cm' } as unknown as typeof kept;
    try {
      const reply = await call(ctx.app, 'entrylist', { ssid: man, page: 0, perPage: 10 });
      expect(reply.status).toBe(200);
      const list = EntryListReply.parse(reply.body);
      expect(list.rows.map((row) => row.id)).toEqual([9000, 9001, 9002, 9003, 9005, 9006, 9007, 9008, 9009]);
      expect(list.isEnd).toBe(false);
      const logged = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'enquiry service: a malformed row of the women list left out');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ index: 4, id: 9004, problems: ['height: invalid_union'] });
    } finally {
      stub.entries[4] = kept;
    }
  });

  it('reads one woman through POST /api/entry {ssid, token, site, userId}, decoding the JSON lists', async () => {
    const reply = await call(ctx.app, 'entrydetail', { ssid: man, id: 9003 });
    expect(reply.status).toBe(200);
    const detail = EntryDetailReply.parse(reply.body);
    expect(detail).toMatchObject({ id: 9003, name: '外部3', photos: [`${stub.url}/photos/9003.jpg`] });
    expect(detail.profile).toMatchObject({ area: 4, languages: [1, 2], type: 3, height: 153 });
    expect(stub.calls.find((c) => c.path === '/api/entry')!.body).toMatchObject({
      token: 'club-token',
      site: 4,
      userId: 9003,
    });
    expect(await call(ctx.app, 'entrydetail', { ssid: man, id: 1 })).toMatchObject({
      status: 404,
      body: { error: ja.errors.notFound },
    });
  });

  it('keeps the favourites in the service: star, the favourites tab, and the marks on the list', async () => {
    expect(
      (await call(ctx.app, 'member/updateFavorite', { ssid: man, data: { id: 9004, flg: 1 } })).status,
    ).toBe(200);
    expect(stub.calls.at(-1)).toMatchObject({
      path: '/member/updateFavorite',
      body: { userId: manUid, data: { id: 9004, flg: 1 } },
    });
    expect((await call(ctx.app, 'member/getFavorite', { ssid: man })).body).toEqual({
      rows: [{ id: 9004, flg: 1 }],
    });
    const tab = EntryListReply.parse(
      (await call(ctx.app, 'entrylist', { ssid: man, page: 0, perPage: 10, query: { favorites: true } }))
        .body,
    );
    expect(tab).toMatchObject({ total: 1, isEnd: true });
    expect(tab.rows.map((row) => [row.id, row.favorite])).toEqual([[9004, true]]);
    const list = EntryListReply.parse(
      (await call(ctx.app, 'entrylist', { ssid: man, page: 0, perPage: 5 })).body,
    );
    expect(list.rows.find((row) => row.id === 9004)?.favorite).toBe(true);
    await call(ctx.app, 'member/updateFavorite', { ssid: man, data: { id: 9004, flg: 0 } });
    expect((await call(ctx.app, 'member/getFavorite', { ssid: man })).body).toEqual({ rows: [] });
  });

  it.each([
    ['does not answer in time', 'slow', 504, e.serviceTimeout],
    ['answers 5xx', 'error', 502, e.serviceDown],
    ['answers something that is not JSON', 'garbage', 502, e.serviceBroken],
  ] as const)(
    'says so in Japanese when the service %s, never an empty list',
    async (_case, mode, status, error) => {
      stub.mode = mode;
      const started = Date.now();
      for (const [name, body] of [
        ['entrylist', { ssid: staff, page: 0, perPage: 5 }],
        ['entrydetail', { ssid: staff, id: 9001 }],
        ['member/getFavorite', { ssid: man }],
      ] as const) {
        expect(await call(ctx.app, name, body), name).toMatchObject({ status, body: { error } });
      }
      // Bounded by ENQUIRY_TIMEOUT_MS (400 ms) per call, not by the service.
      expect(Date.now() - started).toBeLessThan(5_000);
    },
  );

  /*
   * Setting requests for a woman only the service knows (decision 023): the request keeps her id there and
   * her name, staff see both, the man reads the arranged date in his desk talk; the service's 404 and
   * failures are Japanese errors, and nothing is stored then.
   */
  describe('setting requests for the service’s women', () => {
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
      const reply = await ask(9002);
      expect(reply.status).toBe(200);
      const { id } = reply.body as { id: number };
      // She was looked up in the service with the man's pseudonym, as the list does.
      expect(stub.calls.find((c) => c.path === '/api/entry')?.body).toMatchObject({
        userId: 9002,
        token: 'club-token',
      });

      const seen = (await rowsOf(staff)).find((row) => row.id === id)!;
      expect(seen.women).toEqual({ uid: null, name: '外部2', enquiry_id: 9002 });
      expect((await rowsOf(man)).find((row) => row.id === id)?.women.name).toBe('外部2');

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
        message.message.startsWith('外部2さんとのセッティングが決まりました'),
      );
      expect(told?.message).toContain('場所：銀座');
    });

    it('counts her confirmed setting when another man asks for the same time (product.md §18.5)', async () => {
      const other = await login(
        ctx.app,
        await createUser(ctx.app, { loginId: 'enq-man2', role: 101, name: '外部 次郎' }),
      );
      // Thirty days ahead, away from this file's other settings.
      const askAt = async (ssid: string, womenId: number, hour: number) => {
        const reply = await call(ctx.app, 'setting/add', {
          ssid,
          women_id: womenId,
          preferred1: ahead(30, hour),
          preferred2: ahead(31, hour),
          preferred3: ahead(32, hour),
        });
        return (reply.body as { id: number }).id;
      };
      const arrange = (id: number) =>
        call(ctx.app, 'setting/update', { ssid: staff, id, status: 'arranged', slot: 1, place: '銀座' });
      const first = await askAt(man, 9005, 19);
      expect((await arrange(first)).status).toBe(200);

      const id = await askAt(other, 9005, 20);
      const seen = (await rowsOf(staff)).find((row) => row.id === id)!;
      expect(seen.overlaps).toEqual([
        { slot: 1, who: 'woman', other: { id: first, at: ahead(30), men: '外部 太郎', women: '外部5' } },
      ]);
      expect((await arrange(id)).status).toBe(409);
      // Another woman of the service at the same time is no one's double booking.
      expect((await arrange(await askAt(other, 9006, 20))).status).toBe(200);
    });

    it('answers 404 in Japanese when the service does not know her, and stores nothing', async () => {
      const before = (await rowsOf(staff)).length;
      expect(await ask(9999)).toMatchObject({
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
      expect(await ask(9001)).toMatchObject({ status, body: { error } });
    });
  });
});
