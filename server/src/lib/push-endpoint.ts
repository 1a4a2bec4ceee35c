import { isIPv4 } from 'node:net';
import { parse as legacyParse } from 'node:url';

/*
 * Push endpoints (product.md §16.2): the server posts to an address a browser gave, so the address must be
 * what it seems. web-push posts with Node's legacy `url.parse`, which reads some addresses differently from
 * the WHATWG parser (`https://127.0.0.2%2e.notify.windows.com/x` is 127.0.0.2 to one and a subdomain of
 * notify.windows.com to the other). So an endpoint is accepted only in a plain form that every parser reads
 * alike: `https://` + a host of letters, digits, dots and hyphens (no percent-encoding, no user info) +
 * no port or 443 + a path of visible ASCII, and then both parsers must agree on the host and port. The very
 * string checked is the one stored and posted to.
 */

const PLAIN = /^https:\/\/([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)(?::(\d{1,5}))?(\/[\x21-\x7e]*)?$/;

/** Whether `host` (with `port` when the endpoint names one) is one of the allowed entries. */
export function hostAllowed(host: string, allowed: readonly string[], port: string | null = null): boolean {
  const name = host.toLowerCase();
  return allowed.some((entry) => {
    // An entry may name a port (a test's own receiver); otherwise only the https default is allowed.
    const [entryHost = '', entryPort = null] = entry.split(':');
    if ((port ?? '443') !== (entryPort ?? '443')) return false;
    return entryHost.startsWith('*.')
      ? name.endsWith(entryHost.slice(1)) && name.length > entryHost.length - 1
      : name === entryHost;
  });
}

/**
 * The addresses PUSH_ALLOWED_HOSTS names as such, with their port (`127.0.0.1:8443`, a test's own receiver):
 * the only ones a push may connect to that are not public (push-connection.ts). A name is never one of them.
 */
export function listedAddresses(allowed: readonly string[]): Set<string> {
  const listed = new Set<string>();
  for (const entry of allowed) {
    const [host = '', port = '443'] = entry.split(':');
    if (isIPv4(host)) listed.add(`${host}:${port}`);
  }
  return listed;
}

/** The endpoint, when it may be posted to: a plain https URL on an allowed host, read alike by every parser. */
export function checkedPushEndpoint(endpoint: string, allowed: readonly string[]): string | null {
  const plain = PLAIN.exec(endpoint);
  if (!plain) return null;
  const [, host = '', port = null] = plain;
  const explicitPort = port === '443' ? null : port;
  let whatwg: URL;
  try {
    whatwg = new URL(endpoint);
  } catch {
    return null;
  }
  // What web-push will read (it calls url.parse on the endpoint as given).
  const legacy = legacyParse(endpoint);
  const name = host.toLowerCase();
  if (
    legacy.protocol !== 'https:' ||
    legacy.auth !== null ||
    legacy.hostname !== name ||
    (legacy.port ?? '443') !== (port ?? '443') ||
    whatwg.hostname !== name ||
    whatwg.username !== '' ||
    whatwg.password !== '' ||
    (whatwg.port || '443') !== (port ?? '443')
  ) {
    return null;
  }
  return hostAllowed(name, allowed, explicitPort) ? endpoint : null;
}
