import { ja } from '@enishi/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiCall } from './api-client';
import { clearLocalState } from './local-state';
import { getSession, setSession, setSessionEndedHandler } from './session';

const session = { uid: 7, role: 101, rank: 1, name: '佐藤 健一', session: 'ssid-1', image: null };

function reply(status: number, body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status }));
}

describe('apiCall', () => {
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
    await apiCall('getuser', { uid: 7 });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/getuser');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ uid: 7, ssid: 'ssid-1' });
  });

  it('sends no ssid on public calls', async () => {
    const fetch = reply(200, { status: 'OK' });
    vi.stubGlobal('fetch', fetch);
    await apiCall('entry', { type: 'male' }, { public: true });
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ type: 'male' });
  });

  it('skips the call while offline', async () => {
    online = false;
    const fetch = reply(200, {});
    vi.stubGlobal('fetch', fetch);
    await expect(apiCall('login', {}, { public: true })).rejects.toMatchObject({
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
    const error = await apiCall('news/get').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).offline).toBe(true);
  });

  it("carries the server's Japanese error text and status", async () => {
    vi.stubGlobal('fetch', reply(400, { error: '女性会員は20歳以上の方に限ります' }));
    await expect(apiCall('entry', {}, { public: true })).rejects.toMatchObject({
      message: '女性会員は20歳以上の方に限ります',
      status: 400,
    });
  });

  it('falls back to catalogue text when the error body has none', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 429 })),
    );
    await expect(apiCall('login', {}, { public: true })).rejects.toMatchObject({
      message: ja.errors.rateLimited,
    });
  });

  it('ends the session on a 401 from a login-only call', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    vi.stubGlobal('fetch', reply(401, { error: ja.errors.unauthorized }));
    await expect(apiCall('getuser', { uid: 7 })).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toBeNull();
    expect(ended).toHaveBeenCalledOnce();
  });

  it('keeps the session on a 401 from login itself', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    vi.stubGlobal('fetch', reply(401, { error: ja.errors.loginFailed }));
    await expect(apiCall('login', {}, { public: true })).rejects.toMatchObject({
      message: ja.errors.loginFailed,
    });
    expect(getSession()).not.toBeNull();
    expect(ended).not.toHaveBeenCalled();
  });

  it('rejects a reply that does not fit its schema', async () => {
    vi.stubGlobal('fetch', reply(200, { status: 'NG' }));
    await expect(
      apiCall('entry', {}, { public: true, reply: z.object({ status: z.literal('OK') }) }),
    ).rejects.toMatchObject({ message: ja.errors.internal });
  });
});
