import type { AuthenticatorTransport } from '@simplewebauthn/server';
import type { WebauthnResponse } from '@enishi/contract';

/* WebAuthn odds and ends for the second factor (product.md §11.7): where passkeys belong, what they answer. */

/** Where passkeys belong: the relying party is the host of PUBLIC_ORIGIN, and responses must come from it. */
export interface PasskeySite {
  origin: string;
  rpID: string;
  rpName: string;
}

export const passkeySite = (publicOrigin: string, rpName: string): PasskeySite => ({
  origin: publicOrigin,
  rpID: new URL(publicOrigin).hostname,
  rpName,
});

/** What a response must answer: our challenge, from our origin, for our relying party. */
export const expectedBy = (site: PasskeySite, challenge: string) => ({
  expectedChallenge: challenge,
  expectedOrigin: site.origin,
  expectedRPID: site.rpID,
});

/** The challenge a WebAuthn response answers, read from its client data; null if it has none. */
export function challengeOf(response: WebauthnResponse): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString());
    const challenge = (data as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge.length <= 128 ? challenge : null;
  } catch {
    return null;
  }
}

/** A stored passkey's transports (the `transports` column, comma-separated). */
export function transportsOf(row: { transports: string }): AuthenticatorTransport[] {
  return row.transports ? (row.transports.split(',') as AuthenticatorTransport[]) : [];
}
