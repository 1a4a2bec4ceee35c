// The baseline for the chat socket: a bare `ws` server with the same topology and no database. A member's
// message goes back to the member and to every staff socket, as a desk message does in Enishi.
// With DATABASE_URL it first stores each message with one durable insert (no order, no checks): what the
// rule "stored before anyone is told" costs by itself on this machine.
import postgres from 'postgres';
import { WebSocketServer, type WebSocket } from 'ws';

const sql = process.env.DATABASE_URL ? postgres(process.env.DATABASE_URL, { max: 10 }) : null;
if (sql) await sql`create table if not exists bare_messages (id bigserial primary key, body text not null)`;

const server = new WebSocketServer({
  port: Number(process.env.PORT),
  host: '127.0.0.1',
  perMessageDeflate: false,
});
const staff = new Set<WebSocket>();
let nextId = 1;

async function store(body: string): Promise<number> {
  if (!sql) return nextId++;
  const [row] = await sql<{ id: string }[]>`insert into bare_messages (body) values (${body}) returning id`;
  return Number(row!.id);
}

server.on('connection', (socket) => {
  socket.once('message', (first) => {
    const hello = JSON.parse(first.toString()) as { session: string };
    if (hello.session.startsWith('staff')) staff.add(socket);
    socket.send(JSON.stringify({ type: 'ready', last_id: 0 }));
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as {
        message: string;
        client_id: string;
        conversation_id: number;
      };
      void store(frame.message).then((id) => {
        const event = { ...frame, type: 'message', id };
        socket.send(JSON.stringify({ ...event, own: true }));
        const json = JSON.stringify({ ...event, own: false });
        for (const peer of staff) if (peer !== socket) peer.send(json);
      });
    });
  });
  socket.on('close', () => staff.delete(socket));
});
server.on('listening', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => void sql?.end().finally(() => process.exit(0))));
