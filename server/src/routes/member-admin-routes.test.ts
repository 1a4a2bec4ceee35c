import { MemberForm, firstErrorMessage, ja, jaMember } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call, login } from '../test/app.js';
import { form, useMemberOffice, type Kind } from '../test/member-office.js';

const e = jaMember.members.errors;

describe('member and staff administration: permissions, adding, the form rules', () => {
  const office = useMemberOffice();
  const { people, ssid, freshId, add, addFresh } = office;

  describe('who may do what (product.md §6)', () => {
    // Expected status per caller for [men, women, staff] records.
    const matrix: [string, [number, number, number]][] = [
      ['man', [403, 403, 403]],
      ['woman', [403, 403, 403]],
      ['staff6', [200, 200, 403]],
      ['staff', [200, 200, 403]],
      ['admin', [200, 200, 403]],
      ['owner', [200, 200, 200]],
    ];
    const kinds: Kind[] = ['men', 'women', 'staff'];

    it.each(matrix)('adduser, searchuser, updateuser, deluser as %s', async (caller, expected) => {
      for (const [index, kind] of kinds.entries()) {
        const status = expected[index]!;
        const target = await addFresh('owner', kind);
        const added = await add(caller, { ...form[kind], id: freshId(kind) });
        expect(added.status, `adduser ${kind}`).toBe(status);
        const searched = await call(office.ctx.app, 'searchuser', {
          ssid: ssid[caller],
          keyword: '',
          role: form[kind].role,
        });
        expect(searched.status, `searchuser ${kind}`).toBe(status);
        const updated = await call(office.ctx.app, 'updateuser', {
          ssid: ssid[caller],
          uid: target.uid,
          ...form[kind],
          id: target.id,
          pass: '',
        });
        expect(updated.status, `updateuser ${kind}`).toBe(status);
        const deleted = await call(office.ctx.app, 'deluser', { ssid: ssid[caller], uid: target.uid });
        expect(deleted.status, `deluser ${kind}`).toBe(status);
        if (status === 403) expect(deleted.body).toEqual({ error: ja.errors.forbidden });
      }
    });

    it('answers 401 to every call without a valid session, before reading the body', async () => {
      for (const name of [
        'adduser',
        'updateuser',
        'searchuser',
        'deluser',
        'uploadUserImage',
        'auditlog',
        'add_conversation',
      ]) {
        for (const body of [{}, { ssid: 'x'.repeat(43) }, { ssid: 'nonsense', role: 101 }]) {
          expect(await call(office.ctx.app, name, body), name).toMatchObject({
            status: 401,
            body: { error: ja.errors.unauthorized },
          });
        }
      }
    });

    it('answers 404 for a record that does not exist, to staff', async () => {
      for (const name of ['deluser', 'updateuser']) {
        const reply = await call(office.ctx.app, name, {
          ssid: ssid.staff,
          uid: 999_999,
          ...(name === 'updateuser' ? form.men : {}),
        });
        expect(reply, name).toMatchObject({ status: 404, body: { error: ja.errors.notFound } });
      }
    });

    it('answers 403, not 404, to members whatever the uid', async () => {
      const reply = await call(office.ctx.app, 'deluser', { ssid: ssid.man, uid: 999_999 });
      expect(reply.status).toBe(403);
    });

    it('shows the audit log to the owner only', async () => {
      for (const caller of ['man', 'woman', 'staff6', 'staff', 'admin']) {
        expect((await call(office.ctx.app, 'auditlog', { ssid: ssid[caller] })).status, caller).toBe(403);
      }
      expect((await call(office.ctx.app, 'auditlog', { ssid: ssid.owner, page: 0 })).status).toBe(200);
    });
  });

  describe('adduser', () => {
    it('registers a man with his rank, and gives him his talk with the staff desk', async () => {
      const password = 'Pass-1234';
      const row = await addFresh('staff', 'men', { pass: password, rank: 4 });
      expect(row).toMatchObject({ role: 101, rank: 4, name: '新規 太郎', introducer: '山田', image: null });
      const ssidOfNew = await login(office.ctx.app, {
        uid: row.uid,
        loginId: row.id,
        password,
        role: 101,
        name: row.name,
      });
      const desk = await call(office.ctx.app, 'conversations', {
        ssid: ssidOfNew,
        type: 'staff',
        search: '',
        page: 0,
      });
      expect((desk.body as { rows: unknown[] }).rows).toHaveLength(1);
    });

    it('registers a woman with role 201 and no rank', async () => {
      expect(await addFresh('staff', 'women', { rank: 5 })).toMatchObject({ role: 201, rank: 0 });
    });

    it('registers staff always as role 3 with rank 0, whatever role the form sends (product.md §9)', async () => {
      for (const role of [1, 2, 3, 6]) {
        expect(await addFresh('owner', 'staff', { role, rank: 6 })).toMatchObject({ role: 3, rank: 0 });
      }
    });

    it('refuses a login ID that is taken, with a clear message', async () => {
      const reply = await add('staff', { ...form.men, id: people.man!.loginId });
      expect(reply).toMatchObject({ status: 400, body: { error: e.idTaken } });
    });

    it('never answers with a password or its hash', async () => {
      const reply = await add('staff', { ...form.men, id: freshId('men'), pass: 'Unique-pass9' });
      expect(JSON.stringify(reply.body)).not.toMatch(/Unique-pass9|argon|password|hash/i);
    });
  });

  describe('the member form rules (product.md §5), the same on the server as in the form', () => {
    const cases: [string, Kind, Record<string, unknown>, string][] = [
      ['no name', 'men', { name: undefined }, e.nameRequired],
      ['a blank name', 'women', { name: '   ' }, e.nameRequired],
      ['a name over 50 characters', 'staff', { name: 'あ'.repeat(51) }, e.nameTooLong],
      ['no ID', 'men', { id: undefined }, e.idRequired],
      ['an empty ID', 'men', { id: '' }, e.idRequired],
      ['an ID with a space', 'women', { id: 'ab cd' }, e.idInvalid],
      ['an ID in Japanese', 'women', { id: 'やまだ' }, e.idInvalid],
      ['an ID with an underscore', 'staff', { id: 'a_b' }, e.idInvalid],
      ['an ID of 25 characters', 'men', { id: 'a'.repeat(25) }, e.idTooLong],
      ['no password', 'men', { pass: undefined }, e.passRequired],
      ['an empty password', 'women', { pass: '' }, e.passRequired],
      ['a password with !', 'staff', { pass: 'abc!def' }, e.passInvalid],
      ['a password with a space', 'men', { pass: 'abc def' }, e.passInvalid],
      ['a password of 25 characters', 'men', { pass: 'a'.repeat(25) }, e.passTooLong],
      ['a man without a rank', 'men', { rank: '' }, e.rankRequired],
      ['a man with rank 0', 'men', { rank: 0 }, e.rankRequired],
      ['a man with rank 7', 'men', { rank: 7 }, e.rankRequired],
      ['an introducer of 25 characters', 'women', { introducer: 'あ'.repeat(25) }, e.introducerTooLong],
      ['an unknown role', 'men', { role: 7 }, e.roleInvalid],
      ['an unknown field', 'men', { admin: true }, ja.errors.unknownField],
    ];

    it.each(cases)('refuses %s with 400 and the form’s own message', async (_case, kind, change, message) => {
      const fields: Record<string, unknown> = { ...form[kind], id: freshId(kind), ...change };
      for (const key of Object.keys(change)) if (change[key] === undefined) delete fields[key];
      const reply = await add('owner', fields);
      expect(reply).toEqual(expect.objectContaining({ status: 400, body: { error: message } }));
      // The web form runs the same schema and shows the same text.
      const checked = MemberForm.add.safeParse(fields);
      expect(checked.success).toBe(false);
      expect(firstErrorMessage(checked.error!)).toBe(message);
    });

    it.each([
      ['the longest ID and password', { id: 'A-'.repeat(12), pass: 'a.?/-Z9'.padEnd(24, 'x') }],
      ['an introducer of 24 characters', { introducer: 'あ'.repeat(24) }],
      ['a rank sent as digits', { rank: '6' }],
    ])('accepts %s', async (_case, change) => {
      const fields = { ...form.men, id: freshId('men'), ...change };
      expect(MemberForm.add.safeParse(fields).success).toBe(true);
      const reply = await add('staff', fields);
      expect(reply.status).toBe(200);
    });

    it('makes the password optional on edit only', async () => {
      const target = await addFresh('staff', 'women');
      const { pass: _pass, ...withoutPass } = form.women;
      for (const pass of [undefined, '', null]) {
        const body = {
          ssid: ssid.staff,
          uid: target.uid,
          ...withoutPass,
          id: target.id,
          ...(pass === undefined ? {} : { pass }),
        };
        expect((await call(office.ctx.app, 'updateuser', body)).status).toBe(200);
        expect(MemberForm.edit.safeParse({ ...withoutPass, id: target.id, pass }).success).toBe(true);
      }
      const bad = await call(office.ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: target.uid,
        ...form.women,
        id: target.id,
        pass: 'ab!',
      });
      expect(bad).toMatchObject({ status: 400, body: { error: e.passInvalid } });
    });
  });
});
