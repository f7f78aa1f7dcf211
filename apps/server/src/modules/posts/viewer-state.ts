import type { Db } from '../../db/client.js';
import type { EventBus } from '../../events/bus.js';
import { createUserMemory } from '../../lib/user-memory.js';
import { selectHomeHead, selectViewerState, type ViewerStateRow } from './posts.sql.js';
import { IdSet } from './id-set.js';
import { HOME_TIMELINE_SIZE, HomeTimeline, PublishedLog, type PublishedPost } from './home-timeline.js';

/**
 * What a viewer's pages show as theirs (issue 26): the posts they liked and disliked, those they saved, the
 * people they follow, and their username (the reactor lists put them first). Never changed once built: a
 * change forgets it and the next page reads it again.
 */
export interface ViewerState {
  username: string | null;
  liked: IdSet;
  disliked: IdSet;
  bookmarked: IdSet;
  follows: IdSet;
}

export interface ViewerStateCache {
  /**
   * The viewer's state: remembered, else read once (concurrent requests share the read). Null when it must be
   * read with the page instead: they wrote within the last moments on some process (`wrote`), or they have
   * more than the cache keeps of one person.
   */
  of(userId: string): Promise<ViewerState | null>;
  /** Forgets these people's state at once in this process (every process hears the events). */
  forget(userIds: readonly string[]): void;
  /**
   * `userId` wrote on some process within `forMs` (the cookie that marks a write, db/replicas.ts): the event
   * that tells this process may not be here yet, so until then their pages read their flags from the database.
   */
  wrote(userId: string, forMs: number): void;
  /**
   * The viewer's Home timeline (home-timeline.ts), with every post published since it was read taken in, for
   * `state`, the viewer's state `of` just gave. Null when the page must be read from the database: the state or
   * the timeline was forgotten meanwhile.
   */
  home(userId: string, state: ViewerState): Promise<HomeTimeline | null>;
  /**
   * The viewer's Home posts after `after` (a cursor's time and id; the newest without), at most `size`, read now and
   * not remembered: for a page the remembered timeline cannot give (past what it holds, or while `of` answers null).
   */
  readHome(userId: string, size: number, after?: { time: Date; id: string }): Promise<HomeTimeline>;
  /** A post this process just published: its author's and followers' timelines here take it in at once. */
  published(post: PublishedPost): void;
  /** This process edited a post's words, and so maybe its tags: the timelines of tag followers here are read again. */
  retagged(): void;
  /** How many people are remembered, how many ids they weigh in all, and how many Home timelines are kept. */
  stats(): { viewers: number; ids: number; homes: number };
}

/**
 * How long after a write its author's pages read their flags from the database on every process (the write's
 * answer sets the cookie for this long): far longer than an event takes to reach the other processes.
 */
export const VIEWER_STATE_MARK_MS = 3000;

/** Someone with more reactions, bookmarks and follows than this is not remembered: their pages read their flags. */
export const VIEWER_STATE_MAX_IDS = 20_000;

/**
 * Up to this many people followed, a Home timeline is read from each of them rather than by walking the newest posts
 * (selectHomeHead): 200 × 65 rows of an index at most, where a walk reads every post for a Home with few posts.
 */
export const HOME_FEW_FOLLOWS = 200;

/** How many Home timelines a process keeps (1.5 KB each). */
export const HOME_TIMELINES_MAX = 20_000;

/** Marks "too many to remember" for a while (weighs 1), so their pages do not try to read them again every time. */
const TOO_MANY = 'too many' as const;

/**
 * Each signed-in viewer's reactions, bookmarks, follows and username, remembered so a page of posts fills
 * the viewer's flags without a lookup per row (issue 26; safety/relations.ts is the model). A like, dislike,
 * bookmark or follow sends `viewer-changed` for the person in its transaction, a rename `author-changed`, a
 * block `relations-changed` (a block ends follows both ways); every process forgets them on it, and the
 * process that wrote forgets them at once, after the commit and before the answer leaves. A read in progress
 * when they are forgotten is not remembered; after the event listener was away, nothing is. Another process
 * may serve the writer's next read before the event reaches it: the write's answer carries a cookie
 * (`sa_primary_until`), and while it lasts every process reads that person's flags with the page. Bounded
 * by the number of ids remembered in all.
 *
 * With it, each viewer's Home timeline (home-timeline.ts): read once, forgotten with their state, and kept up to
 * date by the posts every process hears published (`post-published`, with its author, time and tags); an edit
 * that may change a post's tags (`post-changed` with `retagged`) forgets the timelines of people who follow tags.
 */
