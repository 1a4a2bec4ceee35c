import { MemberExportReply, csvCell, jaMember } from '@enishi/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { call } from '../test/app.js';
import { useMemberOffice } from '../test/member-office.js';

/** The member tables' CSV export (product.md §2.8): every match of the filters, as Excel reads it. */
describe('members/export', () => {
  const office = useMemberOffice();
  const exported = async (caller: string, body: Record<string, unknown>) => {
    const reply = await call(office.ctx.app, 'members/export', { ssid: office.ssid[caller], ...body });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return MemberExportReply.parse(reply.body);
  };

  const ids: string[] = [];

  beforeAll(async () => {
    const man = async (name: string, rank: number, introducer = '') => {
      const row = await office.addFresh('admin', 'men', { name, rank, introducer });
      ids.push(row.id);
      return row.uid;
    };
    await man('出力 いちろう', 1, '紹介,太郎');
    const twoLines = await man('出力 うみ', 3);
    const awkward = await man('出力 あき', 3);
    // What the form would not take, yet a record may hold: the file must still read back cell for cell.
    await office.ctx.database.db
      .update(users)
      .set({ name: '出力 あき,"秋"\r\n二行目', nameKana: 'しゅつりょく あき', introducer: '=HYPERLINK("x")' })
      .where(eq(users.id, awkward));
    await office.ctx.database.db
      .update(users)
      .set({ introducer: '一行目\n二行目' })
      .where(eq(users.id, twoLines));
    await office.addFresh('admin', 'women', { name: '出力 はな', introducer: '@紹介' });
  });

  it('writes UTF-8 with a byte order mark, CRLF and a header of the form labels, quoting what needs it', async () => {
    const file = await exported('staff', { kind: 'men', keyword: '出力', sort: 'name', desc: false });
    const f = jaMember.members.fields;
    expect(file.file_name).toBe(jaMember.table.csvFile('men'));
    expect(file.count).toBe(3);
    expect(file.csv.startsWith('\uFEFF')).toBe(true);
    expect(file.csv).toBe(
      '\uFEFF' +
        `${f.name},${f.name_kana},${f.id},${f.rank},${f.introducer}\r\n` +
        `"出力 あき,""秋""\r\n二行目",しゅつりょく あき,${ids[2]},VIP,"'=HYPERLINK(""x"")"\r\n` +
        `出力 いちろう,,${ids[0]},一般,"紹介,太郎"\r\n` +
        `出力 うみ,,${ids[1]},VIP,"一行目\n二行目"\r\n`,
    );
    expect(file.csv).not.toMatch(/パスワード|\$argon|\$2[aby]\$|Pass-1234/);
  });

  it('exports every match of the filters, not a page, in the table order', async () => {
    const vip = await exported('staff', { kind: 'men', keyword: '出力', rank: 3, sort: 'name', desc: true });
    expect(vip.count).toBe(2);
    expect(vip.csv).toContain('出力 うみ');
    expect(vip.csv).not.toContain('いちろう');
    // The table's order: by reading, those without one last either way (so あき, with one, first).
    const table = await call(office.ctx.app, 'members/table', {
      ssid: office.ssid.staff,
      kind: 'men',
      keyword: '出力',
      rank: 3,
      sort: 'name',
      desc: true,
    });
    const names = (table.body as { rows: { name: string }[] }).rows.map((row) => row.name);
    expect(names.map((name) => vip.csv.indexOf(csvCell(name)))).toEqual(
      names.map((name) => vip.csv.indexOf(csvCell(name))).sort((a, b) => a - b),
    );
    expect(vip.csv.indexOf('出力 あき')).toBeLessThan(vip.csv.indexOf('出力 うみ'));
    const women = await exported('staff6', { kind: 'women', keyword: '出力' });
    const f = jaMember.members.fields;
    expect(women.csv.split('\r\n')[0]).toBe(`\uFEFF${f.name},${f.name_kana},${f.id},${f.introducer}`);
    expect(women.csv).toContain(",'@紹介\r\n");
    expect(women.count).toBe(1);
  });

  it('refuses members (403) and staff records (400)', async () => {
    for (const caller of ['man', 'woman']) {
      const reply = await call(office.ctx.app, 'members/export', { ssid: office.ssid[caller], kind: 'men' });
      expect(reply.status, caller).toBe(403);
    }
    const staff = await call(office.ctx.app, 'members/export', { ssid: office.ssid.owner, kind: 'staff' });
    expect(staff.status).toBe(400);
  });
});
