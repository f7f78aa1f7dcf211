import { BlockList, isIP } from 'node:net';

/**
 * The one guard of this server's outbound requests (issue 39, SSRF): the fediverse's fetches and deliveries
 * (modules/federation) and Web Push's deliveries (modules/push, issue 44) never reach an address here.
 */

/**
 * Addresses no fetch may reach: private, loopback, link-local, shared, multicast, reserved. An IPv4 address mapped in
 * IPv6 (`::ffff:a.b.c.d`) is checked against the IPv4 rules (no `::ffff:0:0/96` rule: Node's BlockList checks every
 * IPv4 address against it too, and would refuse them all).
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

/** Whether an address is one no fetch may reach (an IPv4 address mapped in IPv6 is checked as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
