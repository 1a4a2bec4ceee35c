import { EntryDetailReply, EntryListReply, GetFavoriteReply, slotOf, jaMember } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberProfiles, type NewMemberProfileRecord } from '../db/schema.js';
import { ENGINES } from '../test/database.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';

const HOST_KINDS = { 'black.example.jp': 1, 'solo.example.jp': 3, 'v.example.jp': 4, 'ocean.example.jp': 5 };
const thisYear = Number(slotOf(new Date()).slice(0, 4));
/** A birth date that makes `age` today (1 January: the birthday has passed). */
const bornAt = (age: number) => `${thisYear - age}-01-01`;

describe.each(ENGINES)("the women's list and favourites on %s", (engine) => {
  let ctx: TestContext;
  const who: Record<string, TestUser> = {};
  const ssid: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestContext({ engine, env: { SITE_KINDS: JSON.stringify(HOST_KINDS) } });
    const women: [string, string, Partial<NewMemberProfileRecord>][] = [
      [
        'aoi',
        '青井 葵',
        {
          nickname: 'あおい',
          birthDate: bornAt(24),
          height: 160,
          bust: 84,
          area: 1,
          womenRank: 4,
          sake: 3,
          bloodType: 1,
          languages: [1, 2],
        },
      ],
      [
        'mio',
        '三浦 美緒',
        { birthDate: bornAt(31), height: 168, bust: 88, area: 6, womenRank: 3, sake: 1, company: 7 },
      ],
      ['rin', '林 凛', { birthDate: bornAt(27), height: 152, area: 1, womenRank: 2, entryType: 5 }],
      ['sae', '佐伯 紗英', { birthDate: bornAt(29), height: 165, area: 2, womenRank: 4, entryType: 3 }],
    ];
    for (const [key, name, profile] of women) {
      who[key] = await createUser(ctx.app, {
        loginId: `w-${key}`,
        role: 201,
        name,
        password: 'women-pass-1',
      });
      await ctx.database.db.insert(memberProfiles).values({ userId: who[key]!.uid, ...profile });
    }
    for (const [key, role] of [
      ['taro', 101],
      ['jiro', 101],
      ['staff', 3],
      ['aoiLogin', 0],
    ] as const) {
      who[key] = await createUser(ctx.app, { loginId: `w-${key}`, role, name: `${key} さん` });
      ssid[key] = await login(ctx.app, who[key]!);
    }
    ssid.aoi = await login(ctx.app, who.aoi!);
  });
  afterAll(() => ctx.close());

  const entrylist = (caller: string, body: Record<string, unknown> = {}, host?: string) =>
    call(ctx.app, 'entrylist', { ssid: ssid[caller], page: 0, perPage: 20, ...body }, host ? { host } : {});
  const names = async (caller: string, body: Record<string, unknown> = {}, host?: string) => {
    const reply = await entrylist(caller, body, host);
    expect(reply.status).toBe(200);
    return EntryListReply.parse(reply.body).rows.map((row) => row.name);
  };

  it('shows men and staff the women listed for sales, newest first, and refuses women with 403', async () => {
    const reply = EntryListReply.parse((await entrylist('taro')).body);
    expect(reply.rows.map((row) => row.name)).toEqual(['美緒', 'あおい']);
    expect(reply.total).toBe(2);
    expect(reply.rows[1]).toMatchObject({ age: 24, height: 160, area: 1, women_rank: 4, favorite: false });
    expect(await names('staff')).toEqual(['美緒', 'あおい']);
    expect((await entrylist('aoi')).status).toBe(403);
    expect((await call(ctx.app, 'entrylist', { page: 0 })).status).toBe(401);
  });

  it('counts every hit on each page, and past the last page too', async () => {
    const pageOf = async (page: number) =>
      EntryListReply.parse((await entrylist('taro', { page, perPage: 1 })).body);
    const [first, second, past] = [await pageOf(0), await pageOf(1), await pageOf(5)];
    expect([first.rows.map((row) => row.name), first.total, first.isEnd]).toEqual([['美緒'], 2, false]);
    expect([second.rows.map((row) => row.name), second.total, second.isEnd]).toEqual([['あおい'], 2, true]);
    expect([past.rows, past.total, past.isEnd]).toEqual([[], 2, true]);
    const none = EntryListReply.parse((await entrylist('taro', { query: { area: [9] } })).body);
    expect([none.rows, none.total]).toEqual([[], 0]);
  });

  it('shows each site kind its own women, by the host name', async () => {
    expect(await names('taro', {}, 'black.example.jp')).toEqual(['凛']);
    expect(await names('taro', {}, 'solo.example.jp')).toEqual(['あおい']);
    expect(await names('taro', {}, 'v.example.jp')).toEqual(['あおい']);
    expect(await names('taro', {}, 'ocean.example.jp:8443')).toEqual(['美緒']);
    // A woman the site does not show has no detail there either.
    const hidden = await call(
      ctx.app,
      'entrydetail',
      { ssid: ssid.taro, id: who.mio!.uid },
      { host: 'solo.example.jp' },
    );
    expect(hidden.status).toBe(404);
  });

  it('filters by ranges and lists of codes', async () => {
    expect(await names('taro', { query: { age_min: 25 } })).toEqual(['美緒']);
    expect(await names('taro', { query: { age_max: 30, height_min: 155 } })).toEqual(['あおい']);
    expect(await names('taro', { query: { bust_min: 86, rank_max: 3 } })).toEqual(['美緒']);
    expect(await names('taro', { query: { area: [1, 2], sake: [3] } })).toEqual(['あおい']);
    expect(await names('taro', { query: { languages: [2, 9], blood: [1] } })).toEqual(['あおい']);
    expect(await names('taro', { query: { club: [7] } })).toEqual(['美緒']);
    expect(await names('taro', { query: { golf: [1] } })).toEqual([]);
  });

  it.each([
    [{ age_min: 40, age_max: 30 }, jaMember.women.errors.minOverMax],
    [{ height_min: 20 }, jaMember.women.errors.range],
    [{ area: 'tokyo' }, jaMember.women.errors.codes],
  ])('refuses the query %j with a Japanese 400', async (query, message) => {
    expect(await entrylist('taro', { query })).toMatchObject({ status: 400, body: { error: message } });
  });

  it('never carries a login ID, password, e-mail or phone number', async () => {
    const list = JSON.stringify((await entrylist('staff')).body);
    const detail = JSON.stringify(
      (await call(ctx.app, 'entrydetail', { ssid: ssid.taro, id: who.aoi!.uid })).body,
    );
    for (const text of [list, detail]) {
      for (const secret of ['w-aoi', 'w-mio', 'women-pass-1', 'login', 'pass', 'email', 'tel', '@']) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toContain('青井');
    }
  });

  it("gives one woman's public profile", async () => {
    const reply = await call(ctx.app, 'entrydetail', { ssid: ssid.taro, id: who.aoi!.uid });
    const detail = EntryDetailReply.parse(reply.body);
    expect(detail).toMatchObject({ id: who.aoi!.uid, name: 'あおい', age: 24, photos: [] });
    expect(detail.profile).toMatchObject({ height: 160, languages: [1, 2], women_rank: 4, sake: 3 });
    expect(Object.keys(detail.profile)).not.toContain('sales_note');
    expect(Object.keys(detail.profile)).not.toContain('birth_date');
    expect((await call(ctx.app, 'entrydetail', { ssid: ssid.taro, id: who.taro!.uid })).status).toBe(404);
    expect((await call(ctx.app, 'entrydetail', { ssid: ssid.aoi, id: who.mio!.uid })).status).toBe(403);
  });

  it("keeps each man's favourites his own", async () => {
    const update = (caller: string, id: number, flg: number) =>
      call(ctx.app, 'member/updateFavorite', { ssid: ssid[caller], data: { id, flg } });
    const favourites = async (caller: string) =>
      GetFavoriteReply.parse((await call(ctx.app, 'member/getFavorite', { ssid: ssid[caller] })).body).rows;

    expect((await update('taro', who.aoi!.uid, 1)).body).toEqual({ status: 'OK' });
    expect((await update('taro', who.aoi!.uid, 1)).status).toBe(200);
    expect(await favourites('taro')).toEqual([{ id: who.aoi!.uid, flg: 1 }]);
    expect(await favourites('jiro')).toEqual([]);
    expect(await names('taro', { query: { favorites: true } })).toEqual(['あおい']);
    expect(await names('jiro', { query: { favorites: true } })).toEqual([]);
    const row = EntryListReply.parse((await entrylist('taro')).body).rows.find(
      (each) => each.name === 'あおい',
    );
    expect(row?.favorite).toBe(true);

    expect((await call(ctx.app, 'member/getFavorite', { ssid: ssid.staff })).status).toBe(403);
    expect((await update('staff', who.aoi!.uid, 1)).status).toBe(403);
    expect((await update('aoi', who.aoi!.uid, 1)).status).toBe(403);
    expect((await update('taro', who.jiro!.uid, 1)).status).toBe(404);
    expect((await update('taro', who.aoi!.uid, 2)).status).toBe(400);

    await update('taro', who.aoi!.uid, 0);
    expect(await favourites('taro')).toEqual([]);
  });
});
