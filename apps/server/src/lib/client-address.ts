import { BlockList, isIPv6, isIP } from 'node:net';

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

/** The named ranges TRUST_PROXY takes besides addresses and CIDR ranges (as proxy-addr, which Fastify uses, names them). */
export const PROXY_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Whether an entry of TRUST_PROXY is an address (`10.0.0.5`), a CIDR range (`10.0.0.0/8`, `fd00::/8`) or
 * a named range; answers the ranges it stands for, or undefined when it is none of them.
 */
export function proxyRanges(entry: string): string[] | undefined {
  if (PROXY_RANGES[entry]) return PROXY_RANGES[entry];
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return undefined;
  if (prefix === undefined) return [`${address}/${family === 4 ? 32 : 128}`];
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return undefined;
  return [entry];
}

/**
 * A test of a peer's address against TRUST_PROXY's entries (already checked by the config). An IPv4
 * address mapped into IPv6, as a dual-stack socket reports it, is tested as that IPv4 address.
 */
export function proxyMatcher(entries: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const range of entries.flatMap((entry) => proxyRanges(entry) ?? [])) {
    const [address, prefix] = range.split('/') as [string, string];
    list.addSubnet(address, Number(prefix), isIP(address) === 4 ? 'ipv4' : 'ipv6');
  }
  return (address) => {
    if (!address) return false;
    const plain = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}
