import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device tokens (OWASP "device cookies", product.md §11.4): `<nonce>.<mac>`, the MAC an HMAC-SHA256 of the
 * account (login ID in lower case) and the nonce under the server's key. Nothing is stored per token; a token
 * is good for the account it was issued to, and its nonce names the device's own throttle.
 */
export class DeviceTokens {
  constructor(private readonly key: () => Promise<Buffer>) {}

  async issue(account: string): Promise<string> {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${await this.mac(account, nonce)}`;
  }

  /** The token's nonce when it was issued to `account`, otherwise null. */
  async check(token: string | undefined, account: string): Promise<string | null> {
    if (!token) return null;
    const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return null;
    const [, nonce, mac] = match as unknown as [string, string, string];
    const expected = Buffer.from(await this.mac(account, nonce), 'base64url');
    const given = Buffer.from(mac, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : null;
  }

  private async mac(account: string, nonce: string): Promise<string> {
    return createHmac('sha256', await this.key())
      .update(`device\n${account.toLowerCase()}\n${nonce}`)
      .digest('base64url');
  }
}
