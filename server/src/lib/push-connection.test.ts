import { get } from 'node:https';
import { createServer, type Server } from 'node:net';
import webPush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushQueue } from '../services/push-queue.js';
import { PushAddressRefused, PushAgent, type ResolvedAddress } from './push-connection.js';
import { isPublicAddress } from './public-address.js';

/*
 * Where pushes connect (product.md §16.2). Two listeners on one port, 127.0.0.1 (named in the allowed
 * hosts: the stand-in for a push service's public address) and 127.0.0.2 (an address a push must never
 * reach), count the connections each is given. The tests give the resolver: what a name under an allowed
 * push domain resolves to is what the test says.
 */

class Listener {
  connections = 0;
  constructor(readonly server: Server) {
    server.on('connection', (socket) => {
      this.connections += 1;
      socket.destroy();
    });
  }
  static async on(host: string, port = 0): Promise<Listener> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    return new Listener(server);
  }
  get port(): number {
    return (this.server.address() as { port: number }).port;
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('pushes connect only to an address that was checked', () => {
  let listed: Listener;
  let forbidden: Listener;
  let port: number;
  const keys = webPush.generateVAPIDKeys();
  const subscriber = webPush.generateVAPIDKeys(); // any P-256 public key will do as the browser's

  beforeAll(async () => {
    // The same port on both addresses: only the address tells them apart.
    for (let tries = 0; tries < 10 && !listed; tries += 1) {
      forbidden = await Listener.on('127.0.0.2');
      try {
        listed = await Listener.on('127.0.0.1', forbidden.port);
      } catch {
        await forbidden.close();
      }
    }
    port = forbidden.port;
  });
  afterAll(async () => {
    await listed.close();
    await forbidden.close();
  });

  /** Sends one push to a name under the allowed `*.push.example` through a queue with this resolver. */
  async function push(resolve: (host: string) => Promise<ResolvedAddress[]>, maxAttempts = 1) {
    const errors: unknown[] = [];
    const queue = new PushQueue({
      keys: async () => keys,
      subject: 'mailto:ops@enishi.invalid',
      allowedHosts: [`*.push.example:${port}`, `127.0.0.1:${port}`],
      onGone: async () => {},
      onError: (error) => errors.push(error),
      resolve,
      maxAttempts,
      backoffMs: 1,
    });
    queue.enqueue({
      subscription: {
        endpoint: `https://fcm.push.example:${port}/send/x`,
        userId: 1,
        p256dh: subscriber.publicKey,
        auth: 'AAAAAAAAAAAAAAAAAAAAAA',
      },
      payload: '{}',
      delivery: { TTL: 60, urgency: 'normal' },
    });
    await queue.idle();
    return errors;
  }

  it('refuses a name under an allowed domain that resolves to 127.0.0.2, and connects nowhere', async () => {
    const errors = await push(async () => [{ address: '127.0.0.2', family: 4 }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(PushAddressRefused);
    expect(forbidden.connections).toBe(0);
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const before = listed.connections;
    const errors = await push(async () => [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(errors[0]).toBeInstanceOf(PushAddressRefused);
    expect(listed.connections).toBe(before);
  });

  it('connects to the address it checked, though the name resolves elsewhere the next time', async () => {
    const before = listed.connections;
    let resolutions = 0;
    // A rebinding name: the checked answer first, then this machine's other address.
    const rebinding = async (): Promise<ResolvedAddress[]> => {
      resolutions += 1;
      return [{ address: resolutions === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    };
    // The listener hangs up, so the queue tries again: the second connection resolves again and is refused.
    const errors = await push(rebinding, 2);
    expect(listed.connections).toBe(before + 1);
    expect(forbidden.connections).toBe(0);
    expect(resolutions).toBe(2);
    expect(errors[0]).toBeInstanceOf(PushAddressRefused);
  });

  it('refuses an address given as the host without looking it up', async () => {
    const before = forbidden.connections;
    const agent = new PushAgent({ allowedHosts: [`127.0.0.1:${port}`] });
    const error = await new Promise<Error>((resolve) =>
      get({ host: '127.0.0.2', port, agent, path: '/' }, () => resolve(new Error('answered'))).on(
        'error',
        resolve,
      ),
    );
    expect(error).toBeInstanceOf(PushAddressRefused);
    expect(forbidden.connections).toBe(before);
    agent.destroy();
  });
});

describe('public addresses', () => {
  it.each([
    '127.0.0.2',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '::',
    '::1',
    '::ffff:127.0.0.2',
    '::ffff:7f00:2',
    '::ffff:8.8.8.8',
    '::127.0.0.2',
    '64:ff9b::10.0.0.1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '2001:db8::1',
    '2002:7f00:1::1',
    'not an address',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '142.250.196.106',
    '17.253.144.10',
    '100.63.255.255',
    '100.128.0.1',
    '172.32.0.1',
    '2a00:1450:4001:82b::200a',
    '2607:f8b0:4004:c07::5f',
    '64:ff9b::8.8.8.8',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
