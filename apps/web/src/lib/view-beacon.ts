import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { authHeader } from './api-client';

/**
 * The views beacon (issue 42, docs/insights.md): a work's page, the viewer or a profile tells the server it was seen,
 * and from where — the app's page before it, or on a visit's first page the site that linked to it (its host only).
 * No cookie, no identifier: the server tells viewers apart for a day and keeps counts only. Kept tiny: it is in the
 * Home and post chunks.
 */

let current: string | undefined;
let previous: string | undefined;

/** The app layout notes each page it shows, so that a view knows the page before it. */
export function useNotePage(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname !== current) [previous, current] = [current, pathname];
  }, [pathname]);
}

const PAGES: [RegExp, string][] = [
  [/^\/$/, 'home'],
  [/^\/explore/, 'explore'],
  [/^\/tags\//, 'tag'],
  [/^\/search/, 'search'],
  [/^\/notifications/, 'notifications'],
  [/^\/posts\//, 'post'],
  [/^\/[^/]+\/series\//, 'series'],
  [/^\/(profile|(?!settings|moderation|insights|landing|login|signup)[^/]+)\/?$/, 'profile'],
];

/** Where a view of the page at `path` came from: `here` for what the page itself shows (the viewer). */
function sourceOf(path: string, here: boolean): { source: string; host?: string } {
  const from = here ? path : current === path ? previous : current;
  if (from === undefined) {
    const host = document.referrer && new URL(document.referrer).hostname;
    return host && host !== location.hostname ? { source: 'external', host } : { source: 'direct' };
  }
  return { source: PAGES.find(([pattern]) => pattern.test(from))?.[1] ?? 'other' };
}

/** Reports a view of a work (its page, `here` false; the viewer opened on a page, `here` true) or a profile. */
export function reportView(subject: { postId: string } | { username: string }, here = false): void {
  const body = JSON.stringify({ ...subject, ...sourceOf(location.pathname, here) });
  void fetch('/api/views', {
    method: 'POST',
    keepalive: true,
    headers: { 'content-type': 'application/json', ...authHeader() },
    body,
  }).catch(() => {});
}
