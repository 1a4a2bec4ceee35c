import sharp from 'sharp';
import { AuditLogReply, UserRowsReply } from '@enishi/contract';
import { afterAll, beforeAll, expect } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from './app.js';
import type { Engine } from './database.js';

/** A valid member form per kind; tests change one field at a time. */
export const form = {
  men: { id: 'new-man', name: '新規 太郎', pass: 'Pass-1234', rank: 2, role: 101, introducer: '山田' },
  women: { id: 'new-woman', name: '新規 花子', pass: 'Pass-1234', rank: '', role: 201, introducer: '' },
  staff: { id: 'new-staff', name: '新規スタッフ', pass: 'Pass-1234', rank: 0, role: 3, introducer: '' },
} as const;
export type Kind = keyof typeof form;

export async function pngOf(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c8a663' } })
    .withMetadata({ exif: { IFD0: { Copyright: 'secret-exif-marker' } } })
    .png()
    .toBuffer();
}
export const dataUrl = (bytes: Buffer, mime = 'image/png') =>
  `data:${mime};base64,${bytes.toString('base64')}`;

/**
 * The member administration tests' office: an owner, an admin, staff of roles 3 and 6, a man and a woman,
 * each logged in, opened before a file's tests and closed after them. `ctx` is there from the first test.
 * `engine` picks the database (the default test database without it).
 */
export function useMemberOffice(engine?: Engine) {
  const people: Record<string, TestUser> = {};
  const ssid: Record<string, string> = {};
  let counter = 0;
  const office = {
    ctx: undefined as unknown as TestContext,
    people,
    ssid,
    /** A fresh unique login ID. */
    freshId: (prefix: string) => `${prefix}-${++counter}`,
    add: (caller: string, body: Record<string, unknown>) =>
      call(office.ctx.app, 'adduser', { ssid: ssid[caller], ...body }),
    addFresh: async (caller: string, kind: Kind, extra: Record<string, unknown> = {}) => {
      const reply = await office.add(caller, { ...form[kind], id: office.freshId(kind), ...extra });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return UserRowsReply.parse(reply.body).rows[0]!;
    },
    audit: async () =>
      AuditLogReply.parse((await call(office.ctx.app, 'auditlog', { ssid: ssid.owner })).body).rows,
  };

  beforeAll(async () => {
    office.ctx = await createTestContext(engine ? { engine } : {});
    const seed: [string, number, number?][] = [
      ['owner', 2],
      ['admin', 1],
      ['staff', 3],
      ['staff6', 6],
      ['man', 101, 3],
      ['woman', 201],
    ];
    for (const [key, role, rank] of seed) {
      people[key] = await createUser(office.ctx.app, {
        loginId: `t-${key}`,
        role,
        rank,
        name: `テスト ${key}`,
      });
      ssid[key] = await login(office.ctx.app, people[key]!);
    }
  });
  afterAll(() => office.ctx.close());
  return office;
}
