import { LRUCache } from 'lru-cache';
import { POST_REACTION_CAP, type Comment, type ReactionUser } from '@share-arts/contract';
import type { EventBus } from '../../events/bus.js';
import type { DomainEvent } from '../../events/events.js';
import type { PostKeyRow, PostReactors } from './posts.sql.js';
import { viewerFlags, type SharedPost } from './posts.presenter.js';
import { JsonText } from '../../lib/json-text.js';

/** One of a post's newest comments as anyone sees it (viewerVote null), as JSON ready to send. */
export interface CachedComment {
  id: string;
  authorId: string;
  json: string;
  /** Its newest voters when anyone voted on it (only then can a viewer's vote change how it reads). */
  voters: Pick<Comment['votes'], 'upvotedBy' | 'downvotedBy'> | null;
}

/**
 * The part of a post every reader sees the same, kept ready to send: the post's JSON up to its comments
 * (content, author, pictures), its newest reactors and its newest comments without a viewer's votes.
 */
export interface CachedPost {
  userId: string;
  /** The post's JSON without its comments, likes, counters, viewer flags and closing brace. */
  head: string;
  likedBy: ReactionUser[];
  dislikedBy: ReactionUser[];
  likedByJson: string;
  dislikedByJson: string;
  comments: CachedComment[];
  /** The comments' JSON joined by commas, as a reader who voted on none of them sees it. */
  commentsJson: string;
  /**
   * 0 while the reactor lists are current; counts the reactions since, which a read of the lists alone
   * brings up to date (issue 26: a like changes only them, so the rest of the entry stays).
   */
  reactorsStale: number;
}

/** The cache entry of a post read without a viewer. */
export function cachedPost(post: SharedPost): CachedPost {
  const { likes, comments, ...shared } = post;
  const cached = comments.map((comment): CachedComment => {
    const { upvoteCount, downvoteCount, upvotedBy, downvotedBy } = comment.votes;
    return {
      id: comment._id,
      authorId: comment.userId,
      json: JSON.stringify(comment),
      voters: upvoteCount + downvoteCount > 0 ? { upvotedBy, downvotedBy } : null,
    };
  });
  return {
    userId: post.userId,
    head: JSON.stringify(shared).slice(0, -1),
    likedBy: likes.likedBy,
    dislikedBy: likes.dislikedBy,
    likedByJson: JSON.stringify(likes.likedBy),
    dislikedByJson: JSON.stringify(likes.dislikedBy),
    comments: cached,
    commentsJson: cached.map((comment) => comment.json).join(','),
    reactorsStale: 0,
  };
}

/** The entry with these reactor lists, current. */
const withReactors = (post: CachedPost, { likedBy, dislikedBy }: PostReactors): CachedPost => ({
  ...post,
  likedBy,
  dislikedBy,
  likedByJson: JSON.stringify(likedBy),
  dislikedByJson: JSON.stringify(dislikedBy),
  reactorsStale: 0,
});

/** The ids of the shown comments a viewer may have voted on (those with votes): whose votes to read. */
export function votedCommentIds(posts: Iterable<CachedPost>): string[] {
  const ids: string[] = [];
  for (const post of posts) for (const comment of post.comments) if (comment.voters) ids.push(comment.id);
  return ids;
}

/** Whether `userId` shows anywhere in the entry: as its author, a reactor, a comment's author or voter. */
function shows(post: CachedPost, userId: string): boolean {
  const listed = (list: ReactionUser[]) => list.some((user) => user._id === userId);
  if (post.userId === userId) return true;
  if (listed(post.likedBy) || listed(post.dislikedBy)) return true;
  return post.comments.some(
    ({ authorId, voters }) =>
      authorId === userId || (!!voters && (listed(voters.upvotedBy) || listed(voters.downvotedBy))),
  );
}

/**
 * The part of each post every reader sees the same, kept in memory so a page costs one narrow keyset
 * query (ids, counters, the viewer's flags) plus a full read of only the posts not cached yet. Every
 * process drops an entry when any process changes it (NOTIFY through the event bus); counters and
 * viewer flags are never cached.
 */
