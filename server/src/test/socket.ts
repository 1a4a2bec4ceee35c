import type { ServerFrame } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

/** Starts the app on a free port of 127.0.0.1 and returns its http:// origin. */
export async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/** PUBLIC_ORIGIN of the test configuration (PORT unset: http://localhost:8080), sent as Origin by default. */
export const TEST_ORIGIN = 'http://localhost:8080';

/** How long a test waits for a frame before it fails. A bound for failures, never a sleep. */
const FRAME_TIMEOUT_MS = 10_000;

interface Waiter {
  predicate: (frame: ServerFrame) => boolean;
  resolve: (frame: ServerFrame) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * A real chat socket client for tests. Every frame received is kept; `take` returns the first frame not yet
 * taken that matches, waiting for it if needed.
 */
export class TestSocket {
  readonly received: ServerFrame[] = [];
  private readonly pending: ServerFrame[] = [];
  private readonly waiters = new Set<Waiter>();
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as ServerFrame;
      this.received.push(frame);
      for (const waiter of this.waiters) {
        if (waiter.predicate(frame)) {
          this.waiters.delete(waiter);
          clearTimeout(waiter.timer);
          waiter.resolve(frame);
          return;
        }
      }
      this.pending.push(frame);
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        for (const waiter of this.waiters) {
          clearTimeout(waiter.timer);
          waiter.reject(new Error(`socket closed (${code}) while waiting for a frame`));
        }
        this.waiters.clear();
        resolve({ code, reason: reason.toString() });
      });
    });
  }

  /** Connects to `/ws/chat` of the server at `baseUrl`; rejects when the server refuses the upgrade. */
  static async connect(baseUrl: string, origin: string = TEST_ORIGIN): Promise<TestSocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws/chat`;
    const ws = new WebSocket(url, { origin, perMessageDeflate: false });
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_request, response) =>
        reject(new Error(`upgrade refused: ${response.statusCode}`)),
      );
    });
    return socket;
  }

  /** Connects and authenticates; resolves once the server says `ready`. */
  static async session(
    baseUrl: string,
    session: string,
    options: { last_id?: number | null; conversation_id?: number | null; origin?: string } = {},
  ): Promise<TestSocket> {
    const socket = await TestSocket.connect(baseUrl, options.origin);
    socket.send({
      type: 'session',
      session,
      endpoint: null,
      conversation_id: options.conversation_id ?? null,
      conversation_type: null,
      last_id: options.last_id ?? null,
    });
    await socket.take((frame) => frame.type === 'ready');
    return socket;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  take<T extends ServerFrame = ServerFrame>(
    predicate: (frame: ServerFrame) => boolean,
    timeoutMs = FRAME_TIMEOUT_MS,
  ): Promise<T> {
    const index = this.pending.findIndex(predicate);
    if (index >= 0) return Promise.resolve(this.pending.splice(index, 1)[0] as T);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: resolve as (frame: ServerFrame) => void,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Frames received but not taken. */
  untaken(): ServerFrame[] {
    return [...this.pending];
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closed;
  }
}

export async function closeAll(sockets: TestSocket[]): Promise<void> {
  await Promise.all(sockets.map((socket) => socket.close()));
}
