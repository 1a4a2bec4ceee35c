import { ja } from '@enishi/contract';

/*
 * A failed call and the words to show for it, apart from the api client itself: a public page (login, the
 * application form) shows these without loading the call schemas until it sends something.
 */

/** A failed call, carrying the Japanese text to show. `status` 0 means the server was not reached. */
export class ApiError extends Error {
  readonly status: number;
  /** A sensitive change the server refused for want of fresh proof (403 `reauth: true`, product.md §11.8). */
  readonly reauth: boolean;
  /** A login with an imported member's first password (403 `password_change: true`, product.md §11.4). */
  readonly passwordChange: boolean;

  constructor(message: string, status: number, reauth = false, passwordChange = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.reauth = reauth;
    this.passwordChange = passwordChange;
  }

  get offline(): boolean {
    return this.status === 0;
  }
}

/** The text to show for any failure: the server's words for an ApiError, a generic line otherwise. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : ja.errors.internal;
}
