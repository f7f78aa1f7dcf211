/** `link` if it is an absolute http(s) URL (safe to put in an href), else undefined: never `javascript:` and the like. */
export function httpUrl(link: string | null | undefined): string | undefined {
  if (!link) return undefined;
  try {
    const url = new URL(link.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link as people read it: without the scheme, "www." and a trailing slash. */
export function displayUrl(href: string): string {
  return href.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '');
}

/**
 * A web address as people type it, made absolute: `nova.example.com/portfolio` becomes
 * `https://nova.example.com/portfolio`. Anything with a scheme of its own (`http://…`, `mailto:…`,
 * `javascript:…`) is left as written, for the server to accept (http and https) or refuse; so is an empty value.
 */
export function withWebScheme(link: string): string {
  const value = link.trim();
  if (!value) return value;
  if (value.startsWith('//')) return `https:${value}`;
  // A scheme is letters then ":"; "host:8080/…" is a host and its port, not a scheme.
  if (/^[a-z][a-z\d+.-]*:(?!\d)/i.test(value)) return value;
  return `https://${value}`;
}
