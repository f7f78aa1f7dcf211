/**
 * Usernames as addresses and as shown. An account here has a plain username (`mira`); someone on another server
 * whose works come here (following out, issue 39) has an account named by their handle (`bob@pixelfed.example`),
 * whose profile is `/bob@pixelfed.example`.
 */

/**
 * The profile page's path. `@` may stand in a path segment as it is (RFC 3986's pchar), so it is kept readable
 * (`/bob@pixelfed.example`, not `/bob%40pixelfed.example`); everything else is encoded, so that no username can
 * reach another route (`/`, `?`, `#`).
 */
export function profilePath(username: string): string {
  return `/${encodeURIComponent(username).replaceAll('%40', '@')}`;
}

/** A handle's two parts (`bob`, `pixelfed.example`), the leading @ ignored; `host` is absent for a plain username. */
export function splitHandle(handle: string): { user: string; host?: string } {
  const bare = handle.startsWith('@') ? handle.slice(1) : handle;
  const at = bare.lastIndexOf('@');
  if (at <= 0 || at === bare.length - 1) return { user: bare };
  return { user: bare.slice(0, at), host: bare.slice(at + 1) };
}
