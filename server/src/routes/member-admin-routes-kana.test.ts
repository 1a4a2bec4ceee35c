import {
  MemberTableReply,
  ProfileReply,
  RecipientsReply,
  SearchUserReply,
  UserRowsReply,
  jaMember,
  jaProfile,
} from '@enishi/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import { ENGINES } from '../test/database.js';
import { form, useMemberOffice } from '../test/member-office.js';

/*
 * Readings (ふりがな, product.md §5.7, §11.5): adduser and updateuser take `name_kana` in either kana script
 * and keep it in hiragana; every list of people is in あいうえお order of it, then by name, those without one
 * last; a search finds the reading typed in either script.
 */

const e = jaMember.members.errors;

/** Men of one test, as registered: [name, reading as typed]. Unicode order of the names is another order. */
const MEN: [string, string | null][] = [
  ['伊藤 直樹', 'イトウ ナオキ'],
  ['小林 誠', 'こばやし まこと'],
  ['山本 拓也', 'ﾔﾏﾓﾄ ﾀｸﾔ'],
  ['渡辺 翔太', 'わたなべ しょうた'],
  ['田中 健一', 'タナカ　ケンイチ'],
  ['阿部 一郎', null],
  // One reading, two names; the later registered sorts first by name (井 before 居).
  ['石居 亮', 'いしい りょう'],
  ['石井 亮', 'いしい りょう'],
];
/** The same men in the order every list must give: reading, then name (石井 before 石居), none last. */
const IN_ORDER = [
  '石井 亮',
  '石居 亮',
  '伊藤 直樹',
  '小林 誠',
  '田中 健一',
  '山本 拓也',
  '渡辺 翔太',
  '阿部 一郎',
];

