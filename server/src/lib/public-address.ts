import { BlockList, isIPv4, isIPv6 } from 'node:net';

/*
 * Which addresses are somewhere on the public internet (product.md §16.2): a push goes only there, never to
 * this machine, the club's own network or a range set aside for other uses.
 */

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relays
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
// Not the IPv4-mapped or -compatible ranges: BlockList would match every IPv4 address against them.
// isPublicAddress refuses those itself.
for (const [network, prefix] of [
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001::', 23], // protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The 8 groups of an IPv6 address, or null when it is not one. */
function groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.toLowerCase();
  // A dotted IPv4 tail (::ffff:127.0.0.1) becomes its two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const part = (side: string) => (side === '' ? [] : side.split(':').map((group) => parseInt(group, 16)));
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * Whether `address` (IPv4 or IPv6, as a resolver returns it) is a public unicast address. IPv4-mapped and
 * -compatible IPv6 addresses never are (a resolver has no reason to give one); a NAT64 address is when the
 * IPv4 address inside it is.
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !NOT_PUBLIC.check(address, 'ipv4');
  const g = groups(address);
  if (!g) return false;
  if (g.slice(0, 5).every((group) => group === 0) && (g[5] === 0 || g[5] === 0xffff)) return false;
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) {
    const [high = 0, low = 0] = g.slice(6);
    return isPublicAddress([high >> 8, high & 0xff, low >> 8, low & 0xff].join('.'));
  }
  return !NOT_PUBLIC.check(address, 'ipv6');
}
