// Reads a server process's memory through the V8 inspector, after a full garbage collection, so idle
// memory per connection counts what a connection keeps and not garbage the next collection would free.
// The server runs with --inspect on a port of ours; nothing in the server's own code serves this.
import { once } from 'node:events';
import WebSocket from 'ws';

export interface MemoryFigures {
  rss: number;
  /** V8 heap in use plus memory held outside it for JS objects (buffers and the like). */
  retained: number;
}

export class Inspector {
  private nextId = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const reply = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (reply.id !== undefined) this.waiting.get(reply.id)?.(reply.result);
    });
  }

  /** Connects to the inspector at 127.0.0.1:port (the process may still be starting). */
  static async connect(port: number): Promise<Inspector> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const targets = await fetch(`http://127.0.0.1:${port}/json/list`).then(
        (reply) => reply.json() as Promise<{ webSocketDebuggerUrl: string }[]>,
        () => null,
      );
      const url = targets?.[0]?.webSocketDebuggerUrl;
      if (url) {
        const socket = new WebSocket(url, { perMessageDeflate: false });
        await once(socket, 'open');
        return new Inspector(socket);
      }
      if (Date.now() > deadline) throw new Error(`no inspector on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`inspector: no answer to ${method}`)), 30_000);
      this.waiting.set(id, (result) => {
        clearTimeout(timer);
        const thrown = (result as { exceptionDetails?: unknown } | undefined)?.exceptionDetails;
        if (thrown) reject(new Error(`inspector: ${method} threw ${JSON.stringify(thrown)}`));
        else resolve(result);
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Memory after two full collections (the second catches what finalizers of the first let go). */
  async memory(): Promise<MemoryFigures> {
    await this.call('HeapProfiler.collectGarbage');
    await this.call('HeapProfiler.collectGarbage');
    const result = (await this.call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    })) as { result: { value: string } };
    const usage = JSON.parse(result.result.value) as NodeJS.MemoryUsage;
    return { rss: usage.rss, retained: usage.heapUsed + usage.external };
  }

  /** Starts recording the server's event-loop delay (how long ready work waited for the thread). */
  async startLoopDelay(): Promise<void> {
    await this.call('Runtime.evaluate', {
      expression: `globalThis.__benchLoopDelay =
        process.getBuiltinModule('node:perf_hooks').monitorEventLoopDelay({ resolution: 1 });
        globalThis.__benchLoopDelay.enable();`,
    });
  }

  /** Event-loop delay since startLoopDelay, in ms: p50, p99 and max. */
  async loopDelay(): Promise<{ p50: number; p99: number; max: number }> {
    const result = (await this.call('Runtime.evaluate', {
      expression: `(() => { const h = globalThis.__benchLoopDelay; h.disable();
        return JSON.stringify({ p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 }); })()`,
      returnByValue: true,
    })) as { result: { value: string } };
    return JSON.parse(result.result.value) as { p50: number; p99: number; max: number };
  }

  /** Starts the CPU profiler (BENCH_PROFILE: profile only the load, not start-up and connecting). */
  async startProfile(): Promise<void> {
    await this.call('Profiler.enable');
    await this.call('Profiler.start');
  }

  /** Stops the CPU profiler and returns the profile (a .cpuprofile's JSON). */
  async stopProfile(): Promise<string> {
    const result = (await this.call('Profiler.stop')) as { profile: unknown };
    return JSON.stringify(result.profile);
  }

  close(): void {
    this.socket.close();
  }
}
