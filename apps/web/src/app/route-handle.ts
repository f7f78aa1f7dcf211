import { useMatches } from 'react-router';

/** What a route tells the layouts about itself (React Router's `handle`). */
export interface RouteHandle {
  /** Show "Who to follow" beside the page. */
  suggestions?: boolean;
  /** The page sets its own width instead of the reading column's (the post page: artwork beside details). */
  wide?: boolean;
  /**
   * Readable without an account (a shared link: a post, a profile, a tag): the sign-in guard lets visitors
   * through, read-only; actions that need an account ask them to sign in and come back.
   */
  public?: boolean;
}

/** Whether any matched route asks for `flag`. */
export function useRouteFlag(flag: keyof RouteHandle): boolean {
  return useMatches().some((match) => Boolean((match.handle as RouteHandle | undefined)?.[flag]));
}
