// A small TURN client (RFC 8656 over UDP, long-term credentials) for the coturn test: run inside the sandbox's
// network namespace as `node turn-probe.mjs '<json>'`, it prints what coturn answered as one JSON line.
// Input: { server: "127.0.0.1:3478", username?, password?, peers: ["203.0.113.10", ...], echo?: "ip:port" }
// Output: { unauthenticated, allocate, permissions: { ip: "ok" | code }, relayed? }
// (a code is the STUN error code, e.g. 401 or 403; "timeout" when coturn did not answer).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';

const MAGIC = 0x2112a442;
const ATTR = {
  username: 0x0006,
  integrity: 0x0008,
  error: 0x0009,
  peer: 0x0012,
  data: 0x0013,
  realm: 0x0014,
  nonce: 0x0015,
  transport: 0x0019,
};

function attribute(type, value) {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(type, 0);
  header.writeUInt16BE(value.length, 2);
  const padding = Buffer.alloc((4 - (value.length % 4)) % 4);
  return Buffer.concat([header, value, padding]);
}

function xorPeer(address) {
  const [ip, port = '9'] = address.split(':');
  const value = Buffer.alloc(8);
  value.writeUInt8(0x01, 1);
  value.writeUInt16BE(Number(port) ^ (MAGIC >>> 16), 2);
  const octets = Buffer.from(ip.split('.').map(Number));
  const magic = Buffer.alloc(4);
  magic.writeUInt32BE(MAGIC);
  for (let i = 0; i < 4; i += 1) value[4 + i] = octets[i] ^ magic[i];
  return value;
}

/** One STUN message; with `key`, MESSAGE-INTEGRITY over everything before it. */
function message(type, attributes, key) {
  const header = Buffer.alloc(20);
  header.writeUInt16BE(type, 0);
  header.writeUInt32BE(MAGIC, 4);
  randomBytes(12).copy(header, 8);
  let body = Buffer.concat(attributes);
  if (key) {
    header.writeUInt16BE(body.length + 24, 2);
    const mac = createHmac('sha1', key)
      .update(Buffer.concat([header, body]))
      .digest();
    body = Buffer.concat([body, attribute(ATTR.integrity, mac)]);
  }
  header.writeUInt16BE(body.length, 2);
  return Buffer.concat([header, body]);
}

function parse(buffer) {
  const attrs = new Map();
  let offset = 20;
  while (offset + 4 <= buffer.length) {
    const type = buffer.readUInt16BE(offset);
    const length = buffer.readUInt16BE(offset + 2);
    attrs.set(type, buffer.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length + ((4 - (length % 4)) % 4);
  }
  const error = attrs.get(ATTR.error);
  return {
    type: buffer.readUInt16BE(0),
    id: buffer.subarray(8, 20).toString('hex'),
    error: error ? error[2] * 100 + error[3] : null,
    attrs,
  };
}

const input = JSON.parse(process.argv[2]);
const [host, port] = input.server.split(':');
const socket = createSocket('udp4');
socket.bind(0);
const pending = new Map();
const indications = [];
socket.on('message', (buffer) => {
  const reply = parse(buffer);
  const waiter = pending.get(reply.id);
  if (waiter) waiter(reply);
  else indications.push(reply);
});

/** Sends a request and resolves with coturn's reply, or null after 2 s (bounded: three tries). */
async function ask(packet) {
  const id = packet.subarray(8, 20).toString('hex');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const reply = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), 700);
      pending.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      socket.send(packet, Number(port), host);
    });
    if (reply) return reply;
  }
  return null;
}

const outcome = (reply) => (reply === null ? 'timeout' : reply.error === null ? 'ok' : reply.error);
const transport = attribute(ATTR.transport, Buffer.from([17, 0, 0, 0]));
const result = { permissions: {} };

// Without credentials: coturn must ask for them (401), never allocate.
const first = await ask(message(0x0003, [transport]));
result.unauthenticated = outcome(first);

if (input.username !== undefined && first?.error === 401) {
  const realm = first.attrs.get(ATTR.realm);
  const nonce = first.attrs.get(ATTR.nonce);
  const key = createHash('md5').update(`${input.username}:${realm.toString()}:${input.password}`).digest();
  const signed = (type, extra) =>
    message(
      type,
      [
        ...extra,
        attribute(ATTR.username, Buffer.from(input.username)),
        attribute(ATTR.realm, realm),
        attribute(ATTR.nonce, nonce),
      ],
      key,
    );
  result.allocate = outcome(await ask(signed(0x0003, [transport])));
  if (result.allocate === 'ok') {
    for (const peer of input.peers ?? []) {
      result.permissions[peer] = outcome(await ask(signed(0x0008, [attribute(ATTR.peer, xorPeer(peer))])));
    }
    // Relayed for real: a Send indication to the echo peer comes back as a Data indication.
    if (input.echo) {
      const text = `relay ${randomBytes(4).toString('hex')}`;
      socket.send(
        message(0x0016, [attribute(ATTR.peer, xorPeer(input.echo)), attribute(ATTR.data, Buffer.from(text))]),
        Number(port),
        host,
      );
      const deadline = Date.now() + 3000;
      while (Date.now() < deadline && !indications.some((each) => each.type === 0x0017)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const data = indications.find((each) => each.type === 0x0017)?.attrs.get(ATTR.data);
      result.relayed = data?.toString() === text;
    }
  }
}

console.log(JSON.stringify(result));
socket.close();
