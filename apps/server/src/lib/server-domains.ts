import { domainToASCII } from 'node:url';

/** A DNS label in punycode: letters, digits and hyphens, not at either end, at most 63 characters. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A server's domain as a block names it (issue 39): trimmed, lower case, an IDN as punycode (`bücher.example` →
 * `xn--bcher-kva.example`), no trailing dot; undefined for anything else (a URL, a path, a port, `@user`, one
 * label alone). An IPv4 address is taken as it is (a server may be reached by one).
 */
export function normalizeServerDomain(input: string): string | undefined {
  const text = input.trim().replace(/\.$/, '');
  if (!text || /[\s/@:?#\\*]/.test(text)) return undefined;
  const ascii = domainToASCII(text).toLowerCase();
  if (!ascii || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  return ascii;
}

/**
 * The domains whose block covers this host (a block covers its subdomains, as Mastodon's domain blocks do):
 * `a.b.example` → `a.b.example`, `b.example`, `example`. Lower case, punycode; no port. Empty for no host.
 */
export function domainsCovering(host: string): string[] {
  const ascii = domainToASCII(host.trim().replace(/\.$/, '')).toLowerCase();
  if (!ascii) return [];
  const labels = ascii.split('.');
  return labels.map((_, index) => labels.slice(index).join('.'));
}
