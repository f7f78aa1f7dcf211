import { LRUCache } from 'lru-cache';
import { POST_REACTION_CAP, type ReactionUser } from '@share-arts/contract';
import type { EventBus, LiveEvent } from '../live/live.events.js';
import type { PostKeyRow } from './posts.queries.js';
import { viewerFlags, type SharedPost } from './posts.presenter.js';
import { JsonText } from '../../lib/json-text.js';

/**
 * The part of a post every reader sees the same, kept ready to send: the post's JSON up to its likes
 * (content, author, picture), and its newest reactors. Comments are not part of it: they are read per
 * request with the viewer's votes.
 */
export interface CachedPost {
  userId: string;
  /** The post's JSON without its comments, likes, counters, viewer flags and closing brace. */
  head: string;
  likedBy: ReactionUser[];
  dislikedBy: ReactionUser[];
  likedByJson: string;
  dislikedByJson: string;
}

/** The cache entry of a post read without a viewer. */
export function cachedPost(post: SharedPost): CachedPost {
  const { likes, ...shared } = post;
  return {
    userId: post.userId,
    head: JSON.stringify(shared).slice(0, -1),
    likedBy: likes.likedBy,
    dislikedBy: likes.dislikedBy,
    likedByJson: JSON.stringify(likes.likedBy),
    dislikedByJson: JSON.stringify(likes.dislikedBy),
  };
}

/**
 * The part of each post every reader sees the same, kept in memory so a page costs one narrow keyset
 * query (ids, counters, the viewer's flags) plus a full read of only the posts not cached yet. Every
 * process drops an entry when any process changes it (NOTIFY through the event bus); counters and
 * viewer flags are never cached.
 */
export function createPostCache(options: { bus: EventBus; max?: number; ttlMs?: number }) {
  const entries = new LRUCache<string, CachedPost>({ max: options.max ?? 20_000, ttl: options.ttlMs ?? 5 * 60_000 });
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
    async resolve(ids: string[], load: (ids: string[]) => Promise<SharedPost[]>): Promise<Map<string, CachedPost>> {
      const found = new Map<string, CachedPost>();
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
          const entry = cachedPost(post);
          found.set(post._id, entry);
          if (!stale.has(post._id) && !stale.has('*')) entries.set(post._id, entry);
        }
      } finally {
        fills.delete(stale);
      }
      return found;
    },
  };
}

export type PostCache = ReturnType<typeof createPostCache>;

/** The events that may change a word search's matches: a new, edited or deleted post. */
export const changesPostSearches = (event: LiveEvent): boolean => event.e === 'p' || event.e === 'e';

/** A post that matches a word search, with its sort key. */
export interface SearchHit {
  id: string;
  rank: number;
  /** created_at in milliseconds. */
  time: number;
}

/**
 * A reactor list as the viewer sees it: the viewer first when they reacted (and never when they did
 * not), then the newest others. Most of the time that is the cached list, sent as cached.
 */
function reactorsFor(list: ReactionUser[], json: string, viewer: ReactionUser | null, reacted: boolean): string {
  if (!viewer) return json;
  const listed = list.some((user) => user._id === viewer._id);
  if (!reacted && !listed) return json;
  const others = list.filter((user) => user._id !== viewer._id);
  return JSON.stringify(reacted ? [viewer, ...others].slice(0, POST_REACTION_CAP) : others);
}

/**
 * A cached post as `viewer` sees it, with the counters and newest comments just read: the post's JSON.
 */
export function personalize(shared: CachedPost, row: PostKeyRow, viewerId: string | null): JsonText {
  const viewer = viewerId && row.viewer_username ? { _id: viewerId, username: row.viewer_username } : null;
  const likedBy = reactorsFor(shared.likedBy, shared.likedByJson, viewer, row.viewer_reaction === 'like');
  const dislikedBy = reactorsFor(shared.dislikedBy, shared.dislikedByJson, viewer, row.viewer_reaction === 'dislike');
  const likes = `{"likeCount":${Number(row.like_count)},"dislikeCount":${Number(row.dislike_count)},"likedBy":${likedBy},"dislikedBy":${dislikedBy}}`;
  const viewerJson = JSON.stringify(viewerFlags(row, viewerId, shared.userId));
  return new JsonText(
    `${shared.head},"comments":[${row.comments}],"likes":${likes},` +
      `"commentCount":${Number(row.comment_count)},"viewer":${viewerJson}}`,
  );
}
