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
