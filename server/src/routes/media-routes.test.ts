import { randomBytes } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_DATA_URL_MAX, ja, MessagesReply, type ServerFrame } from '@enishi/contract';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media, messages } from '../db/schema.js';
import { call, createTestContext, createUser, login, type TestContext } from '../test/app.js';
import { listen, TestSocket } from '../test/socket.js';
import { deskOf, newClientId } from '../test/talk.js';

type MessageFrame = Extract<ServerFrame, { type: 'message' }>;

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

/** 2217 as the little-endian numerator of a GPS rational, as libexif writes it. */
const GPS_SECONDS = Buffer.from([0xa9, 0x08, 0x00, 0x00]);
/** The GPS IFD pointer tag (0x8825), little-endian. */
const GPS_IFD_TAG = Buffer.from([0x25, 0x88]);

/** A 40x20 JPEG photo taken "in Tokyo": GPS position, camera make, and EXIF orientation 6 (turn 90°). */
async function photoWithGps(): Promise<Buffer> {
  const plain = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#48c' } })
    .jpeg()
    .toBuffer();
  return sharp(plain)
    .withExif({
      IFD0: { Make: 'TestCam' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '35/1 41/1 2217/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '139/1 41/1 3012/100',
      },
    })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('talk images', () => {
  let ctx: TestContext;
  let base: string;
  let staffSsid: string;
  let memberSsid: string;
  let otherSsid: string;
  let desk: number;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    staffSsid = await login(ctx.app, await createUser(ctx.app, { loginId: 'staff', role: 3 }));
    memberSsid = await login(ctx.app, await createUser(ctx.app, { loginId: 'taro', role: 101 }));
    otherSsid = await login(ctx.app, await createUser(ctx.app, { loginId: 'jiro', role: 101 }));
    desk = await deskOf(ctx.app, memberSsid);
    base = await listen(ctx.app);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await ctx.close();
  });

  const connect = async (ssid: string) => {
    const socket = await TestSocket.session(base, ssid);
    sockets.push(socket);
    return socket;
  };

  const sendImages = (socket: TestSocket, image: string[], message = '') => {
    const clientId = newClientId();
    socket.send({
      type: 'text',
      conversation_id: desk,
      message,
      image,
      reply: null,
      announce: false,
      client_id: clientId,
    });
    return clientId;
  };

  const get = (url: string) => fetch(new URL(url, base));

  it('re-encodes a JPEG upright and without EXIF, so no GPS position reaches anyone', async () => {
    const original = await photoWithGps();
    // The test photo really carries what must go.
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes(GPS_SECONDS) && original.includes(GPS_IFD_TAG)).toBe(true);

    const member = await connect(memberSsid);
    const staff = await connect(staffSsid);
    const clientId = sendImages(member, [dataUrl('image/jpeg', original)], '写真です');
    const echo = await member.take<MessageFrame>((f) => f.type === 'message' && f.client_id === clientId);
    const atStaff = await staff.take<MessageFrame>((f) => f.type === 'message' && f.client_id === clientId);
    expect(echo.image).toHaveLength(1);
    expect(atStaff.image).toEqual(echo.image);

    const response = await get(echo.image[0]!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(4200);

    const served = Buffer.from(await response.arrayBuffer());
    const metadata = await sharp(served).metadata();
    expect(metadata.format).toBe('jpeg');
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect([metadata.width, metadata.height]).toEqual([20, 40]);
    expect(served.includes(GPS_SECONDS)).toBe(false);
    expect(served.includes(GPS_IFD_TAG)).toBe(false);
    expect(served.includes(Buffer.from('Exif\0\0'))).toBe(false);
    expect(served.toString('latin1')).not.toContain('TestCam');

    // The HTTP history signs the same image for the member.
    const page = MessagesReply.parse((await call(ctx.app, 'messages', { ssid: memberSsid, id: desk })).body);
    const stored = page.rows.flatMap((group) => group.messages).find((m) => m.id === echo.id);
    expect(stored?.image[0]).toMatch(/^\/media\//);
    expect((await get(stored!.image[0]!)).status).toBe(200);
  });

  it('stores PNG and WebP photos as JPEG, trusting the bytes rather than the data-URL label', async () => {
    const member = await connect(memberSsid);
    // Transparent green: flattened onto white, as a JPEG has no transparency.
    const png = await sharp({ create: { width: 8, height: 6, channels: 4, background: '#0f00' } })
      .png()
      .toBuffer();
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0f0' } })
      .webp()
      .toBuffer();
    const clientId = sendImages(member, [dataUrl('image/jpeg', png), dataUrl('image/webp', webp)]);
    const echo = await member.take<MessageFrame>((f) => f.type === 'message' && f.client_id === clientId);
    const served = [];
    for (const url of echo.image) {
      const response = await get(url);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      served.push(await sharp(Buffer.from(await response.arrayBuffer())).metadata());
    }
    expect(served.map((m) => [m.format, m.width, m.height])).toEqual([
      ['jpeg', 8, 6],
      ['jpeg', 8, 8],
    ]);
    const [corner] = await sharp(Buffer.from(await (await get(echo.image[0]!)).arrayBuffer()))
      .raw()
      .toBuffer();
    expect(corner).toBeGreaterThan(240);
  });

  it('makes a 480 x 800 photo that was a 1.1 MB PNG a JPEG well under 200 KB', async () => {
    // Gaussian noise is the hardest photo there is to compress.
    const noise = { type: 'gaussian' as const, mean: 128, sigma: 50 };
    const raw = await sharp({ create: { width: 480, height: 800, channels: 3, noise, background: '#000' } })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const png = await sharp(raw.data, { raw: raw.info }).png().toBuffer();
    expect(png.length).toBeGreaterThan(1_000_000);

    const member = await connect(memberSsid);
    const clientId = sendImages(member, [dataUrl('image/png', png)]);
    const echo = await member.take<MessageFrame>((f) => f.type === 'message' && f.client_id === clientId);
    const response = await get(echo.image[0]!);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const served = Buffer.from(await response.arrayBuffer());
    expect(served.length).toBeLessThan(180_000);
    expect(Number(response.headers.get('content-length'))).toBe(served.length);
    const metadata = await sharp(served).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 480, 800]);
  });

  it('still serves the PNG files stored before photos became JPEG', async () => {
    const member = await connect(memberSsid);
    const photo = await sharp({ create: { width: 6, height: 4, channels: 3, background: '#345' } })
      .jpeg()
      .toBuffer();
    const clientId = sendImages(member, [dataUrl('image/jpeg', photo)]);
    const echo = await member.take<MessageFrame>((f) => f.type === 'message' && f.client_id === clientId);
    const id = new URL(echo.image[0]!, base).pathname.split('/').at(-1)!;

    // As an older version stored it: a .png file with its own type.
    const png = await sharp({ create: { width: 6, height: 4, channels: 4, background: '#3458' } })
      .png()
      .toBuffer();
    const relative = path.join(id.slice(0, 2), `${id}.png`);
    await writeFile(path.join(ctx.dataDir, 'media', relative), png);
    await ctx.database.db
      .update(media)
      .set({ path: relative, mime: 'image/png', bytes: png.length })
      .where(eq(media.id, id));

    const response = await get(echo.image[0]!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
  });

  it('answers 403 to a changed or expired URL, and 404 once the message is deleted', async () => {
    const member = await connect(memberSsid);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123' } })
      .png()
      .toBuffer();
    const clientId = sendImages(member, [dataUrl('image/png', png)]);
    const echo = await member.take<MessageFrame>((f) => f.type === 'message' && f.client_id === clientId);
    const url = new URL(echo.image[0]!, base);
    const id = url.pathname.split('/').at(-1)!;
    const signature = url.searchParams.get('s')!;
    const expiry = url.searchParams.get('e')!;

    const tampered = [
      `/media/${id}?e=${expiry}&s=${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `/media/${id}?e=${Number(expiry) + 600}&s=${signature}`,
      `/media/${id}?e=${expiry}`,
      `/media/${id}`,
      `/media/${'A'.repeat(22)}?e=${expiry}&s=${signature}`,
    ];
    for (const bad of tampered) {
      const response = await get(bad);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: ja.errors.forbidden });
    }

    // Signed two hours ago with the shared key: long expired.
    const twoHoursAgo = Date.now() - 2 * 60 * 60 * 1000;
    const past = await ctx.buildApp({}, () => twoHoursAgo);
    const [expired] = past.services.media.sign([id]);
    expect(expired).not.toBe(echo.image[0]);
    expect((await get(expired!)).status).toBe(403);

    member.send({ type: 'delete', delete_message_id: echo.id });
    await member.take((f) => f.type === 'delete');
    const gone = await get(echo.image[0]!);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: ja.errors.notFound });
  });

  it('never gives the URL to a member outside the talk', async () => {
    const other = await connect(otherSsid);
    const member = await connect(memberSsid);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#456' } })
      .png()
      .toBuffer();
    const clientId = sendImages(member, [dataUrl('image/png', png)]);
    await member.take((f) => f.type === 'message' && f.client_id === clientId);
    other.send({ type: 'open', conversation_id: desk });
    expect(await other.take((f) => f.type === 'error')).toMatchObject({ error: ja.errors.notFound });
    expect(JSON.stringify(other.received)).not.toContain('/media/');
    expect((await call(ctx.app, 'messages', { ssid: otherSsid, id: desk })).status).toBe(404);
  });

  it('refuses a non-image or an image over 5,000,000 bytes, storing nothing', async () => {
    const member = await connect(memberSsid);
    const countOf = async (table: typeof messages | typeof media) =>
      (await ctx.database.db.select({ n: count() }).from(table))[0]!.n;
    const before = { messages: await countOf(messages), media: await countOf(media) };
    const filesBefore = await filesUnder(path.join(ctx.dataDir, 'media'));

    // About 5.07 MB of noise, stored uncompressed: over the limit yet within the data-URL length.
    const side = 1300;
    const huge = await sharp(randomBytes(side * side * 3), {
      raw: { width: side, height: side, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(huge.length).toBeGreaterThan(5_000_000);
    const small = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#789' } })
      .png()
      .toBuffer();

    const cases: [string[], string][] = [
      [[dataUrl('image/png', Buffer.from('not an image at all'))], ja.errors.badImage],
      [[dataUrl('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01, 0x02]))], ja.errors.badImage],
      [[dataUrl('image/png', Buffer.from('GIF89a\x01\x00\x01\x00'))], ja.errors.badImage],
      // One good image and one bad: neither is kept.
      [[dataUrl('image/png', small), dataUrl('image/png', huge)], ja.errors.imageTooLarge],
      // Frames of over 1 MB are read off the event loop (frame reader): the same answers.
      [[dataUrl('image/png', small), `data:image/png;base64,${'!'.repeat(1_100_000)}`], ja.errors.badImage],
      [[`data:image/png;base64,${'A'.repeat(IMAGE_DATA_URL_MAX)}`], ja.errors.imageTooLarge],
    ];
    for (const [images, error] of cases) {
      const clientId = sendImages(member, images, '画像つき');
      expect(await member.take((f) => f.type === 'error')).toEqual({
        type: 'error',
        error,
        client_id: clientId,
      });
    }
    expect({ messages: await countOf(messages), media: await countOf(media) }).toEqual(before);
    expect(await filesUnder(path.join(ctx.dataDir, 'media'))).toEqual(filesBefore);
  });
});
