import Bowser from 'bowser';
import { isIPv4 } from 'node:net';

/**
 * How a session is shown in the settings: the device described from its user agent (bowser, a maintained
 * parser; nothing leaves the server), and the place as the network it signed in from, coarse. There is
 * no geographic database here and no outside lookup: an IPv4 address is shown as its /24, an IPv6 one as
 * its /48, a loopback or private address as such.
 */
export function describeDevice(userAgent: string): { device: string; deviceType: string } {
  if (!userAgent.trim()) return { device: 'An unknown device', deviceType: 'unknown' };
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const system = parsed.os.name;
  const model = parsed.platform.model;
  const deviceType = parsed.platform.type ?? 'unknown';
  const on = [model, system].filter(Boolean).join(', ');
  if (browser && on) return { device: `${browser} on ${on}`, deviceType };
  if (browser || on) return { device: browser || on, deviceType };
  // Not a browser (an app, a script): the product its user agent starts with, bounded.
  const product = /^[\w.-]{1,40}/.exec(userAgent.trim())?.[0];
  return { device: product ?? 'An unknown device', deviceType };
}

/** The stored address (an addressKey: IPv4, or an IPv6 /64) as a coarse place. */
export function describePlace(address: string): string {
  if (isIPv4(address)) {
    const [a, b, c] = address.split('.').map(Number) as [number, number, number];
    if (a === 127) return 'This computer';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'A private network';
    return `Network ${a}.${b}.${c}.0/24`;
  }
  const v6 = /^([0-9a-f]{1,4}):([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(address);
  if (v6) {
    if (address.startsWith('0:0:0:0::')) return 'This computer';
    if (/^f[cd]/.test(v6[1]!)) return 'A private network';
    return `Network ${v6[1]}:${v6[2]}:${v6[3]}::/48`;
  }
  return 'An unknown network';
}
