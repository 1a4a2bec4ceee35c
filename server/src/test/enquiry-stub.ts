import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for the club's external enquiry service (product.md §19.11), following the specification's
 * calls: POST /api/entrylist {ssid, token, site, type, page, perPage, query}, POST /api/entry {ssid, token,
 * site, userId}, POST /member/getFavorite {userId} (answers a JSON string, as the spec says) and
 * /member/updateFavorite {userId, data: {id, flg}}. `mode` makes it fail: slow, 500, or not JSON.
 */

export interface StubEntry {
  id: number;
  name: string;
  age: number;
  height: number;
  rank: number;
  photo: string;
  /** JSON lists, as strings (decoded by the server on receipt). */
  area_id: string;
  lang: string;
  type_id: string;
}

export type StubMode = 'ok' | 'slow' | 'error' | 'garbage';

export class EnquiryStub {
  readonly calls: { path: string; body: Record<string, unknown> }[] = [];
  mode: StubMode = 'ok';
  readonly favorites = new Map<number, number>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly entries: StubEntry[],
  ) {}

  static async start(entries: (origin: string) => StubEntry[]): Promise<EnquiryStub> {
    const holder: { stub?: EnquiryStub } = {};
    const server = createServer((request, response) => {
      const stub = holder.stub!;
      void stub.handle(request).then(
        ([status, body]) => {
          if (status === 0) return; // slow: never answered (the server gives up)
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(typeof body === 'string' && stub.mode === 'garbage' ? body : JSON.stringify(body));
        },
        () => response.destroy(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    holder.stub = new EnquiryStub(server, origin, entries(origin));
    return holder.stub;
  }

  private async handle(request: IncomingMessage): Promise<[number, unknown]> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    const body = JSON.parse(text || '{}') as Record<string, unknown>;
    const path = request.url ?? '';
    this.calls.push({ path, body });
    if (this.mode === 'slow') return [0, null];
    if (this.mode === 'error') return [503, { error: 'maintenance' }];
    if (this.mode === 'garbage') return [200, '<html>not json'];
    switch (path) {
      case '/api/entrylist': {
        const page = Number(body.page);
        const perPage = Number(body.perPage);
        const rows = this.entries.slice(page * perPage, (page + 1) * perPage);
        return [
          200,
          { rows, isEnd: (page + 1) * perPage >= this.entries.length, total: this.entries.length },
        ];
      }
      case '/api/entry': {
        const entry = this.entries.find((item) => item.id === body.userId);
        return entry ? [200, { rows: [entry] }] : [404, { error: 'no such entry' }];
      }
      case '/member/getFavorite':
        return [200, JSON.stringify([...this.favorites].map(([id, flg]) => ({ id, flg })))];
      case '/member/updateFavorite': {
        const data = body.data as { id: number; flg: number };
        this.favorites.set(data.id, data.flg);
        return [200, { status: 'OK' }];
      }
      default:
        return [404, { error: 'unknown call' }];
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
