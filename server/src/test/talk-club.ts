import {
  ConversationsReply,
  ja,
  MessagesReply,
  UpdateNotificationsReply,
  type ConversationRow,
} from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect } from 'vitest';
import { InProcessFanout } from '../bus/fanout.js';
import { ConversationRepository } from '../repositories/conversation-repository.js';
import { call, createTestContext, createUser, login } from './app.js';
import type { Clock } from '../lib/clock.js';
import { actorOf, deskOf } from './talk.js';

/**
 * A small club for the conversation route tests: an admin, a staff member, two men and two women (each with
 * their desk talk), two group talks, the staff room and a bulk-send history. `clocked` is an app on the same
 * database and fan-out running on the given clock, to place messages on chosen dates.
 */
export async function openTalkClub(clock: Clock) {
  // Both apps on one fan-out, as instances on one database always are (decision 008): what one writes
  // drops the other's cached room lists.
  const ctx = await createTestContext({ deps: { fanout: new InProcessFanout() } });
  const clocked = await ctx.buildApp({}, clock);
  const admin = await createUser(ctx.app, { loginId: 'admin', role: 1, name: '管理者' });
  const staff = await createUser(ctx.app, { loginId: 'staff-3', role: 3, name: 'スタッフ三郎' });
  const man = await createUser(ctx.app, { loginId: 'taro', role: 101, name: '山田 太郎', rank: 2 });
  const otherMan = await createUser(ctx.app, { loginId: 'ichiro', role: 101, name: '田中 一郎' });
  const woman = await createUser(ctx.app, { loginId: 'hanako', role: 201, name: '佐藤 花子' });
  const otherWoman = await createUser(ctx.app, { loginId: 'yuki', role: 201, name: '高橋 由紀' });
  const ssid: Record<string, string> = {};
  const desk: Record<string, number> = {};
  for (const user of [admin, staff, man, otherMan, woman, otherWoman]) {
    ssid[user.loginId] = await login(ctx.app, user);
  }
  for (const member of ['taro', 'ichiro', 'hanako', 'yuki'])
    desk[member] = await deskOf(ctx.app, ssid[member]!);

  const { list, messagesOf, counters } = talkReaders(ctx.app, ssid);

  const registrar = await actorOf(ctx.app, ssid.admin!);
  const groupTalk = (
    await ctx.app.services.conversations.createGroupTalk(registrar, { manId: man.uid, womanId: woman.uid })
  ).id;
  const otherGroupTalk = (
    await ctx.app.services.conversations.createGroupTalk(registrar, {
      manId: otherMan.uid,
      womanId: otherWoman.uid,
    })
  ).id;
  await ctx.app.services.conversations.ensureStaffRoom();
  const staffRoom = (await list('admin', 'staff')).rows[0]!.id;
  // The men's bulk-send history, made the way the bulk send makes it.
  const histories = new ConversationRepository(ctx.database.db);
  await histories.ensureOne('sendmen', ja.menu.sendMen, new Date());
  const broadcast = (await list('admin', 'sendmen')).rows[0]!.id;
  const png = await tinyPng();

  return {
    ctx,
    clocked,
    admin,
    staff,
    man,
    otherMan,
    woman,
    otherWoman,
    ssid,
    desk,
    groupTalk,
    otherGroupTalk,
    staffRoom,
    broadcast,
    png,
    list,
    messagesOf,
    counters,
  };
}

/** The reads the tests make as one of the club (by login ID): a room list, a room's messages, the counters. */
function talkReaders(app: FastifyInstance, ssid: Record<string, string>) {
  const list = async (who: string, type: string, extra: Record<string, unknown> = {}) => {
    const reply = await call(app, 'conversations', {
      ssid: ssid[who],
      type,
      search: '',
      page: 0,
      ...extra,
    });
    expect(reply.status).toBe(200);
    return ConversationsReply.parse(reply.body);
  };
  const messagesOf = async (who: string, id: number, before?: number) => {
    const reply = await call(app, 'messages', { ssid: ssid[who], id, ...(before ? { before } : {}) });
    expect(reply.status).toBe(200);
    return MessagesReply.parse(reply.body);
  };
  const counters = async (who: string) =>
    UpdateNotificationsReply.parse((await call(app, 'updateNotifications', { ssid: ssid[who] })).body)
      .rows[0]!;
  return { list, messagesOf, counters };
}

/** A 4×4 PNG as a data URL, for the image messages. */
async function tinyPng(): Promise<string> {
  const pixel = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${pixel.toString('base64')}`;
}

export const rowOf = (rows: ConversationRow[], id: number) => rows.find((row) => row.id === id);

export type TalkClub = Awaited<ReturnType<typeof openTalkClub>>;

/** Opens the club before a file's tests and closes it after them; its fields are there from the first test. */
export function useTalkClub(clock: Clock): TalkClub {
  const club = {} as TalkClub;
  beforeAll(async () => {
    Object.assign(club, await openTalkClub(clock));
  });
  afterAll(() => club.ctx.close());
  return club;
}
