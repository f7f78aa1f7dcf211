import { useMatches } from 'react-router';

/** What a route tells the layouts about itself (React Router's `handle`). */
export interface RouteHandle {
  /** Show "Who to follow" beside the page. */
  suggestions?: boolean;
}

/** Whether any matched route asks for `flag`. */
export function useRouteFlag(flag: keyof RouteHandle): boolean {
  return useMatches().some((match) => Boolean((match.handle as RouteHandle | undefined)?.[flag]));
}
