import { ja } from '@enishi/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './api-client';
import { clearLocalState } from './local-state';
import { getSession, setSession, setSessionEndedHandler } from './session';

const entry = {
  type: 'male',
  name: '佐藤 健一',
  age: '30',
  email: 'k@example.jp',
  tel: '090-1234-5678',
} as const;
const credentials = { id: 'sato', password: 'secret-pass1' };
const session = { uid: 7, role: 101, rank: 1, name: '佐藤 健一', session: 'ssid-1', image: null };

function reply(status: number, body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status }));
}

describe('api', () => {
  let online = true;
  beforeEach(() => {
    online = true;
    vi.stubGlobal('navigator', {
      get onLine() {
        return online;
      },
    });
    setSession(session);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setSessionEndedHandler(undefined);
    clearLocalState();
  });

  it('posts JSON to /api/<name> with the session as ssid', async () => {
    const fetch = reply(200, { rows: [] });
    vi.stubGlobal('fetch', fetch);
    await api('getuser', { uid: 7 });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/getuser');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ uid: 7, ssid: 'ssid-1' });
    // First, so the server can check the session before it reads a large body.
    expect(String(init.body).startsWith('{"ssid":')).toBe(true);
  });

  it('sends no ssid on public calls', async () => {
    const fetch = reply(200, { status: 'OK' });
    vi.stubGlobal('fetch', fetch);
    await api('entry', entry, { public: true });
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual(entry);
  });

  it('skips the call while offline', async () => {
    online = false;
    const fetch = reply(200, {});
    vi.stubGlobal('fetch', fetch);
    await expect(api('login', credentials, { public: true })).rejects.toMatchObject({
      message: ja.errors.offline,
      status: 0,
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('turns a network failure into the offline message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await api('news/get', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).offline).toBe(true);
  });

  it("carries the server's Japanese error text and status", async () => {
    vi.stubGlobal('fetch', reply(400, { error: '女性会員は20歳以上の方に限ります' }));
    await expect(api('entry', entry, { public: true })).rejects.toMatchObject({
      message: '女性会員は20歳以上の方に限ります',
      status: 400,
    });
  });

  it('falls back to catalogue text when the error body has none', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 429 })),
    );
    await expect(api('login', credentials, { public: true })).rejects.toMatchObject({
      message: ja.errors.rateLimited,
    });
  });

  it('ends the session on a 401 from a login-only call', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    vi.stubGlobal('fetch', reply(401, { error: ja.errors.unauthorized }));
    await expect(api('getuser', { uid: 7 })).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toBeNull();
    expect(ended).toHaveBeenCalledOnce();
  });

  it('keeps the session on a 401 from login itself', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    vi.stubGlobal('fetch', reply(401, { error: ja.errors.loginFailed }));
    await expect(api('login', credentials, { public: true })).rejects.toMatchObject({
      message: ja.errors.loginFailed,
    });
    expect(getSession()).not.toBeNull();
    expect(ended).not.toHaveBeenCalled();
  });

  it('rejects a 200 that is not JSON', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>proxy page</html>', { status: 200 })),
    );
    await expect(api('entry', entry, { public: true })).rejects.toMatchObject({
      message: ja.errors.internal,
    });
  });
});
