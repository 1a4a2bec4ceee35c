import { ERROR_TEXT_BY_STATUS, ja, type CallBody, type CallName, type CallReply } from '@enishi/contract';
import { ApiError } from './api-error';
import { takeEarlyCall } from './early-calls';
import { endSession, getSession } from './session';

export { ApiError, errorMessage } from './api-error';

type CallOptions = {
  /** /api/login and /api/entry: no `ssid`, and a 401 does not end the session. */
  public?: boolean;
  /** Leave a 401 to the caller instead of logging out (the route guard handles it itself). */
  keepSessionOn401?: boolean;
  signal?: AbortSignal;
};

/**
 * Asks the person to prove themselves again (the re-auth dialog, product.md §11.8); true once they did. Set by
 * the dialog's host; without one, a call that needs fresh proof fails with its 403.
 */
type ProofAsker = () => Promise<boolean>;
let askForProof: ProofAsker | undefined;
export function setProofAsker(asker: ProofAsker | undefined): void {
  askForProof = asker;
}

const flagged = (body: unknown, flag: 'reauth' | 'password_change'): boolean =>
  !!body && typeof body === 'object' && flag in body && (body as Record<string, unknown>)[flag] === true;

function errorText(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string' && body.error) {
    return body.error;
  }
  return undefined;
}

/**
 * The one way to call the server (product.md §11.1): `POST /api/<name>` with a JSON body, `ssid` added for calls
 * that need login. Skipped while the browser is offline. Error replies become an ApiError with the server's
 * Japanese text; a 401 on a login-only call ends the session (the app then goes to /enter). A 200 is read as
 * the call's reply type from the contract, not parsed: the call schemas and zod stay out of the first load
 * (decision 021; the server's tests hold every reply to its schema). A 200 that is not JSON is an error.
 * A sensitive change refused for want of fresh proof asks for it and, once given, is sent once more.
 */
export async function api<N extends CallName>(
  name: N,
  body: CallBody<N>,
  options: CallOptions = {},
): Promise<CallReply<N>> {
  try {
    return await send(name, body, options);
  } catch (error) {
    if (!(error instanceof ApiError) || !error.reauth || !askForProof || !(await askForProof())) throw error;
    return send(name, body, options);
  }
}

async function send<N extends CallName>(
  name: N,
  body: CallBody<N>,
  options: CallOptions,
): Promise<CallReply<N>> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) throw new ApiError(ja.errors.offline, 0);

  let payload: object = body;
  let early: Promise<Response> | undefined;
  if (!options.public) {
    const session = getSession();
    if (!session) {
      if (!options.keepSessionOn401) endSession();
      throw new ApiError(ja.errors.unauthorized, 401);
    }
    // `ssid` first: the server checks the session before it reads a large body (product.md §11.1).
    payload = { ssid: session.session, ...body };
    // The same call, asked for by the page before the app's scripts had arrived (lib/early-calls.ts).
    early = takeEarlyCall(name, body, session.session);
  }

  let response: Response;
  try {
    response = await (early ??
      fetch(`/api/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(payload),
        credentials: 'same-origin',
        signal: options.signal ?? null,
      }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(ja.errors.offline, 0);
  }

  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401 && !options.public && !options.keepSessionOn401) endSession();
    throw new ApiError(
      errorText(data) ?? ERROR_TEXT_BY_STATUS[response.status] ?? ja.errors.internal,
      response.status,
      response.status === 403 && flagged(data, 'reauth'),
      response.status === 403 && flagged(data, 'password_change'),
    );
  }
  if (data === undefined) throw new ApiError(ja.errors.internal, response.status);
  return data as CallReply<N>;
}
