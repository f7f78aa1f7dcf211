import type { Location } from 'react-router';

/** Router state that remembers where a visitor was going before being sent to sign in. */
export interface FromState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

const PUBLIC_PATHS = new Set(['/landing', '/login', '/signup']);

/** The remembered path to return to after signing in, or "/". */
export function rememberedPath(state: unknown): string {
  const from = (state as FromState | null)?.from;
  if (!from || typeof from.pathname !== 'string' || PUBLIC_PATHS.has(from.pathname)) return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
