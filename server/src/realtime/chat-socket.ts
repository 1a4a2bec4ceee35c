import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import websocket from '@fastify/websocket';
import { ja, SOCKET_AUTH_MS, SOCKET_MAX_PAYLOAD } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { systemClock, type Clock } from '../lib/clock.js';
import { metrics } from '../lib/metrics.js';
import type { Services } from '../services/container.js';
import { ChatConnection } from './chat-connection.js';
import { ChatGateway } from './chat-gateway.js';

export interface ChatSocketOptions {
  publicOrigin: string;
  /** The session frame must arrive within this (product.md §15.2: 5 s); tests shorten it. */
  authTimeoutMs?: number;
  /** Tests move time with their own clock. */
  clock?: Clock | undefined;
  /** How often sockets of expired sessions are looked for (30 s: closed within a minute); tests shorten it. */
  sweepMs?: number | undefined;
}

const SESSION_SWEEP_MS = 30_000;

const CLOSE_GOING_AWAY = 1001;

/**
 * Registers `GET /ws/chat`. The Origin must be PUBLIC_ORIGIN (a page elsewhere cannot open a socket with
 * a member's session). On close (SIGTERM), frames in flight are committed first, then every socket is
 * closed with 1001 so clients reconnect to another instance or after the restart.
 */
export async function installChatSocket(
  app: FastifyInstance,
  services: Services,
  options: ChatSocketOptions,
): Promise<ChatGateway> {
  const gateway = new ChatGateway(
    services,
    app.log,
    options.authTimeoutMs ?? SOCKET_AUTH_MS,
    options.clock ?? systemClock,
    options.sweepMs ?? SESSION_SWEEP_MS,
  );
  const onSocketError = function (this: WebSocket, error: Error) {
    app.log.info({ err: error }, 'chat socket error');
    this.terminate();
  };

  await app.register(websocket, {
    options: { maxPayload: SOCKET_MAX_PAYLOAD, perMessageDeflate: false, clientTracking: true },
    errorHandler: (error, socket) => {
      app.log.info({ err: error }, 'chat socket error');
      socket.terminate();
    },
    preClose: async function (this: FastifyInstance) {
      await gateway.drain();
      for (const client of this.websocketServer.clients) client.close(CLOSE_GOING_AWAY);
      await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
    },
  });

  app.get(
    '/ws/chat',
    {
      websocket: true,
      preValidation: async (request, reply) => {
        // A plain GET (no upgrade) gets the route's 404.
        if (request.ws && request.headers.origin !== options.publicOrigin) {
          request.log.info({ origin: request.headers.origin }, 'chat socket refused: origin');
          return reply.code(403).send({ error: ja.errors.forbidden });
        }
      },
    },
    (socket, request) => {
      // Keep an idle connection small (the benchmark aims at 12 KB each): the upgrade's HTTP response stays
      // attached to the TCP socket, and the plugin's error listener holds the Fastify request and reply;
      // both would live as long as the connection. Detach the one, replace the other with a shared one.
      const tcp = request.raw.socket as Socket & { _httpMessage?: ServerResponse | null };
      tcp._httpMessage?.detachSocket(tcp);
      socket.removeAllListeners('error');
      socket.on('error', onSocketError);
      if (gateway.draining) return socket.close(CLOSE_GOING_AWAY);
      metrics.socketOpened();
      socket.once('close', metrics.socketClosed);
      new ChatConnection(socket, gateway);
    },
  );
  return gateway;
}