describe.each(ENGINES)('readings and あいうえお order (%s)', { timeout: 60_000 }, (engine) => {
  const office = useMemberOffice(engine);
  const { ssid, addFresh } = office;
  const app = () => office.ctx.app;
  const search = async (keyword: string, caller = 'staff') => {
    const reply = await call(app(), 'searchuser', { ssid: ssid[caller], keyword, role: 101 });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return SearchUserReply.parse(reply.body).rows;
  };
  const uids: Record<string, number> = {};
  /** The readings adduser answered with, by name. */
  const stored: Record<string, string | null> = {};

  // Every case reads these men (the cases run in any order, shuffled): registered once, before them.
  beforeAll(async () => {
    for (const [name, kana] of MEN) {
      const row = await addFresh('staff', 'men', { name, ...(kana === null ? {} : { name_kana: kana }) });
      uids[name] = row.uid;
      stored[name] = row.name_kana;
    }
  });

  it('adduser keeps a reading typed in katakana, half-width or hiragana, in hiragana', async () => {
    for (const [name, kana] of MEN) {
      expect(stored[name], name).toBe(
        kana === null
          ? null
          : ({
              'イトウ ナオキ': 'いとう なおき',
              'ﾔﾏﾓﾄ ﾀｸﾔ': 'やまもと たくや',
              'タナカ　ケンイチ': 'たなか けんいち',
            }[kana] ?? kana),
      );
    }
    const staff = await addFresh('owner', 'staff', { name_kana: 'スタッフ' });
    expect(staff.name_kana).toBe('すたっふ');
  });

  it('searchuser lists people by reading, then name, those without one last', async () => {
    const names = (await search('')).map((row) => row.name).filter((name) => name in uids);
    expect(names).toEqual(IN_ORDER);
    // The office's own man has no reading: after every man who has one.
    const all = await search('');
    const firstWithout = all.findIndex((row) => row.name_kana === null);
    expect(all.slice(firstWithout).every((row) => row.name_kana === null)).toBe(true);
  });

  it('searchuser finds a reading typed in hiragana, katakana or half-width katakana', async () => {
    for (const keyword of ['たなか', 'タナカ', 'ﾀﾅｶ', 'けんいち', 'ケン']) {
      expect(
        (await search(keyword)).map((row) => row.name),
        keyword,
      ).toEqual(['田中 健一']);
    }
    expect((await search('田中')).map((row) => row.name)).toEqual(['田中 健一']);
  });

  it('refuses a reading with other characters, or too long, with Japanese words; nothing is stored', async () => {
    for (const [name_kana, error] of [
      ['田中', e.kanaInvalid],
      ['tanaka', e.kanaInvalid],
      ['たなか1', e.kanaInvalid],
      ['あ'.repeat(51), e.kanaTooLong],
      [12, e.kanaInvalid],
    ] as const) {
      const reply = await office.add('staff', { ...form.men, id: office.freshId('bad'), name_kana });
      expect(reply, String(name_kana)).toMatchObject({ status: 400, body: { error: error } });
      const edit = await call(app(), 'updateuser', {
        ssid: ssid.staff,
        uid: uids['田中 健一'],
        ...form.men,
        id: 'kana-edit',
        pass: '',
        name_kana,
      });
      expect(edit, String(name_kana)).toMatchObject({ status: 400, body: { error: error } });
    }
    expect((await search('たなか'))[0]!.name_kana).toBe('たなか けんいち');
  });

  it('updateuser changes the reading, keeps it when the field is absent, and clears it with an empty one', async () => {
    const uid = uids['渡辺 翔太']!;
    const update = async (extra: Record<string, unknown>) => {
      const body = {
        ssid: ssid.staff,
        uid,
        ...form.men,
        id: `watanabe-${engine}`,
        name: '渡辺 翔太',
        pass: '',
      };
      const reply = await call(app(), 'updateuser', { ...body, ...extra });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return UserRowsReply.parse(reply.body).rows[0]!.name_kana;
    };
    expect(await update({ name_kana: 'アベ ショウタ' })).toBe('あべ しょうた');
    expect((await search('')).map((row) => row.name).filter((name) => name in uids)[0]).toBe('渡辺 翔太');
    const [audited] = await office.audit();
    expect([audited!.before?.name_kana, audited!.after?.name_kana]).toEqual([
      'わたなべ しょうた',
      'あべ しょうた',
    ]);
    expect(await update({})).toBe('あべ しょうた');
    expect(await update({ name_kana: '' })).toBe(null);
    expect(
      (await search(''))
        .map((row) => row.name)
        .filter((name) => name in uids)
        .slice(-2),
    ).toEqual(['渡辺 翔太', '阿部 一郎']);
    expect(await update({ name_kana: 'わたなべ しょうた' })).toBe('わたなべ しょうた');
  });

  it('the member tables sort by name in reading order either way, those without a reading last', async () => {
    const table = async (desc: boolean) => {
      const reply = await call(app(), 'members/table', { ssid: ssid.staff, kind: 'men', sort: 'name', desc });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return MemberTableReply.parse(reply.body)
        .rows.map((row) => row.name)
        .filter((name) => name in uids);
    };
    expect(await table(false)).toEqual(IN_ORDER);
    expect(await table(true)).toEqual([...IN_ORDER.slice(0, -1).reverse(), '阿部 一郎']);
    const found = await call(app(), 'members/table', { ssid: ssid.staff, kind: 'men', keyword: 'ヤマモト' });
    expect(MemberTableReply.parse(found.body).rows.map((row) => [row.name, row.name_kana])).toEqual([
      ['山本 拓也', 'やまもと たくや'],
    ]);
  });

  it('the bulk-send recipients come in reading order', async () => {
    const reply = await call(app(), 'broadcasts/recipients', { ssid: ssid.staff, type: 1 });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const names = RecipientsReply.parse(reply.body).rows.map((row) => row.name);
    expect(names.filter((name) => name in uids)).toEqual(IN_ORDER);
  });

  it('the profile’s ふりがな is the person’s reading: read, changed and checked as one', async () => {
    const uid = uids['小林 誠']!;
    const profile = async (body: Record<string, unknown>, name = 'profile/get') => {
      const reply = await call(app(), name, { ssid: ssid.staff, uid, ...body });
      return reply;
    };
    expect(ProfileReply.parse((await profile({})).body).profile.name_kana).toBe('こばやし まこと');
    const changed = await profile({ profile: { name_kana: 'コバヤシ マコト' } }, 'profile/update');
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await search('コバヤシ')).map((row) => [row.name, row.name_kana])).toEqual([
      ['小林 誠', 'こばやし まこと'],
    ]);
    await profile({ profile: { name_kana: 'おばやし まこと' } }, 'profile/update');
    expect((await search('こばやし')).length).toBe(0);
    expect((await search('おばやし'))[0]!.name_kana).toBe('おばやし まこと');
    const bad = await profile({ profile: { name_kana: 'Kobayashi' } }, 'profile/update');
    expect(bad).toMatchObject({
      status: 400,
      body: { error: jaProfile.errors.notKana(jaProfile.fields.name_kana) },
    });
  });
});
