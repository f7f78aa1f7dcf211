import { useSyncExternalStore } from 'react';

/** A post published since this tab connected, as the live stream announced it. */
export interface NewPost {
  postId: string;
  authorId: string;
  /** The viewer follows its author (or wrote it): it belongs on Home. */
  following: boolean;
}

/** Enough for any "N new posts" pill; older announcements are forgotten. */
const KEEP = 50;

let posts: readonly NewPost[] = [];
const listeners = new Set<() => void>();

function set(next: readonly NewPost[]) {
  posts = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function recordNewPost(post: NewPost): void {
  if (posts.some((known) => known.postId === post.postId)) return;
  set([...posts, post].slice(-KEEP));
}

/** Forgets the given posts (shown now), or every one (signed out). */
export function forgetNewPosts(postIds?: ReadonlySet<string>): void {
  const next = postIds ? posts.filter((post) => !postIds.has(post.postId)) : [];
  if (next.length !== posts.length) set(next);
}

/** The posts announced and not yet forgotten, oldest first. */
export function useNewPosts(): readonly NewPost[] {
  const read = () => posts;
  // The same on the server's render (src/entry-server.tsx): nothing announced there.
  return useSyncExternalStore(subscribe, read, read);
}
