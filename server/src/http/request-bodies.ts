import { Readable } from 'node:stream';
import type { FastifyInstance, preParsingAsyncHookHandler } from 'fastify';
import { ja } from '@enishi/contract';
import { badRequest, unauthorized } from '../errors.js';
import { checkJsonDepth, JSON_MAX_DEPTH, leadingStringField } from '../lib/bounded-json.js';
import type { SessionService } from '../services/session-service.js';

/*
 * Bodies before a session (docs/decisions/007-hostile-input-and-durability.md). Anyone may send a body, so
 * nothing large is read before the session is known: a body over PRE_SESSION_BYTES must name its `ssid` as
 * a top-level key within its first PRE_SESSION_BYTES, and only a valid session lets the rest be read. The
 * app's default body limit is the same size, so calls without a session never read more than that.
 */
export const PRE_SESSION_BYTES = 64 * 1024;

/** Every JSON body is checked for depth in one linear pass before JSON.parse (lib/bounded-json.ts). */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string; // parseAs: 'string'
    try {
      checkJsonDepth(text, JSON_MAX_DEPTH);
    } catch {
      done(badRequest(ja.errors.malformedJson), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

interface Prefix {
  chunks: Buffer[];
  length: number;
  ended: boolean;
}

/** Reads from `stream` until `size` bytes or its end, then leaves it paused. */
function readPrefix(stream: Readable, size: number): Promise<Prefix> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (error: Error | null, ended: boolean) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      stream.pause();
      if (error) reject(error);
      else resolve({ chunks, length, ended });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= size) finish(null, false);
    };
    const onEnd = () => finish(null, true);
    const onError = (error: Error) => finish(error, false);
    stream.on('data', onData).once('end', onEnd).once('error', onError);
  });
}

async function* prefixThenRest(chunks: Buffer[], rest: Readable) {
  yield* chunks;
  for await (const chunk of rest) yield chunk as Buffer;
}

/**
 * The preParsing hook of a session call whose body limit is above PRE_SESSION_BYTES. A refused body is
 * answered at once and its connection closed, so the rest of it is never read.
 */
export function sessionBeforeBody(sessions: SessionService): preParsingAsyncHookHandler {
  return async (request, reply, payload) => {
    const declared = Number(request.headers['content-length']);
    if (declared <= PRE_SESSION_BYTES) return payload;
    const prefix = await readPrefix(payload, PRE_SESSION_BYTES);
    const whole = () => Readable.from(prefixThenRest(prefix.chunks, payload), { objectMode: false });
    if (prefix.ended) return whole();
    const head = Buffer.concat(prefix.chunks).subarray(0, PRE_SESSION_BYTES);
    const ssid = leadingStringField(head.toString('utf8'), 'ssid');
    if ((await sessions.resolve(ssid)) === null) {
      reply.header('connection', 'close');
      throw unauthorized();
    }
    return whole();
  };
}
