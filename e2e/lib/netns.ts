import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A network namespace of its own with only loopback up (`unshare -n`, then `ip link set lo up`), for tests whose
 * traffic must stay on 127.0.0.1 and must not meet anything else on the machine: WebRTC gathers candidates on
 * every interface, a TURN server relays them. A holder process keeps the namespace alive; the server, coturn and
 * Chromium are started inside it with `nsenter --net`. Playwright drives Chromium over a pipe
 * (--remote-debugging-pipe), which crosses namespaces, so the test itself stays outside. Needs root (as the
 * test runs in CI); `available()` says whether this machine allows it.
 */

export class NetNamespace {
  private constructor(private readonly holder: ChildProcess) {}

  /** Whether namespaces can be made here (root, or a kernel that allows it). */
  static available(): boolean {
    const probe = spawnSync('unshare', ['-n', '--', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
    return probe.status === 0;
  }

  static async create(): Promise<NetNamespace> {
    // unshare execs sh, which execs sleep: the holder's pid stays the process in the namespace.
    const holder = spawn(
      'unshare',
      ['-n', '--', 'sh', '-c', 'ip link set lo up && echo up && exec sleep 86400'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const [chunk] = (await once(holder.stdout!, 'data')) as [Buffer];
    if (!chunk.toString().includes('up')) throw new Error('the network namespace did not come up');
    return new NetNamespace(holder);
  }

  private get netPath(): string {
    return `/proc/${this.holder.pid}/ns/net`;
  }

  /** A process inside the namespace. */
  spawn(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
    return spawn('nsenter', [`--net=${this.netPath}`, '--', command, ...args], options);
  }

  /** Runs to the end inside the namespace; rejects with its output when it fails. */
  async run(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
    const child = this.spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`${command} failed (${code}):\n${output}`);
    return output;
  }

  /** Resolves once `url` answers 200 from inside the namespace (the test cannot reach it from outside). */
  async waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
    const script = `
      const deadline = Date.now() + ${timeoutMs};
      for (;;) {
        try { if ((await fetch(${JSON.stringify(url)})).ok) process.exit(0); } catch {}
        if (Date.now() > deadline) process.exit(1);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }`;
    await this.run(process.execPath, ['--input-type=module', '-e', script]);
  }

  /** An executable that starts `binary` inside the namespace with the arguments it is given (for Playwright). */
  wrapper(binary: string): string {
    const path = join(mkdtempSync(join(tmpdir(), 'enishi-netns-')), 'in-namespace');
    writeFileSync(path, `#!/bin/sh\nexec nsenter --net=${this.netPath} -- ${binary} "$@"\n`);
    chmodSync(path, 0o755);
    return path;
  }

  close(): void {
    this.holder.kill('SIGKILL');
  }
}