export function createPostCache(options: { bus: EventBus; max?: number; ttlMs?: number; maxVotes?: number }) {
  const entries = new LRUCache<string, CachedPost>({ max: options.max ?? 20_000, ttl: options.ttlMs ?? 5 * 60_000 });
  /** Reads in progress: an entry changed while it was being read must not be stored. */
  const fills = new Set<Set<string>>();

  const invalidate = (postId: string) => {
    entries.delete(postId);
    for (const stale of fills) stale.add(postId);
  };

  /** A reaction: the entry's reactor lists are read again on its next use, the rest of it stays. */
  const reactorsChanged = (postId: string) => {
    const entry = entries.peek(postId);
    if (entry) entry.reactorsStale += 1;
    for (const stale of fills) stale.add(postId);
  };

  /**
   * Each viewer's votes on the comments their pages showed (null for none), so a page read again needs
   * no query: dropped when they vote, in every process (`comments-changed` names the voter). Bounded by the number
   * of comments remembered in all.
   */
  const votes = new LRUCache<string, Map<string, Vote | null>>({
    maxSize: options.maxVotes ?? 200_000,
    sizeCalculation: (known) => known.size + 1,
  });
  /** Vote reads in progress: a viewer who voted meanwhile must not have the read remembered. */
  const voteReads = new Set<{ viewerId: string; stale: boolean }>();
  const forgetVotes = (viewerId: string) => {
    votes.delete(viewerId);
    for (const read of voteReads) if (read.viewerId === viewerId) read.stale = true;
  };

  options.bus.subscribe(
    (event) => {
      if (event.type === 'comments-changed' && event.voterId) forgetVotes(event.voterId);
      if (event.type === 'post-counts-changed' && event.reactions) reactorsChanged(event.postId);
      else if (
        event.type === 'post-counts-changed' ||
        event.type === 'post-changed' ||
        event.type === 'comments-changed'
      ) {
        invalidate(event.postId);
      } else if (event.type === 'author-changed' || event.type === 'account-deleted') {
        // A rename or new photo shows where they wrote (the post, its comments) and in the lists of who liked
        // and voted (by name); a deleted or suspended account leaves those lists.
        for (const [postId, post] of entries.entries()) if (shows(post, event.userId)) invalidate(postId);
      }
    },
    () => {
      // Events were lost while the listener was away: nothing cached can be trusted.
      entries.clear();
      for (const stale of fills) stale.add('*');
      votes.clear();
      for (const read of voteReads) read.stale = true;
    },
  );

  return {
    invalidate,
    reactorsChanged,
    forgetVotes,

    /** The viewer's votes on these comments, reading with `load` only those not known yet. */
    async viewerVotes(
      viewerId: string,
      commentIds: string[],
      load: (ids: string[]) => Promise<Map<string, Vote>>,
    ): Promise<Map<string, Vote>> {
      let known = votes.get(viewerId);
      const missing = commentIds.filter((id) => !known?.has(id));
      if (missing.length > 0) {
        const read = { viewerId, stale: false };
        voteReads.add(read);
        let found: Map<string, Vote>;
        try {
          found = await load(missing);
        } finally {
          voteReads.delete(read);
        }
        if (read.stale) return found;
        known = new Map(known && known.size < 1000 ? known : []);
        for (const id of missing) known.set(id, found.get(id) ?? null);
        votes.set(viewerId, known);
      }
      const shown = new Map<string, Vote>();
      for (const id of commentIds) {
        const vote = known!.get(id);
        if (vote) shown.set(id, vote);
      }
      return shown;
    },

    /**
     * The shared part of each post, reading the missing ones with `load` (viewer-less posts) and, for the
     * entries whose reactor lists changed, only those lists with `loadReactors`. A post either read finds
     * gone is left out.
     */
    async resolve(
      ids: string[],
      load: (ids: string[]) => Promise<SharedPost[]>,
      loadReactors: (ids: string[]) => Promise<PostReactors[]>,
    ): Promise<Map<string, CachedPost>> {
      const found = new Map<string, CachedPost>();
      const missing: string[] = [];
      /** Entries to bring up to date, with their count of reactions when the read began. */
      const outdated = new Map<string, { entry: CachedPost; stale: number }>();
      for (const id of ids) {
        const post = entries.get(id);
        if (!post) missing.push(id);
        else if (post.reactorsStale > 0) outdated.set(id, { entry: post, stale: post.reactorsStale });
        else found.set(id, post);
      }
      if (missing.length === 0 && outdated.size === 0) return found;
      const stale = new Set<string>();
      fills.add(stale);
      try {
        const [posts, reactors] = await Promise.all([
          missing.length > 0 ? load(missing) : [],
          outdated.size > 0 ? loadReactors([...outdated.keys()]) : [],
        ]);
        for (const post of posts) {
          const entry = cachedPost(post);
          found.set(post._id, entry);
          if (!stale.has(post._id) && !stale.has('*')) entries.set(post._id, entry);
        }
        for (const lists of reactors) {
          const { entry, stale: count } = outdated.get(lists.id)!;
          const current = withReactors(entry, lists);
          found.set(lists.id, current);
          // Kept unless the entry was dropped or replaced, or reacted to again, while the lists were read.
          if (entries.peek(lists.id) === entry && entry.reactorsStale === count) entries.set(lists.id, current);
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
export const changesPostSearches = (event: DomainEvent): boolean =>
  event.type === 'post-published' || event.type === 'post-changed';

/** A post that matches a word search, with its sort key. */
export interface SearchHit {
  id: string;
  rank: number;
  /** created_at in milliseconds. */
  time: number;
}

type Vote = 'up' | 'down';

/**
 * The people a viewer does not see in a post's embedded lists (issue 23): those in a blocked pair with
 * them (reactors, voters, comments) and those they muted (comments only).
 */
export interface HiddenPeople {
  blocked: ReadonlySet<string>;
  muted: ReadonlySet<string>;
}

/** The cached post without the people the viewer does not see; the entry itself when none of them shows. */
function withoutHidden(post: CachedPost, hidden: HiddenPeople): CachedPost {
  if (hidden.blocked.size === 0 && hidden.muted.size === 0) return post;
  const seen = (user: ReactionUser) => !hidden.blocked.has(user._id);
  const likedBy = post.likedBy.every(seen) ? post.likedBy : post.likedBy.filter(seen);
  const dislikedBy = post.dislikedBy.every(seen) ? post.dislikedBy : post.dislikedBy.filter(seen);
  let changed = likedBy !== post.likedBy || dislikedBy !== post.dislikedBy;
  const comments: CachedComment[] = [];
  for (const comment of post.comments) {
    if (hidden.blocked.has(comment.authorId) || hidden.muted.has(comment.authorId)) {
      changed = true;
      continue;
    }
    const voters = comment.voters;
    if (voters && !(voters.upvotedBy.every(seen) && voters.downvotedBy.every(seen))) {
      changed = true;
      const parsed = JSON.parse(comment.json) as Comment;
      parsed.votes.upvotedBy = voters.upvotedBy.filter(seen);
      parsed.votes.downvotedBy = voters.downvotedBy.filter(seen);
      comments.push({
        ...comment,
        json: JSON.stringify(parsed),
        voters: { upvotedBy: parsed.votes.upvotedBy, downvotedBy: parsed.votes.downvotedBy },
      });
    } else comments.push(comment);
  }
  if (!changed) return post;
  return {
    ...post,
    likedBy,
    dislikedBy,
    likedByJson: likedBy === post.likedBy ? post.likedByJson : JSON.stringify(likedBy),
    dislikedByJson: dislikedBy === post.dislikedBy ? post.dislikedByJson : JSON.stringify(dislikedBy),
    comments,
    commentsJson: comments.map((comment) => comment.json).join(','),
  };
}

/** The viewer, as reactor lists name them; null without one. */
type Viewer = ReactionUser | null;

/**
 * A reactor list as the viewer sees it: the viewer first when they reacted (and never when they did
 * not), then the newest others. Null when that is the cached list, as it most often is.
 */
function placed(list: ReactionUser[], viewer: ReactionUser, reacted: boolean): ReactionUser[] | null {
  const listed = list.some((user) => user._id === viewer._id);
  if (!reacted && !listed) return null;
  const others = list.filter((user) => user._id !== viewer._id);
  return reacted ? [viewer, ...others].slice(0, POST_REACTION_CAP) : others;
}

/** `placed` as JSON, the cached `json` when unchanged. */
function reactorsFor(list: ReactionUser[], json: string, viewer: Viewer, reacted: boolean): string {
  const personal = viewer && placed(list, viewer, reacted);
  return personal ? JSON.stringify(personal) : json;
}

/**
 * The newest comments as the viewer sees them, joined by commas, as commentJson builds one for a viewer:
 * their vote (from `votes`, read for the comments that have any) in viewerVote, and the viewer first in
 * that vote's list and in no other. Without a vote on any of them, the cached JSON as it is.
 */
function commentsFor(shared: CachedPost, viewer: Viewer, votes: ReadonlyMap<string, 'up' | 'down'>): string {
  // Most often no shown comment has votes: nothing of the viewer's to place, and nothing to allocate.
  if (!viewer || !shared.comments.some((comment) => comment.voters)) return shared.commentsJson;
  let personal = false;
  const parts = shared.comments.map(({ id, json, voters }) => {
    if (!voters) return json;
    const vote = votes.get(id) ?? null;
    const upvotedBy = placed(voters.upvotedBy, viewer, vote === 'up');
    const downvotedBy = placed(voters.downvotedBy, viewer, vote === 'down');
    if (vote === null && !upvotedBy && !downvotedBy) return json;
    personal = true;
    // Rare (the viewer voted on a shown comment): a fresh copy, its keys in the cached order.
    const comment = JSON.parse(json) as Comment;
    comment.votes.upvotedBy = upvotedBy ?? voters.upvotedBy;
    comment.votes.downvotedBy = downvotedBy ?? voters.downvotedBy;
    comment.viewerVote = vote;
    return JSON.stringify(comment);
  });
  return personal ? parts.join(',') : shared.commentsJson;
}

/**
 * A cached post as `viewer` sees it, with the counters just read and the viewer's votes on its comments
 * (`votes`, empty without a viewer or when none of the page's comments has votes): the post's JSON.
 */
export function personalize(
  cached: CachedPost,
  row: PostKeyRow,
  viewerId: string | null,
  votes: ReadonlyMap<string, 'up' | 'down'> = new Map(),
  hidden?: HiddenPeople,
): JsonText {
  const shared = hidden ? withoutHidden(cached, hidden) : cached;
  const viewer = viewerId && row.viewer_username ? { _id: viewerId, username: row.viewer_username } : null;
  const likedBy = reactorsFor(shared.likedBy, shared.likedByJson, viewer, row.viewer_reaction === 'like');
  const dislikedBy = reactorsFor(shared.dislikedBy, shared.dislikedByJson, viewer, row.viewer_reaction === 'dislike');
  const likes = `{"likeCount":${Number(row.like_count)},"dislikeCount":${Number(row.dislike_count)},"likedBy":${likedBy},"dislikedBy":${dislikedBy}}`;
  const viewerJson = JSON.stringify(viewerFlags(row, viewerId, shared.userId));
  return new JsonText(
    `${shared.head},"comments":[${commentsFor(shared, viewer, votes)}],"likes":${likes},` +
      `"commentCount":${Number(row.comment_count)},"moderation":${JSON.stringify(row.moderation ?? null)},"viewer":${viewerJson}` +
      (row.reason_tag ? `,"reason":${JSON.stringify({ tag: row.reason_tag })}}` : '}'),
  );
}
