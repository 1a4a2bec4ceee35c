import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import websocket from '@fastify/websocket';
import { ja, SOCKET_AUTH_MS, SOCKET_MAX_PAYLOAD } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { systemClock, type Clock } from '../lib/clock.js';
import { metrics } from '../lib/metrics.js';
import type { SocketServices } from './socket-services.js';
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
/** A socket refused for its origin is logged at most once a minute (a misconfigured address retries every 5 s). */
const REFUSAL_LOG_MS = 60_000;

/**
 * Registers `GET /ws/chat`. The Origin must be PUBLIC_ORIGIN (a page elsewhere cannot open a socket with
 * a member's session). On close (SIGTERM), frames in flight are committed first, then every socket is
 * closed with 1001 so clients reconnect to another instance or after the restart.
 */
export async function installChatSocket(
  app: FastifyInstance,
  services: SocketServices,
  options: ChatSocketOptions,
): Promise<ChatGateway> {
  const gateway = new ChatGateway(
    services,
    app.log,
    options.authTimeoutMs ?? SOCKET_AUTH_MS,
    options.clock ?? systemClock,
    options.sweepMs ?? SESSION_SWEEP_MS,
  );
  const refusals = oncePer(REFUSAL_LOG_MS, options.clock ?? systemClock);
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
          if (refusals.due()) {
            // The app opened at another address (the listening one, the bare domain): name both.
            request.log.warn(
              { origin: request.headers.origin ?? null, expected: options.publicOrigin },
              'chat socket refused: its origin is not PUBLIC_ORIGIN; open the app at PUBLIC_ORIGIN',
            );
          }
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
      new ChatConnection(socket, gateway, tcp);
    },
  );
  return gateway;
}

/** `due()` is true at most once per `ms`: a log line repeated by retries, told once a while. */
function oncePer(ms: number, clock: Clock): { due: () => boolean } {
  let last = -Infinity;
  return {
    due: () => {
      const now = clock();
      if (now - last < ms) return false;
      last = now;
      return true;
    },
  };
}
