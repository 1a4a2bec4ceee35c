import net from 'node:net';

/**
 * A TCP relay on 127.0.0.1 in front of a Redis port. A test can hold publishes: from then on, a connection
 * that sends a PUBLISH keeps it, and everything after it, in the relay (a publish that never leaves a dying
 * instance); its other connections (counters, the subscription) go on.
 */
export interface RedisRelay {
  port: number;
  holdPublishes(): void;
  /** Sends what was held and lets everything through again. */
  release(): void;
  close(): Promise<void>;
}

interface Connection {
  upstream: net.Socket;
  held: Buffer[] | null;
  end(): void;
}

export async function startRedisRelay(targetPort: number): Promise<RedisRelay> {
  let holding = false;
  const connections = new Set<Connection>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    const connection: Connection = {
      upstream,
      held: null,
      end: () => {
        connections.delete(connection);
        client.destroy();
        upstream.destroy();
      },
    };
    connections.add(connection);
    client.on('data', (chunk: Buffer) => {
      if (!connection.held && holding && /publish/i.test(chunk.toString('latin1'))) connection.held = [];
      if (connection.held) connection.held.push(chunk);
      else upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('error', connection.end).on('close', connection.end);
    upstream.on('error', connection.end).on('close', connection.end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    holdPublishes: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const connection of connections) {
        for (const chunk of connection.held ?? []) connection.upstream.write(chunk);
        connection.held = null;
      }
    },
    close: async () => {
      for (const connection of [...connections]) connection.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
