import { ja, jaMember } from '@enishi/contract';
import { isDatabaseUnreachable } from './db/errors.js';

export type ErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'rate-limited'
  /** A service of the club's the server depends on failed or did not answer in time (not the client's fault). */
  | 'bad-gateway'
  | 'gateway-timeout'
  /** The server's own database did not answer: nothing was done, and the same request may be sent again. */
  | 'unavailable';

/**
 * A refusal the user should see, with its Japanese text. Services throw it; the HTTP layer (and later the
 * chat socket) turns it into a reply, so services do not know about status codes.
 */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Fields the reply carries beside `error` (e.g. `reauth: true`, product.md §11.8). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string = ja.errors.badRequest) => new AppError('bad-request', message);
export const unauthorized = (message: string = ja.errors.unauthorized) =>
  new AppError('unauthorized', message);
export const forbidden = (message: string = ja.errors.forbidden) => new AppError('forbidden', message);
/** Also for something that exists but that the caller may not see: the two must look the same. */
export const notFound = (message: string = ja.errors.notFound) => new AppError('not-found', message);
export const rateLimited = (message: string = ja.errors.rateLimited) => new AppError('rate-limited', message);
/** A sensitive change without fresh proof: the client asks for it (/api/reauth) and tries again. */
export const reauthRequired = () =>
  new AppError('forbidden', jaMember.reauth.errors.required, { reauth: true });
export const unavailable = () => new AppError('unavailable', ja.errors.unavailable);

/**
 * The refusal a thrown error stands for: itself when it is one, `unavailable` when the database could not be
 * reached (whichever service was using it: the request did nothing, decision 020), else null (a fault).
 */
export function refusalOf(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  return isDatabaseUnreachable(error) ? unavailable() : null;
}
