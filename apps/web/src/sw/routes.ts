/**
 * Which requests the service worker treats how (sw.ts): pure functions of the path, tested in routes.test.ts.
 */

/**
 * The app's own pages, answered from the precached shell at once. Every other page (a shared post, a profile,
 * a tag, a series, a collection) is drawn by the server for its link's preview and its first paint: the worker
 * asks the network first and falls back to the shell offline.
 */
const APP_ROUTES =
  /^\/(?:|landing|login|signup|forgot-password|reset-password|verify-email|undo-email|mockman|explore|profile|search|notifications|settings(?:\/[\w-]+)?|moderation|insights(?:\/posts\/[^/]+)?|inquiries(?:\/[^/]+)?|drafts)\/?$/;

export const isAppRoute = (pathname: string): boolean => APP_ROUTES.test(pathname);

/**
 * The signed-in reads kept for offline use (network first, in the account's own cache): Home and Explore, the
 * artist's own profile and its lists, a post and its comments, notifications, the suggestions beside Home.
 */
const CACHED_API =
  /^\/api\/(?:feed|posts(?:\/user\/[^/]+|\/liked|\/[\w-]+)?|notifications(?:\/unread-count)?|users\/(?:by-username\/[^/]+|suggestions|bookmark|[^/]+\/pins)|comments\/[\w-]+)$/;

export const isCachedApi = (pathname: string): boolean => CACHED_API.test(pathname);

/** The writes queued when offline (all POST): a like or its undoing, a bookmark or its removal, a new comment. */
const QUEUED_WRITES =
  /^\/api\/(?:posts\/(?:like|dislike)\/[\w-]+|users\/(?:bookmark|remove-bookmark)\/[\w-]+|posts\/[\w-]+\/comment)$/;

export const isQueuedWrite = (pathname: string): boolean => QUEUED_WRITES.test(pathname);