export function createViewerStateCache({
  db,
  bus,
  maxIds = 2_000_000,
  maxHomes = HOME_TIMELINES_MAX,
  now = () => performance.now(),
}: {
  db: Db;
  bus: EventBus;
  maxIds?: number;
  maxHomes?: number;
  now?: () => number;
}): ViewerStateCache {
  const memory = createUserMemory<ViewerState | typeof TOO_MANY>({
    maxSize: maxIds,
    sizeOf: (state) =>
      state === TOO_MANY ? 1 : 1 + state.liked.size + state.disliked.size + state.bookmarked.size + state.follows.size,
    load,
  });
  const homes = createUserMemory<HomeTimeline>({
    maxSize: maxHomes,
    sizeOf: () => 1,
    load: (userId) => readHome(userId, HOME_TIMELINE_SIZE),
  });
  const log = new PublishedLog();
  /** People who wrote lately (on any process), until when (this process's `now`). */
  const writers = new Map<string, number>();

  const forget = (userIds: readonly string[]) => {
    memory.forget(userIds);
    homes.forget(userIds);
  };

  /** A post's tags may have changed: it may now be on the Home of someone who follows one of them. */
  const retagged = () => {
    for (const timeline of homes.values()) if (timeline.tags.size > 0) timeline.stale = true;
  };

  bus.subscribe(
    (event) => {
      if (event.type === 'viewer-changed') forget([event.userId]);
      else if (event.type === 'relations-changed') forget(event.userIds);
      else if (event.type === 'author-changed' || event.type === 'account-deleted') forget([event.userId]);
      else if (event.type === 'post-published') {
        log.add({ id: event.postId, authorId: event.authorId, time: Date.parse(event.createdAt), tags: event.tags });
      } else if (event.type === 'post-changed' && event.retagged) retagged();
    },
    () => {
      memory.clear();
      homes.clear();
      log.clear();
    },
  );

  /**
   * The `size` newest posts of the viewer's Home after `after` (the newest without), as a timeline with the place in
   * the log from which it takes posts in: for someone who follows few people, read from each of them (selectHomeHead).
   */
  async function readHome(userId: string, size: number, after?: { time: Date; id: string }): Promise<HomeTimeline> {
    const merged = log.end;
    // Only to choose how to read (a moment old during a write's mark is as good): the follows are the statement's.
    const state = await memory.get(userId);
    const fromEach = state !== TOO_MANY && state.follows.size <= HOME_FEW_FOLLOWS;
    const head = await selectHomeHead(db, userId, size + 1, { fromEach, after });
    const posts = head.posts.map((post) => ({ id: post.id, time: Date.parse(post.created_at) }));
    return new HomeTimeline(posts, new Set(head.tags), merged, size);
  }

  async function load(userId: string): Promise<ViewerState | typeof TOO_MANY> {
    const rows = await selectViewerState(db, userId, VIEWER_STATE_MAX_IDS + 1);
    if (rows.length > VIEWER_STATE_MAX_IDS) return TOO_MANY;
    const ids: Record<ViewerStateRow['kind'], string[]> = {
      like: [],
      dislike: [],
      bookmark: [],
      follow: [],
      username: [],
    };
    for (const row of rows) ids[row.kind].push(row.value);
    return {
      username: ids.username[0] ?? null,
      liked: ids.like.length > 0 ? new IdSet(ids.like) : IdSet.EMPTY,
      disliked: ids.dislike.length > 0 ? new IdSet(ids.dislike) : IdSet.EMPTY,
      bookmarked: ids.bookmark.length > 0 ? new IdSet(ids.bookmark) : IdSet.EMPTY,
      follows: ids.follow.length > 0 ? new IdSet(ids.follow) : IdSet.EMPTY,
    };
  }

  return {
    forget,
    wrote(userId, forMs) {
      if (forMs <= 0) return;
      const until = now() + forMs;
      if (until > (writers.get(userId) ?? 0)) writers.set(userId, until);
      // Forgotten entries of people who wrote long ago: swept now and then, the map stays small.
      if (writers.size > 10_000) for (const [id, end] of writers) if (end < now()) writers.delete(id);
    },
    async of(userId) {
      if (writers.size > 0) {
        const until = writers.get(userId);
        if (until !== undefined) {
          if (until >= now()) return null;
          writers.delete(userId);
        }
      }
      const state = await memory.get(userId);
      return state === TOO_MANY ? null : state;
    },
    async home(userId, state) {
      let timeline = await homes.get(userId);
      if (timeline.stale) {
        homes.forget([userId]);
        timeline = await homes.get(userId);
      }
      // Forgotten while it was read (a follow, say): the page reads the database, and the next one a new timeline.
      if (memory.peek(userId) !== state || homes.peek(userId) !== timeline) return null;
      const heard = log.since(timeline.merged);
      if (!heard) {
        // It fell behind what this process remembers: read again by the next page.
        homes.forget([userId]);
        return null;
      }
      for (const post of heard) {
        if (
          post.authorId === userId ||
          state.follows.has(post.authorId) ||
          post.tags.some((tag) => timeline.tags.has(tag))
        )
          timeline.add(post);
      }
      timeline.merged = log.end;
      return timeline;
    },
    readHome: (userId, size, after) => readHome(userId, Math.min(size, HOME_TIMELINE_SIZE), after),
    published: (post) => log.add(post),
    retagged,
    stats() {
      let ids = 0;
      for (const state of memory.values()) {
        if (state !== TOO_MANY)
          ids += state.liked.size + state.disliked.size + state.bookmarked.size + state.follows.size;
      }
      return { viewers: memory.size, ids, homes: homes.size };
    },
  };
}
