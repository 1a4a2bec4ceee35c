import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { Agent, type AgentOptions, type RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import { isPublicAddress } from './public-address.js';
import { listedAddresses } from './push-endpoint.js';

/*
 * Where a push connects (product.md §16.2): an endpoint's host passed PUSH_ALLOWED_HOSTS, but a name under an
 * allowed domain may still resolve to this machine or the club's network. So every address the name resolves
 * to must be public (or named in PUSH_ALLOWED_HOSTS with its port: a test's own receiver), and the socket is
 * opened to the address so checked: the one resolution is the check's and the connection's, and no second
 * one can change where it goes.
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name; the system's resolver unless a test gives its own. */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/** A push that was not sent because its host's address is not one pushes may go to. */
export class PushAddressRefused extends Error {
  constructor(host: string, address: string) {
    super(`push refused: ${host} resolves to ${address}, not a public address`);
    this.name = 'PushAddressRefused';
  }
}

/** The https agent every push goes out through. */
export class PushAgent extends Agent {
  private readonly resolve: Resolve;
  private readonly listed: ReadonlySet<string>;

  constructor(options: { allowedHosts: readonly string[]; resolve?: Resolve; ca?: AgentOptions['ca'] }) {
    super({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) });
    this.resolve = options.resolve ?? systemResolve;
    this.listed = listedAddresses(options.allowedHosts);
  }

  /** Whether a push may connect to `address` on `port`. */
  permits(address: string, port: number): boolean {
    return isPublicAddress(address) || this.listed.has(`${address}:${port}`);
  }

  // Called by the agent for each new socket; `callback` is how a refusal reaches the request.
  override createConnection(
    options: RequestOptions,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const host = options.host ?? 'localhost';
    const port = Number(options.port ?? 443);
    // An address as host is never looked up: it is checked as it is.
    if (isIP(host) && !this.permits(host, port)) {
      const refuse = callback as ((error: Error) => void) | undefined;
      refuse?.(new PushAddressRefused(host, host));
      return undefined;
    }
    return super.createConnection({ ...options, lookup: this.checkedLookup(port) }, callback);
  }

  private checkedLookup(port: number): LookupFunction {
    return (hostname, options, callback) => {
      this.resolve(hostname).then(
        (addresses) => {
          const refused = addresses.find(({ address }) => !this.permits(address, port));
          if (refused || addresses.length === 0) {
            callback(new PushAddressRefused(hostname, refused?.address ?? 'nothing'), '', 0);
          } else if (options.all) {
            (callback as (error: null, all: ResolvedAddress[]) => void)(null, addresses);
          } else {
            callback(null, addresses[0]!.address, addresses[0]!.family);
          }
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
  }
}
