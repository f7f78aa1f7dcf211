import { LIVE } from '@share-arts/contract';

/**
 * The posts on screen, for the live stream's `watch` frame. Every card that is visible registers its
 * post id (counted, since one post can be on screen twice: in the feed and in a dialog); the connection
 * sends the union, newest registrations first when there are more than the server accepts.
 */
const counts = new Map<string, number>();
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** Adds `postId` to the watched posts until the returned function is called. */
export function watchPost(postId: string): () => void {
  const count = counts.get(postId) ?? 0;
  // Re-inserting moves the id to the end of the map: over the cap the latest on screen win.
  counts.delete(postId);
  counts.set(postId, count + 1);
  if (count === 0) emit();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (counts.get(postId) ?? 1) - 1;
    if (left > 0) {
      counts.set(postId, left);
      return;
    }
    counts.delete(postId);
    emit();
  };
}

/** The watched post ids, at most LIVE.watchCap of them. */
export function watchedPosts(): string[] {
  const ids = [...counts.keys()];
  return ids.length > LIVE.watchCap ? ids.slice(-LIVE.watchCap) : ids;
}

/** Calls `listener` whenever a post starts or stops being watched. */
export function onWatchedPostsChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
