import { NewsGetReply, type NewsRow } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import sharp from 'sharp';
import { call, createUser, login, type TestUser } from './app.js';

/** A small image in the given format, as a data URL (the label may lie, to test the byte checks). */
export async function imageDataUrl(
  format: 'png' | 'jpeg' | 'webp' | 'gif',
  options: { label?: string; width?: number; height?: number; color?: string } = {},
): Promise<string> {
  const bytes = await sharp({
    create: {
      width: options.width ?? 12,
      height: options.height ?? 8,
      channels: 3,
      background: options.color ?? '#b83',
    },
  })
    .toFormat(format)
    .toBuffer();
  return `data:${options.label ?? `image/${format}`};base64,${bytes.toString('base64')}`;
}

export const textAsPng = `data:image/png;base64,${Buffer.from('this is not an image at all').toString('base64')}`;

/** Bytes that pass the data URL checks but are over 5,000,000: refused by size. */
export function oversizedPng(): string {
  const bytes = Buffer.alloc(5_000_100, 0);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

/** Every role of product.md §6, from owner to member, logged in. */
export const ROLES = {
  admin: 1,
  owner: 2,
  staff: 3,
  staff6: 6,
  man: 101,
  woman: 201,
} as const;
export type RoleName = keyof typeof ROLES;
export const STAFF_ROLES: RoleName[] = ['admin', 'owner', 'staff', 'staff6'];
export const MEMBER_ROLES: RoleName[] = ['man', 'woman'];

export async function createRoleUsers(
  app: FastifyInstance,
  prefix = '',
): Promise<{ users: Record<RoleName, TestUser>; ssid: Record<RoleName, string> }> {
  const users = {} as Record<RoleName, TestUser>;
  const ssid = {} as Record<RoleName, string>;
  for (const [name, role] of Object.entries(ROLES) as [RoleName, number][]) {
    users[name] = await createUser(app, { loginId: `${prefix}${name}`, role, name: `${name} 太郎` });
    ssid[name] = await login(app, users[name]);
  }
  return { users, ssid };
}

/** GET of an image URL the API gave (signed, relative). */
export async function fetchImage(app: FastifyInstance, url: string) {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, type: response.headers['content-type'], bytes: response.rawPayload };
}

/** The caller's `news` counter. */
export async function newsCounter(app: FastifyInstance, ssid: string): Promise<number> {
  const reply = await call(app, 'updateNotifications', { ssid });
  return (reply.body as { rows: { news: number }[] }).rows[0]!.news;
}

/**
 * The news calls of the news tests, made as one of the role users: `add` with a title, body and type unless
 * given, `get` answering the rows. `appOf` and `ssidOf` are read when called, so beforeAll may set them.
 */
export function newsCalls(appOf: () => FastifyInstance, ssidOf: () => Record<RoleName, string>) {
  const add = (who: RoleName, body: Record<string, unknown>) =>
    call(appOf(), 'news/add', { ssid: ssidOf()[who], title: 'お知らせ', body: '本文', type: 1, ...body });
  const get = async (who: RoleName, body: Record<string, unknown> = {}): Promise<NewsRow[]> => {
    const reply = await call(appOf(), 'news/get', { ssid: ssidOf()[who], ...body });
    expect(reply.status).toBe(200);
    return NewsGetReply.parse(reply.body).rows;
  };
  return { add, get };
}
