import type { Location } from 'react-router';
import { safeNextPath } from '../../lib/session';

/** Router state that remembers where a visitor was going before being sent to sign in. */
export interface FromState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

const PUBLIC_PATHS = new Set(['/landing', '/login', '/signup']);

/**
 * The path to return to after signing in: `?next=` (a visitor who tried to like a shared post: same-site
 * paths only), else the page the guard sent them away from, else "/".
 */
export function rememberedPath(state: unknown, search = ''): string {
  const next = safeNextPath(new URLSearchParams(search).get('next'));
  if (next && !PUBLIC_PATHS.has(next.split(/[?#]/)[0]!)) return next;
  const from = (state as FromState | null)?.from;
  if (!from || typeof from.pathname !== 'string' || PUBLIC_PATHS.has(from.pathname)) return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
