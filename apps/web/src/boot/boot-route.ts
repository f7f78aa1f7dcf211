/** The pages the head and boot scripts prepare (see route-modules.ts for what each needs). */
export type BootRoute =
  | 'landing'
  | 'login'
  | 'signup'
  | 'mockman'
  | 'feed'
  | 'explore'
  | 'post'
  | 'search'
  | 'notifications'
  | 'settings'
  | 'profile'
  | 'tag'
  | 'series'
  | 'collection'
  | 'inquiries'
  | 'inquiry'
  | 'other';

/** The pages outside the sign-in guard. */
const PUBLIC: readonly string[] = ['landing', 'login', 'signup', 'mockman'];
/** The signed-in pages with a path of their own (one segment). */
const NAMED: readonly string[] = ['explore', 'search', 'notifications', 'settings', 'profile'];

/** Whether `route` is behind the sign-in guard (its data needs the token). */
export const isSignedInRoute = (route: BootRoute) => !PUBLIC.includes(route);

/**
 * The page `pathname` opens, as app/router.tsx matches it (keep the two in step), and the post id of a
 * post page (decoded, as React Router's params are).
 */
export function bootRoute(pathname: string): { route: BootRoute; postId?: string } {
  const [first, second, ...rest] = pathname.split('/').filter(Boolean);
  if (!first) return { route: 'feed' };
  // Inquiries (issue 42): the inbox, /inquiries, and one thread, /inquiries/{id}.
  if (first === 'inquiries' && !rest.length) return { route: second ? 'inquiry' : 'inquiries' };
  if (!second) return { route: PUBLIC.includes(first) || NAMED.includes(first) ? (first as BootRoute) : 'profile' };
  if (first === 'settings' && !rest.length) return { route: 'settings' };
  if (first === 'tags' && !rest.length) return { route: 'tag' };
  // An artist's series (issue 41): /{username}/series/{slug}.
  if (second === 'series' && rest.length === 1) return { route: 'series' };
  // A collection (issue 41): /{username}/collections/{slug}.
  if (second === 'collections' && rest.length === 1) return { route: 'collection' };
  if (first === 'posts' && !rest.length) {
    try {
      return { route: 'post', postId: decodeURIComponent(second) };
    } catch {
      // A malformed address: the router shows it as not found.
    }
  }
  return { route: 'other' };
}
