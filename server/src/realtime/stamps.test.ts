import { jaMember, ja, MessageEvent, type StampsReply, type StampSetsReply } from '@enishi/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../db/schema.js';
import { call } from '../test/app.js';
import {
  connect,
  ctx,
  isError,
  isMessage,
  manDesk,
  messageCount,
  ssid,
  text,
  useChatClub,
  womanDesk,
  type ErrorFrame,
  type MessageFrame,
} from '../test/chat-club.js';

/** A small picture as a data URL, in a format sharp writes. */
async function picture(format: 'png' | 'jpeg' | 'webp', colour = '#d94452'): Promise<string> {
  const bytes = await sharp({ create: { width: 300, height: 200, channels: 4, background: colour } })
    .toFormat(format)
    .toBuffer();
  return `data:image/${format};base64,${bytes.toString('base64')}`;
}

async function stampsOf(session: string): Promise<StampsReply> {
  const reply = await call(ctx.app, 'stamps', { ssid: session });
  expect(reply.status).toBe(200);
  return reply.body as StampsReply;
}

/** Sends a stamp over the socket and waits for the sender's echo. */
async function sendStamp(session: string, conversationId: number, stampId: number) {
  const socket = await connect(session);
  const frame = text(conversationId, '', { stamp_id: stampId });
  socket.send(frame);
  return { socket, echo: await socket.take<MessageFrame>(isMessage(frame.client_id)) };
}

