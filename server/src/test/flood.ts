import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import WebSocket from 'ws';
import { ja } from '@enishi/contract';

/*
 * One member flooding the server (product.md §15.7 item 5): sockets full of frames of big images, hundreds
 * of socket attempts and a stream of messages, while another member keeps talking (timed by
 * delivery-times.ts). Shared by the flood test (server/src/flood.test.ts) and `npm run bench`
 * (bench/flood.ts).
 */

export interface FloodTarget {
  /** http:// origin of the server. */
  url: string;
  /** What the server takes as Origin (its PUBLIC_ORIGIN). */
  origin: string;
  /** The server's process id, to read its resident memory. */
  pid: number;
  flooder: { ssid: string; desk: number };
  /** The member whose delivery is timed, and a staff member who receives their messages. */
  talker: { ssid: string; desk: number };
  staff: { ssid: string };
}

export interface FloodSize {
  sockets: number;
  framesPerSocket: number;
  imagesPerFrame: number;
  imageBytes: number;
  socketAttempts: number;
  messages: number;
}

/** The flood as the issue describes it. */
export const FULL_FLOOD: FloodSize = {
  sockets: 4,
  framesPerSocket: 32,
  imagesPerFrame: 5,
  imageBytes: 4_000_000,
  socketAttempts: 500,
  messages: 2000,
};

/** Resident memory of process `pid` in bytes (Linux). */
export function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((each) => each.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

/** CPU time process `pid` has used so far, in milliseconds, all its threads (Linux). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime (fields 14 and 15 of stat, counted after the command name) in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Resolves once process `pid` has used under 5% of a core for a whole second (or after `seconds`): work
 * left from before (pictures still being decoded) must not be counted in a quiet figure.
 */
export async function settled(pid: number, seconds = 90): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  let before = cpuMsOf(pid);
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuMsOf(pid);
    if (now - before < 50) return;
    before = now;
  }
}

/** A PNG of noise of about `bytes` bytes (stored, not compressed), so that decoding it is real work. */
export async function noisePng(bytes: number): Promise<Buffer> {
  const side = Math.floor(Math.sqrt(bytes / 3));
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** Opens a socket with `ssid`; resolves with it once `ready`, or with the close code when refused. */
export function openSocket(
  target: FloodTarget,
  ssid: string,
  onFrame: (frame: Record<string, unknown>) => void = () => {},
): Promise<WebSocket | number> {
  const ws = new WebSocket(`${target.url.replace(/^http/, 'ws')}/ws/chat`, {
    origin: target.origin,
    perMessageDeflate: false,
    // A mask of zeros, as a flooder may choose: ws then sends its frames as they are, instead of masking a
    // copy of 27 MB for each (seconds of a core on the machine the server runs on, not the server's work).
    generateMask: (mask) => mask.fill(0),
  });
  return new Promise((resolve) => {
    ws.on('error', () => {});
    ws.on('open', () => ws.send(JSON.stringify({ type: 'session', session: ssid, last_id: null })));
    ws.on('close', (code) => resolve(code));
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if (frame.type === 'ready') resolve(ws);
      else onFrame(frame);
    });
  });
}

/** A text frame of the chat socket, as the web app sends one. */
export const textFrame = (conversationId: number, message: string, image: string[] = []) =>
  JSON.stringify({
    type: 'text',
    conversation_id: conversationId,
    message,
    image,
    reply: null,
    announce: false,
    client_id: randomUUID(),
  });

/** Samples the server's RSS every 50 ms until stopped; `peak` is the highest seen. */
export function watchRss(pid: number) {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      clearInterval(timer); // the process is gone
    }
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}

/** Sends every frame on `ws` and resolves once they have all left this process. */
function sendAll(ws: WebSocket, frames: (string | Buffer)[]): Promise<void> {
  return Promise.all(
    frames.map((frame) => new Promise<void>((resolve) => ws.send(frame, { binary: false }, () => resolve()))),
  ).then(() => undefined);
}

export interface FloodOutcome {
  refusedSockets: number;
  /** Frames of pictures refused (over the member's picture budget), and messages of them stored. */
  picturesRefused: number;
  picturesStored: number;
  /** The flood was cut off after its time: the server was still holding it back. */
  cutOff: boolean;
  /** Bytes still waiting on the flooder's side when it gave up: what the server never took in. */
  bytesLeftUnread: number;
}

