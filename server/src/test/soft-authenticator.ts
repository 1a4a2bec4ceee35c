import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A passkey in software for server tests: an ES256 key, attestation `none`, and assertions signed the way a
 * platform authenticator signs them (WebAuthn §6.1, §6.3.3), with its own signature counter. The browser
 * tests use Chromium's virtual authenticator instead.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16).toString('base64url');
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 0;
  userHandle = '';

  constructor(
    private readonly origin: string,
    private readonly rpID: string = new URL(origin).hostname,
  ) {}

  /** The answer to registration options (`/api/2fa/webauthn/register/options`). */
  register(options: { challenge: string; user?: { id?: string } }) {
    this.userHandle = options.user?.id ?? '';
    const clientDataJSON = this.clientData('webauthn.create', options.challenge);
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    const id = Buffer.from(this.credentialId, 'base64url');
    const attested = Buffer.concat([
      Buffer.alloc(16),
      Buffer.from([id.length >> 8, id.length & 0xff]),
      id,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    // Flags: user present, user verified, attested credential data.
    const authData = Buffer.concat([this.authData(0x45), attested]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON,
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** The answer to request options (`/api/login/second/options`, `/api/login/passkey/options`). */
  assert(options: { challenge: string }, { userVerified = true } = {}) {
    this.counter += 1;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authData = this.authData(userVerified ? 0x05 : 0x01);
    const signed = Buffer.concat([
      authData,
      createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest(),
    ]);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON,
        authenticatorData: authData.toString('base64url'),
        signature: sign('sha256', signed, this.keys.privateKey as KeyObject).toString('base64url'),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false })).toString(
      'base64url',
    );
  }

  private authData(flags: number): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([createHash('sha256').update(this.rpID).digest(), Buffer.from([flags]), counter]);
  }
}
