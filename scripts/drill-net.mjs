// The install drill's network checks inside the container (scripts/drill-inside.mjs): the site through nginx
// over https with its own certificate, an instance's /readyz, coturn's STUN answer.
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

import { tailOf } from './drill-units.mjs';

/** The server's name in the drill: the certificate's, sent as SNI and Host to nginx on 127.0.0.1. */
export const NAME = 'enishi.drill.test';

// ── HTTP ────────────────────────────────────────────────────────────────────────────────────────────────────

export function request({ port, method = 'GET', urlPath, body, tls = true }) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const lib = tls ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      {
        host: '127.0.0.1',
        port: port ?? (tls ? 443 : 80),
        method,
        path: urlPath,
        servername: tls ? NAME : undefined,
        ca: tls ? fs.readFileSync('/etc/enishi/tls/fullchain.pem') : undefined,
        headers: {
          host: NAME,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
        timeout: 15_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: no answer in 15 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** POST /api/<name> through nginx over https, trusting the site's certificate; the JSON reply or an error. */
export async function api(name, body, { port, tls = true } = {}) {
  const reply = await request({ port, tls, method: 'POST', urlPath: `/api/${name}`, body });
  if (reply.status !== 200)
    throw new Error(`/api/${name} answered ${reply.status}: ${reply.text.slice(0, 200)}`);
  return JSON.parse(reply.text);
}

/** Waits (at most `seconds`) for GET /readyz on an instance's own port to answer 200. */
export async function waitReady(port, child, limitS = 90) {
  const until = Date.now() + limitS * 1000;
  let last = '';
  while (Date.now() < until) {
    if (child && child.exitCode !== null)
      throw new Error(`it exited ${child.exitCode}:\n${tailOf(child.logFile)}`);
    try {
      const r = await request({ port, tls: false, urlPath: '/readyz' });
      if (r.status === 200) return r.text;
      last = `${r.status} ${r.text}`;
    } catch (error) {
      last = error.message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `127.0.0.1:${port}/readyz not 200 after ${limitS} s (last: ${last})\n${child ? tailOf(child.logFile) : ''}`,
  );
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A STUN Binding request (RFC 5389) to coturn on 127.0.0.1: it answers a Binding success within 5 s. */
export async function stunBinding(port) {
  const socket = dgram.createSocket('udp4');
  const request = Buffer.alloc(20);
  request.writeUInt16BE(0x0001, 0);
  request.writeUInt32BE(0x2112a442, 4);
  crypto.randomFillSync(request, 8, 12);
  try {
    const answer = once(socket, 'message');
    socket.send(request, port, '127.0.0.1');
    const timeout = new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`coturn: no STUN answer on 127.0.0.1:${port} in 5 s`)), 5000).unref(),
    );
    const [message] = await Promise.race([answer, timeout]);
    if (message.readUInt16BE(0) !== 0x0101 || !message.subarray(8, 20).equals(request.subarray(8, 20)))
      throw new Error(`coturn answered STUN with type 0x${message.readUInt16BE(0).toString(16)}`);
  } finally {
    socket.close();
  }
}

/** Whether something answers on a loopback TCP port (a service already started by its package's scripts). */
export function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => resolve(socket.end() && true));
    socket.on('error', () => resolve(false));
  });
}
