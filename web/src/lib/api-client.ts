import { ja } from '@enishi/contract';
import type { ZodType } from 'zod';
import { endSession, getSession } from './session';

/** A failed call, carrying the Japanese text to show. `status` 0 means the server was not reached. */
export class ApiError extends Error {
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }

  get offline(): boolean {
    return this.status === 0;
  }
}

type CallOptions<T> = {
  /** Schema of a 200 reply (from @enishi/contract); a reply that does not fit is an error. */
  reply?: ZodType<T>;
  /** /api/login and /api/entry: no `ssid`, and a 401 does not end the session. */
  public?: boolean;
  /** Leave a 401 to the caller instead of logging out (the route guard handles it itself). */
  keepSessionOn401?: boolean;
  signal?: AbortSignal;
};

const fallbackText: Record<number, string> = {
  400: ja.errors.badRequest,
  401: ja.errors.unauthorized,
  403: ja.errors.forbidden,
  404: ja.errors.notFound,
  413: ja.errors.tooLarge,
  429: ja.errors.rateLimited,
};

function errorText(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string' && body.error) {
    return body.error;
  }
  return undefined;
}

/**
 * The one way to call the server (API.md): `POST /api/<name>` with a JSON body, `ssid` added for calls
 * that need login. Skipped while the browser is offline. Error replies become an ApiError with the server's
 * Japanese text; a 401 on a login-only call ends the session (the app then goes to /enter).
 */
export async function apiCall<T = unknown>(
  name: string,
  body: Record<string, unknown> = {},
  options: CallOptions<T> = {},
): Promise<T> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) throw new ApiError(ja.errors.offline, 0);

  let payload = body;
  if (!options.public) {
    const session = getSession();
    if (!session) {
      if (!options.keepSessionOn401) endSession();
      throw new ApiError(ja.errors.unauthorized, 401);
    }
    payload = { ...body, ssid: session.session };
  }

  let response: Response;
  try {
    response = await fetch(`/api/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(payload),
      credentials: 'same-origin',
      signal: options.signal ?? null,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(ja.errors.offline, 0);
  }

  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401 && !options.public && !options.keepSessionOn401) endSession();
    throw new ApiError(
      errorText(data) ?? fallbackText[response.status] ?? ja.errors.internal,
      response.status,
    );
  }
  if (!options.reply) return data as T;
  const parsed = options.reply.safeParse(data);
  if (!parsed.success) throw new ApiError(ja.errors.internal, response.status);
  return parsed.data;
}

/** The text to show for any failure: the server's words for an ApiError, a generic line otherwise. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : ja.errors.internal;
}
