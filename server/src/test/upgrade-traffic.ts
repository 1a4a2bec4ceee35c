import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import WebSocket from 'ws';
import type { ServerProcess } from './process.js';

/*
 * Members' traffic for the rolling upgrade test (db/rolling-upgrade.upgrade.test.ts): each member, over and
 * over on each instance, logs in, lists the talks, reads the desk talk and sends a message over the chat
 * socket, as product.md describes them.
 */

const ACK_TIMEOUT_MS = 15_000;
/** Failures an instance may collect before its members stop trying (enough to see what broke). */
const FAILURES_SHOWN = 20;

interface Failure {
  instance: string;
  what: string;
}

/** Members' traffic on instances: counts rounds, keeps what failed and every acknowledged message. */
export class Traffic {
  readonly failures: Failure[] = [];
  readonly acknowledged: string[] = [];
  private readonly rounds = new Map<string, number>();
  private readonly waiters: (() => void)[] = [];
  private readonly loops: Promise<void>[] = [];
  private stopped = false;

  constructor(
    private readonly logins: string[],
    private readonly password: string,
  ) {}

  /** Starts every member's loop on `server` (named `instance`). */
  on(instance: string, server: ServerProcess): void {
    for (const login of this.logins) {
      this.rounds.set(`${instance}/${login}`, 0);
      this.loops.push(this.loop(instance, server.baseUrl, login));
    }
  }

  failuresOf(instance: string): Failure[] {
    return this.failures.filter((failure) => failure.instance === instance);
  }

  /** Resolves once every member has made `count` more rounds on `instance` than now (or it kept failing). */
  async more(instance: string, count: number): Promise<void> {
    const keys = [...this.rounds.keys()].filter((key) => key.startsWith(`${instance}/`));
    const targets = new Map(keys.map((key) => [key, this.rounds.get(key)! + count]));
    const reached = () => keys.every((key) => this.rounds.get(key)! >= targets.get(key)!);
    while (!reached()) {
      if (this.failuresOf(instance).length > FAILURES_SHOWN) return;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private fail(instance: string, what: string): void {
    this.failures.push({ instance, what });
    this.wake();
  }

  private wake(): void {
    this.waiters.splice(0).forEach((resolve) => resolve());
  }

  private async loop(instance: string, baseUrl: string, login: string): Promise<void> {
    while (!this.stopped && this.failuresOf(instance).length <= FAILURES_SHOWN) {
      try {
        await this.round(baseUrl, login);
      } catch (error) {
        this.fail(instance, `${login}: ${(error as Error).message}`);
        continue;
      }
      const key = `${instance}/${login}`;
      this.rounds.set(key, this.rounds.get(key)! + 1);
      this.wake();
    }
  }

  private async call(baseUrl: string, name: string, body: object) {
    const reply = await fetch(`${baseUrl}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await reply.json().catch(() => null)) as Record<string, unknown> | null;
    if (reply.status !== 200)
      throw new Error(`/api/${name} answered ${reply.status} ${JSON.stringify(json)}`);
    return json!;
  }

  /** One member's round: log in, list the talks, read the desk talk, send a message over the socket. */
  private async round(baseUrl: string, login: string): Promise<void> {
    const session = await this.call(baseUrl, 'login', { id: login, password: this.password });
    const ssid = session.session as string;
    const talks = await this.call(baseUrl, 'conversations', { ssid, type: 'staff', page: 0 });
    const desk = (talks.rows as { conversation_id: number }[])[0]!.conversation_id;
    await this.call(baseUrl, 'messages', { ssid, id: desk });
    await this.sendOverSocket(baseUrl, ssid, desk);
  }

  private async sendOverSocket(baseUrl: string, ssid: string, desk: number) {
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/ws/chat`, { origin: baseUrl });
    try {
      await once(socket, 'open');
      socket.send(
        JSON.stringify({
          type: 'session',
          session: ssid,
          endpoint: null,
          conversation_id: desk,
          conversation_type: 'staff',
          last_id: null,
        }),
      );
      const clientId = randomUUID();
      const echo = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no echo in time')), ACK_TIMEOUT_MS);
        socket.on('message', (data) => {
          const frame = JSON.parse(String(data)) as { type: string; client_id?: string; own?: boolean };
          if (frame.type === 'error') reject(new Error(`error frame ${String(data)}`));
          if (frame.type === 'message' && frame.own && frame.client_id === clientId) {
            clearTimeout(timer);
            resolve();
          }
        });
        socket.on('close', (code) => reject(new Error(`socket closed ${code} before the echo`)));
      });
      socket.send(
        JSON.stringify({
          type: 'text',
          conversation_id: desk,
          conversation_type: 'staff',
          message: `アップグレード中の連絡 ${clientId.slice(0, 8)}`,
          image: [],
          reply: null,
          announce: false,
          client_id: clientId,
        }),
      );
      await echo;
      this.acknowledged.push(clientId);
    } finally {
      socket.terminate();
    }
  }
}
