import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from './current-user';

/**
 * The path after sign-in (`/login?next=…`): a path on this site only (one leading slash, no scheme, no
 * `//host` or `/\host` that a browser would read as another site, before or after the URL parser resolves
 * its dot segments); anything else is "/".
 */
export function safeNextPath(next: string | null | undefined): string | undefined {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  // What the URL parser makes of it, against a placeholder origin: it must stay on that origin.
  const base = 'https://here.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base) return undefined;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can leave a path that is itself another site's address: `/.//evil.example` is `//evil.example`.
  if (path.startsWith('//') || path.startsWith('/\\')) return undefined;
  return path;
}

/** `/login?next=<path>`: sign in, then come back to `path`. */
export const signInPath = (path: string, page: 'login' | 'signup' = 'login') =>
  `/${page}?${new URLSearchParams({ next: path })}`;

/**
 * For actions that need an account (like, save, follow, comment, vote): returns a check that is true when
 * someone is signed in; for a visitor reading a shared page it sends them to sign in, to come back to the
 * same page afterwards, and is false.
 */
export function useSignInFirst(): () => boolean {
  const { data: me } = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    if (me) return true;
    void navigate(signInPath(`${location.pathname}${location.search}${location.hash}`));
    return false;
  }, [me, navigate, location.pathname, location.search, location.hash]);
}
