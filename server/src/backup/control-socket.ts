import { chmod, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import type { DatabaseHandle } from '../db/client.js';
import { MAX_HOLD_MS } from './tail.js';
import { writeBackup, type BackupSummary } from './write-backup.js';

/*
 * The embedded database can only be read by the process that holds it, the running server. It listens
 * on a Unix socket in DATA_DIR (mode 0600: only the server's own user, or root, may connect; never on the
 * network), and `npm run backup` asks it for a backup there. The answer is framed:
 *   'D' | length (4, big-endian) | bytes of the backup
 *   'E' | length | message          the backup failed
 *   'Z' | length | summary (JSON)   the backup is complete
 * Message writes stay held (the backup's tail, tail.ts) until the caller closes the connection, which it
 * does once the file is synced and renamed.
 */

export const CONTROL_SOCKET = 'control.sock';

function frame(type: 'D' | 'E' | 'Z', body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** A Writable that sends what is written as data frames, keeping to the socket's pace. */
function framedOut(socket: Socket): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const gone = () => new Error('the caller of the backup went away');
      if (socket.destroyed) return callback(gone());
      if (socket.write(frame('D', chunk))) return callback();
      const drained = () => {
        socket.off('close', closed);
        callback();
      };
      const closed = () => {
        socket.off('drain', drained);
        callback(gone());
      };
      socket.once('drain', drained).once('close', closed);
    },
  });
}

export interface ControlSocket {
  close(): Promise<void>;
}

/** Listens on DATA_DIR/control.sock for backup requests while the server runs. */
export async function startControlSocket(
  dataDir: string,
  database: Pick<DatabaseHandle, 'db' | 'engine'>,
  onError: (error: unknown) => void,
): Promise<ControlSocket> {
  const file = path.join(dataDir, CONTROL_SOCKET);
  // The server holds the data folder's lock, so a socket file left here is a stopped server's.
  await rm(file, { force: true });
  let running = false;
  const server: Server = createServer((socket) => {
    socket.once('data', (request) => {
      if (request.toString().trim() !== 'backup') {
        socket.end(frame('E', Buffer.from('unknown request')));
        return;
      }
      if (running) {
        socket.end(frame('E', Buffer.from('a backup is already running')));
        return;
      }
      running = true;
      writeBackup(database, path.join(dataDir, 'media'), framedOut(socket)).then(
        (taken) => {
          // Message writes wait until the caller has the file safe and closes the connection (tail.ts);
          // a caller that neither closes nor goes away does not hold them longer than MAX_HOLD_MS.
          let released = false;
          const done = () => {
            if (released) return;
            released = true;
            clearTimeout(timer);
            void taken
              .release()
              .catch(onError)
              .finally(() => (running = false));
          };
          const timer = setTimeout(() => {
            onError(new Error('backup caller kept the connection open; message writes go on'));
            done();
            socket.destroy();
          }, MAX_HOLD_MS);
          socket.once('close', done);
          if (socket.closed) done();
          // Not ended here: the caller closes it (a half-closed socket could close itself early).
          socket.write(frame('Z', Buffer.from(JSON.stringify(taken.summary))));
        },
        (error: unknown) => {
          running = false;
          onError(error);
          socket.end(frame('E', Buffer.from(error instanceof Error ? error.message : String(error))));
        },
      );
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  await chmod(file, 0o600);
  server.unref();
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(file, { force: true });
    },
  };
}

/** The socket of the server running on `dataDir`, or null when none answers there. */
export async function connectControlSocket(dataDir: string): Promise<Socket | null> {
  const socket = connect(path.join(dataDir, CONTROL_SOCKET));
  return new Promise((resolve) => {
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(null));
  });
}

/** Asks the server for a backup; its bytes go to `out`. */
export async function backupThroughServer(socket: Socket, out: Writable): Promise<BackupSummary> {
  socket.write('backup\n');
  let buffered = Buffer.alloc(0);
  // Read by hand: leaving a `for await` loop would destroy the socket, and its closing is what lets the
  // server's message writes go on (once the file is safe, see backup-file.ts).
  const input = (socket as Readable)[Symbol.asyncIterator]();
  for (;;) {
    const { value: chunk, done } = (await input.next()) as { value: Buffer; done?: boolean };
    if (done) break;
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 5 && buffered.length >= 5 + buffered.readUInt32BE(1)) {
      const type = buffered.toString('latin1', 0, 1);
      const body = buffered.subarray(5, 5 + buffered.readUInt32BE(1));
      buffered = buffered.subarray(5 + body.length);
      if (type === 'E') throw new Error(`the server could not take the backup: ${body.toString()}`);
      if (type === 'Z') return JSON.parse(body.toString()) as BackupSummary;
      if (!out.write(body)) await new Promise((resolve) => out.once('drain', resolve));
    }
  }
  throw new Error('the server closed the connection before the backup was complete');
}
