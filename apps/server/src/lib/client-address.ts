import { isIPv6, isIP } from 'node:net';

/**
 * The key a per-address limit counts a client under. An IPv4 address counts alone; an IPv6 client
 * counts by its /64, since one subscriber usually holds a whole /64 and can change the lower 64 bits
 * at will. An IPv4 address mapped into IPv6 (`::ffff:1.2.3.4`, as a dual-stack socket reports it)
 * counts as that IPv4 address.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return isIP(address) ? address : 'unknown';
  const groups = expandIPv6(address.split('%')[0]!);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, lower-case, without leading zeros. */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  // An embedded IPv4 tail (::1.2.3.4) becomes two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => parseInt(group, 16).toString(16));
}