const PICTURE_TEXT = '大きな画像';

/**
 * Runs the whole flood from `target.flooder`; resolves once the server has closed or answered it all, or
 * after `seconds` (the flooder's sockets are then dropped, as a client giving up would).
 */
export async function flood(target: FloodTarget, size: FloodSize, seconds = 60): Promise<FloodOutcome> {
  const outcome: FloodOutcome = {
    refusedSockets: 0,
    picturesRefused: 0,
    picturesStored: 0,
    cutOff: false,
    bytesLeftUnread: 0,
  };
  const stored = new Set<unknown>();
  const onFrame = (frame: Record<string, unknown>) => {
    if (frame.type === 'error' && frame.error === ja.errors.imagesTooFast) outcome.picturesRefused += 1;
    if (frame.type === 'message' && frame.message === PICTURE_TEXT) stored.add(frame.id);
    outcome.picturesStored = stored.size;
  };
  const sockets: WebSocket[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<'time'>((resolve) => {
    timer = setTimeout(() => resolve('time'), seconds * 1000);
  });
  const ended = await Promise.race([floodAll(target, size, sockets, outcome, onFrame), timeUp]);
  clearTimeout(timer);
  if (ended === 'time') {
    outcome.cutOff = true;
    outcome.bytesLeftUnread = sockets.reduce((sum, ws) => sum + ws.bufferedAmount, 0);
    for (const ws of sockets) ws.terminate();
  }
  return outcome;
}

/** The flood itself; every socket it opens is put in `sockets`. */
async function floodAll(
  target: FloodTarget,
  size: FloodSize,
  sockets: WebSocket[],
  outcome: FloodOutcome,
  onFrame: (frame: Record<string, unknown>) => void,
): Promise<void> {
  const png = (await noisePng(size.imageBytes)).toString('base64');
  const image = `data:image/png;base64,${png}`;
  // Encoded once: the load generator's own work stays small next to the server's.
  const big = Buffer.from(
    textFrame(target.flooder.desk, PICTURE_TEXT, Array<string>(size.imagesPerFrame).fill(image)),
  );
  const senders: WebSocket[] = [];
  for (let i = 0; i < size.sockets; i += 1) {
    const socket = await openSocket(target, target.flooder.ssid, onFrame);
    if (typeof socket !== 'number') senders.push(socket);
  }
  sockets.push(...senders);
  const images = senders.map((ws) => sendAll(ws, Array<Buffer>(size.framesPerSocket).fill(big)));
  // Socket attempts in batches of 50, all with the flooder's session, while the images are on their way.
  for (let done = 0; done < size.socketAttempts; done += 50) {
    const batch = Array.from({ length: Math.min(50, size.socketAttempts - done) }, () =>
      openSocket(target, target.flooder.ssid),
    );
    for (const result of await Promise.all(batch)) {
      if (typeof result === 'number') outcome.refusedSockets += 1;
      else sockets.push(result);
    }
  }
  const messages = senders[0]
    ? sendAll(
        senders[0],
        Array.from({ length: size.messages }, (_, i) => textFrame(target.flooder.desk, `連投 ${i}`)),
      )
    : Promise.resolve();
  await Promise.all([...images, messages]);
  // The server has every frame; a last frame on each socket is answered only after all before it.
  await Promise.all(senders.map((ws) => barrier(ws)));
  await Promise.all(sockets.map(closeSocket));
}

/** Resolves once the server answered everything `ws` sent before (opening a talk that does not exist). */
function barrier(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    const marker = 2_000_000_000;
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as { type: string; error?: string; client_id?: string };
      // Refused pictures are answered without a client id too; the marker's answer is another error.
      const refusal = frame.error === ja.errors.imagesTooFast || frame.error === ja.errors.sendingTooFast;
      if (frame.type === 'error' && frame.client_id === undefined && !refusal) {
        ws.off('message', onMessage);
        resolve();
      }
    };
    ws.on('message', onMessage);
    ws.once('close', () => resolve());
    ws.send(JSON.stringify({ type: 'open', conversation_id: marker }));
  });
}

/** Closes `ws` and resolves once it is closed. */
export function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    ws.once('close', () => resolve());
    ws.close();
  });
}