describe('stamps (スタンプ)', () => {
  useChatClub();
  let club: StampsReply['sets'][number];

  beforeAll(async () => {
    club = (await stampsOf(ssid.taro!)).sets.find((set) => set.builtin)!;
  });

  it('gives everyone the club’s own set of 24 stamps, each picture a small PNG behind a signed URL', async () => {
    expect(club.name).toBe('つるちゃん');
    expect(club.stamps).toHaveLength(24);
    expect(club.stamps.map((stamp) => stamp.label)).toEqual(
      expect.arrayContaining(['ありがとう', 'よろしくお願いします', 'OK', 'おやすみ']),
    );
    const picture = await ctx.app.inject({ method: 'GET', url: club.stamps[0]!.image });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.rawPayload.length).toBeLessThan(12_000);
    expect((await sharp(picture.rawPayload).metadata()).width).toBe(240);
    const forged = club.stamps[0]!.image.replace(/s=[^&]+/, `s=${'A'.repeat(43)}`);
    expect((await ctx.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
  });

  it('travels as a message any client of the contract can show: its picture in `image`, no text', async () => {
    const stamp = club.stamps[0]!;
    const staff = await connect(ssid.admin!);
    const { echo } = await sendStamp(ssid.taro!, manDesk, stamp.id);
    expect(echo).toMatchObject({
      own: true,
      message: '',
      message_type: 0,
      stamp: { id: stamp.id, label: stamp.label },
    });
    expect(echo.image).toHaveLength(1);
    expect(echo.image[0]).toMatch(/^\/media\/stamp\/[A-Za-z0-9_-]{22}\?e=\d+&s=/);
    // The staff's copy, checked against the wire contract's frame, and its picture loads for them.
    const copy = await staff.take<MessageFrame>(isMessage(echo.client_id!));
    expect(MessageEvent.safeParse(copy).success).toBe(true);
    expect(copy).toMatchObject({ own: false, message: '', stamp: { id: stamp.id } });
    expect((await ctx.app.inject({ method: 'GET', url: copy.image[0]! })).statusCode).toBe(200);
    // Stored as the stamp alone, and read back so from the talk's page.
    const [row] = await ctx.database.db.select().from(messages).where(eq(messages.id, echo.id));
    expect(row).toMatchObject({ stampId: stamp.id, body: '', images: [] });
    const page = await call(ctx.app, 'messages', { ssid: ssid.taro, id: manDesk });
    const shown = (page.body as { rows: { messages: MessageFrame[] }[] }).rows
      .flatMap((group) => group.messages)
      .find((message) => message.id === echo.id);
    expect(shown).toMatchObject({ message: '', stamp: { id: stamp.id, label: stamp.label } });
    expect(shown!.image[0]).toMatch(/^\/media\/stamp\//);
  });

  it('is quoted by a reply as a stamp: its picture and its words, live and read back', async () => {
    const stamp = club.stamps[4]!;
    const { socket, echo } = await sendStamp(ssid.taro!, manDesk, stamp.id);
    const frame = text(manDesk, '見ました', { reply: echo.id });
    socket.send(frame);
    const answer = await socket.take<MessageFrame>(isMessage(frame.client_id));
    expect(MessageEvent.safeParse(answer).success).toBe(true);
    expect(answer.reply).toMatchObject({
      id: echo.id,
      message: '',
      stamp: { id: stamp.id, label: stamp.label },
    });
    expect(answer.reply!.image).toEqual([expect.stringMatching(/^\/media\/stamp\//)]);
    const page = await call(ctx.app, 'messages', { ssid: ssid.admin, id: manDesk });
    const shown = (page.body as { rows: { messages: MessageFrame[] }[] }).rows
      .flatMap((group) => group.messages)
      .find((message) => message.id === answer.id);
    expect(shown!.reply).toMatchObject({ stamp: { id: stamp.id, label: stamp.label } });
    expect(shown!.reply!.image).toHaveLength(1);
  });

  it.each([
    ['an unknown stamp id', () => ({ stamp_id: 999_999 }), jaMember.stamps.unknown],
    [
      'a stamp with text',
      () => ({ stamp_id: club.stamps[1]!.id, message: 'こんにちは' }),
      ja.errors.badRequest,
    ],
  ])('refuses %s with a Japanese error frame and stores nothing', async (_case, extra, error) => {
    const socket = await connect(ssid.taro!);
    const before = await messageCount();
    const frame = text(manDesk, '', extra());
    socket.send(frame);
    const answer = await socket.take<ErrorFrame>(isError);
    expect(answer).toMatchObject({ error, client_id: frame.client_id });
    expect(await messageCount()).toBe(before);
  });

  it('puts the stamps a person sent last first, newest first, each once', async () => {
    const [a, b] = [club.stamps[5]!, club.stamps[6]!];
    await sendStamp(ssid.hanako!, womanDesk, a.id);
    await sendStamp(ssid.hanako!, womanDesk, b.id);
    await sendStamp(ssid.hanako!, womanDesk, a.id);
    expect((await stampsOf(ssid.hanako!)).recent.slice(0, 2)).toEqual([a.id, b.id]);
    // Another person's stamps are not hers.
    expect((await stampsOf(ssid.jiro!)).recent).toEqual([]);
  });

  it('shows as [スタンプ] in the desk’s talk list and its search', async () => {
    await sendStamp(ssid.taro!, manDesk, club.stamps[2]!.id);
    const list = await call(ctx.app, 'conversations', { ssid: ssid.admin, type: 'men', search: '', page: 0 });
    const row = (list.body as { rows: { id: number; last_content: string }[] }).rows.find(
      (talk) => talk.id === manDesk,
    );
    expect(JSON.parse(row!.last_content)).toEqual({ content: jaMember.talkLimit.stamp.preview });
    const search = await call(ctx.app, 'messages/search', {
      ssid: ssid.admin,
      q: 'スタンプ',
      conversation_id: manDesk,
    });
    const hits = (search.body as { rows: { message: string }[] }).rows;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.message === jaMember.talkLimit.stamp.preview)).toBe(true);
  });

  describe('the staff’s sets', () => {
    it('adds a set whose pictures are checked and cleaned like every upload, and only for staff', async () => {
      const body = {
        name: '季節のスタンプ',
        stamps: [
          { label: 'さくら', image: await picture('png', '#f4a3b8') },
          { label: 'あじさい', image: await picture('webp', '#7c8fd8') },
        ],
      };
      expect(await call(ctx.app, 'stamps/add_set', { ssid: ssid.taro, ...body })).toMatchObject({
        status: 403,
      });
      const added = await call(ctx.app, 'stamps/add_set', { ssid: ssid.admin, ...body });
      expect(added).toMatchObject({ status: 200, body: { status: 'OK' } });
      const set = (await stampsOf(ssid.taro!)).sets.find((each) => each.name === '季節のスタンプ')!;
      expect(set.stamps.map((stamp) => stamp.label)).toEqual(['さくら', 'あじさい']);
      const webp = await ctx.app.inject({ method: 'GET', url: set.stamps[1]!.image });
      expect(webp.headers['content-type']).toBe('image/webp');
      // Fitted into 240 × 240 on a transparent ground.
      expect(await sharp(webp.rawPayload).metadata()).toMatchObject({
        width: 240,
        height: 240,
        hasAlpha: true,
      });
    });

    it.each([
      ['a JPEG', (): Promise<string> => picture('jpeg'), jaMember.stampAdmin.badImage],
      [
        'a PNG that is not one',
        async (): Promise<string> => 'data:image/png;base64,aGVsbG8gd29ybGQ=',
        ja.errors.badImage,
      ],
    ] as const)('refuses %s with a Japanese 400, storing no set', async (_case, make, error) => {
      const before = ((await call(ctx.app, 'stamps/sets', { ssid: ssid.admin })).body as StampSetsReply).sets
        .length;
      const reply = await call(ctx.app, 'stamps/add_set', {
        ssid: ssid.admin,
        name: '壊れたセット',
        stamps: [{ label: 'だめ', image: await make() }],
      });
      expect(reply).toMatchObject({ status: 400, body: { error } });
      const after = ((await call(ctx.app, 'stamps/sets', { ssid: ssid.admin })).body as StampSetsReply).sets;
      expect(after).toHaveLength(before);
    });

    it('stops a set: it leaves the picker and its stamps can no longer be sent', async () => {
      const stamp = club.stamps[3]!;
      const stop = await call(ctx.app, 'stamps/update_set', {
        ssid: ssid.admin,
        id: club.id,
        enabled: false,
      });
      expect(stop).toMatchObject({ status: 200 });
      try {
        expect((await stampsOf(ssid.taro!)).sets.some((set) => set.id === club.id)).toBe(false);
        const socket = await connect(ssid.taro!);
        socket.send(text(manDesk, '', { stamp_id: stamp.id }));
        expect(await socket.take<ErrorFrame>(isError)).toMatchObject({ error: jaMember.stamps.unknown });
        const all = (await call(ctx.app, 'stamps/sets', { ssid: ssid.admin })).body as StampSetsReply;
        expect(all.sets.find((set) => set.id === club.id)).toMatchObject({ enabled: false });
      } finally {
        await call(ctx.app, 'stamps/update_set', { ssid: ssid.admin, id: club.id, enabled: true });
      }
    });
  });
});
