import { LRUCache } from 'lru-cache';
import { POST_REACTION_CAP, type Post, type ReactionUser } from '@share-arts/contract';
import type { EventBus } from '../live/live.events.js';
import type { PostKeyRow } from './posts.queries.js';
import { viewerFlags } from './posts.presenter.js';

/**
 * The part of each post every reader sees the same (content, author, picture, the newest reactors),
 * kept in memory so a page costs one narrow keyset query (ids, counters, the viewer's flags) plus a
 * full read of only the posts not cached yet. Every process drops an entry when any process changes
 * it (NOTIFY through the event bus); counters and viewer flags are never cached.
 */
export function createPostCache(options: { bus: EventBus; max?: number; ttlMs?: number }) {
  const entries = new LRUCache<string, Post>({ max: options.max ?? 20_000, ttl: options.ttlMs ?? 5 * 60_000 });
  /** Reads in progress: an entry changed while it was being read must not be stored. */
  const fills = new Set<Set<string>>();

  const invalidate = (postId: string) => {
    entries.delete(postId);
    for (const stale of fills) stale.add(postId);
  };

  options.bus.subscribe(
    (event) => {
      if (event.e === 'c' || event.e === 'e') invalidate(event.p);
      else if (event.e === 'a') {
        for (const [postId, post] of entries.entries()) if (post.userId === event.a) invalidate(postId);
      }
    },
    () => {
      // Events were lost while the listener was away: nothing cached can be trusted.
      entries.clear();
      for (const stale of fills) stale.add('*');
    },
  );

  return {
    invalidate,

    /** The shared part of each post, reading the missing ones with `load` (viewer-less posts). */
    async resolve(ids: string[], load: (ids: string[]) => Promise<Post[]>): Promise<Map<string, Post>> {
      const found = new Map<string, Post>();
      const missing: string[] = [];
      for (const id of ids) {
        const post = entries.get(id);
        if (post) found.set(id, post);
        else missing.push(id);
      }
      if (missing.length === 0) return found;
      const stale = new Set<string>();
      fills.add(stale);
      try {
        for (const post of await load(missing)) {
          found.set(post._id, post);
          if (!stale.has(post._id) && !stale.has('*')) entries.set(post._id, post);
        }
      } finally {
        fills.delete(stale);
      }
      return found;
    },
  };
}

export type PostCache = ReturnType<typeof createPostCache>;

/** The viewer first when they reacted (and never when they did not), then the newest others. */
function withViewer(list: ReactionUser[], viewer: ReactionUser | null, reacted: boolean): ReactionUser[] {
  if (!viewer) return list;
  const others = list.filter((user) => user._id !== viewer._id);
  return reacted ? [viewer, ...others].slice(0, POST_REACTION_CAP) : others;
}

/** A cached post as `viewer` sees it, with the counters just read. */
export function personalize(shared: Post, row: PostKeyRow, viewerId: string | null): Post {
  const viewer = viewerId && row.viewer_username ? { _id: viewerId, username: row.viewer_username } : null;
  return {
    ...shared,
    likes: {
      likeCount: Number(row.like_count),
      dislikeCount: Number(row.dislike_count),
      likedBy: withViewer(shared.likes.likedBy, viewer, row.viewer_reaction === 'like'),
      dislikedBy: withViewer(shared.likes.dislikedBy, viewer, row.viewer_reaction === 'dislike'),
    },
    commentCount: Number(row.comment_count),
    viewer: viewerFlags(row, viewerId, shared.userId),
  };
}
