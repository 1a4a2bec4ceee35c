// The baseline for the chat socket: a bare `ws` server with the same topology and no database. A member's
// message goes back to the member and to every staff socket, as a desk message does in Enishi.
import { WebSocketServer, type WebSocket } from 'ws';

const server = new WebSocketServer({
  port: Number(process.env.PORT),
  host: '127.0.0.1',
  perMessageDeflate: false,
});
const staff = new Set<WebSocket>();
let nextId = 1;

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
      const event = { ...frame, type: 'message', id: nextId++ };
      socket.send(JSON.stringify({ ...event, own: true }));
      const json = JSON.stringify({ ...event, own: false });
      for (const peer of staff) if (peer !== socket) peer.send(json);
    });
  });
  socket.on('close', () => staff.delete(socket));
});
server.on('listening', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
