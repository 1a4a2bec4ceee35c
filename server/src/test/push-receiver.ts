import { execFileSync } from 'node:child_process';
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PushPayload } from '@enishi/contract';

/*
 * A local Web Push service for tests: HTTPS on 127.0.0.1 with a self-signed certificate, checking the VAPID
 * JWT (RFC 8292) and decrypting the aes128gcm payload (RFC 8291) with the subscription's private keys, the
 * way a browser's push service and the browser would. Test code only.
 */

const b64 = (value: string) => Buffer.from(value, 'base64url');

/** A browser's subscription: its keys, of which the server only learns the public half and `auth`. */
export class TestSubscriber {
  readonly ecdh = createECDH('prime256v1');
  readonly auth = randomBytes(16);
  constructor(readonly endpoint: string) {
    this.ecdh.generateKeys();
  }

  toJSON() {
    return {
      endpoint: this.endpoint,
      expirationTime: null,
      keys: { p256dh: this.ecdh.getPublicKey().toString('base64url'), auth: this.auth.toString('base64url') },
    };
  }

  /** RFC 8291 §3.4 and RFC 8188: one record, padding after the 0x02 delimiter. */
  decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const idLength = body[20]!;
    const serverKey = body.subarray(21, 21 + idLength);
    const ciphertext = body.subarray(21 + idLength);
    const shared = this.ecdh.computeSecret(serverKey);
    const info = Buffer.concat([Buffer.from('WebPush: info\0'), this.ecdh.getPublicKey(), serverKey]);
    const ikm = Buffer.from(hkdfSync('sha256', shared, this.auth, info, 32));
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
    const padded = Buffer.concat([
      decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
      decipher.final(),
    ]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    if (padded[end] !== 2) throw new Error('no last-record delimiter');
    return padded.subarray(0, end).toString('utf8');
  }
}

export interface ReceivedPush {
  path: string;
  payload: PushPayload;
  ttl: string | undefined;
  urgency: string | undefined;
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>`; returns the problem, or null when it is right. */
function vapidProblem(header: string | undefined, origin: string, publicKey: string): string | null {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header ?? '');
  if (!match) return 'no vapid authorization';
  const [, jwt, key] = match;
  if (key !== publicKey) return 'not the server key';
  const [head, claims, signature] = jwt!.split('.');
  const raw = b64(key);
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: raw.subarray(1, 33).toString('base64url'),
    y: raw.subarray(33).toString('base64url'),
  };
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    b64(signature!),
  );
  if (!ok) return 'bad signature';
  const body = JSON.parse(b64(claims!).toString()) as { aud: string; exp: number; sub: string };
  if (body.aud !== origin) return `aud ${body.aud}`;
  if (!(body.exp > Date.now() / 1000)) return 'expired';
  if (!/^(mailto:|https:)/.test(body.sub)) return 'no sub';
  return null;
}

/** What the receiver answers next on a path (by default 201). */
type Answer = { status: number; headers?: Record<string, string> };

export class PushReceiver {
  readonly received: ReceivedPush[] = [];
  readonly problems: string[] = [];
  private readonly answers = new Map<string, Answer[]>();
  private readonly subscribers = new Map<string, TestSubscriber>();
  private waiters: (() => void)[] = [];
  publicKey = '';
  private dir = '';
  /** The receiver's host and port, as PUSH_ALLOWED_HOSTS names it (its port is not the https default). */
  get allowedHost(): string {
    return new URL(this.origin).host;
  }
  /** The certificate to trust (NODE_EXTRA_CA_CERTS of a server in a child process). */
  certPath = '';

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    /** The certificate a server in this process trusts it by (PushDeps.ca). */
    readonly ca: Buffer,
  ) {}

  static async start(): Promise<PushReceiver> {
    const dir = mkdtempSync(path.join(tmpdir(), 'enishi-push-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(path.join(dir, 'cert.pem'));
    let receiver: PushReceiver | null = null;
    const server = createServer(
      { key: readFileSync(path.join(dir, 'key.pem')), cert },
      (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const answer = receiver!.handle(request.url ?? '', request.headers, Buffer.concat(chunks));
          response.writeHead(answer.status, answer.headers).end();
        });
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    receiver = new PushReceiver(server, `https://127.0.0.1:${port}`, cert);
    receiver.dir = dir;
    receiver.certPath = path.join(dir, 'cert.pem');
    return receiver;
  }

  /** A new browser subscription whose pushes come here. */
  subscriber(name: string): TestSubscriber {
    const subscriber = new TestSubscriber(`${this.origin}/push/${name}`);
    this.subscribers.set(`/push/${name}`, subscriber);
    return subscriber;
  }

  /** The next pushes to `name` are answered with these, in order. */
  answer(name: string, ...answers: Answer[]): void {
    this.answers.set(`/push/${name}`, answers);
  }

  to(name: string): ReceivedPush[] {
    return this.received.filter((push) => push.path === `/push/${name}`);
  }

  /** Resolves once `count` pushes have reached `name` (the test's own timeout bounds it). */
  async waitFor(name: string, count = 1): Promise<ReceivedPush[]> {
    while (this.to(name).length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.to(name);
  }

  /** Resolves with the first push to `name` that `matches`; others (a late push of an earlier test) are passed over. */
  async waitForMatch(name: string, matches: (push: ReceivedPush) => boolean): Promise<ReceivedPush> {
    for (;;) {
      const found = this.to(name).find(matches);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves once `count` pushes have arrived in all. */
  async waitForTotal(count: number): Promise<void> {
    while (this.received.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private handle(url: string, headers: Record<string, string | string[] | undefined>, body: Buffer): Answer {
    const scripted = this.answers.get(url)?.shift();
    if (scripted) return scripted;
    const subscriber = this.subscribers.get(url);
    const problem =
      vapidProblem(headers.authorization as string | undefined, this.origin, this.publicKey) ??
      (headers['content-encoding'] === 'aes128gcm' ? null : 'not aes128gcm');
    if (!subscriber || problem) {
      this.problems.push(problem ?? `unknown ${url}`);
      return { status: 400 };
    }
    this.received.push({
      path: url,
      payload: JSON.parse(subscriber.decrypt(body)) as PushPayload,
      ttl: headers.ttl as string | undefined,
      urgency: headers.urgency as string | undefined,
    });
    for (const resolve of this.waiters.splice(0)) resolve();
    return { status: 201 };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
