import type { Db } from '../../db/client.js';
import type { EventBus } from '../../events/bus.js';
import { createUserMemory } from '../../lib/user-memory.js';
import { selectViewerState, type ViewerStateRow } from './posts.sql.js';

/**
 * A set of UUIDs at 16 bytes each: their four 32-bit words, sorted, searched by halves. A Set of the id
 * strings would take about 100 bytes an id; a viewer who reacted to 100 posts and follows 500 people
 * weighs 10 KB this way, not 60.
 */
export class IdSet {
  static readonly EMPTY = new IdSet([]);
  private readonly words: Uint32Array;

  /** `ids` in any order, lower-case UUIDs as PostgreSQL writes them. */
  constructor(ids: readonly string[]) {
    // Fixed-width lower-case hex with the dashes in fixed places sorts as its words do.
    const sorted = [...ids].sort();
    this.words = new Uint32Array(sorted.length * 4);
    const key = new Uint32Array(4);
    sorted.forEach((id, i) => {
      if (IdSet.key(id, key)) this.words.set(key, i * 4);
    });
  }

  get size(): number {
    return this.words.length / 4;
  }

  /**
   * The id's four words into `key` (read character by character: a page looks up some 60 ids); false when
   * it is not a lower-case UUID, which is in no set.
   */
  static key(id: string, key: Uint32Array): boolean {
    if (id.length !== 36) return false;
    let word = 0;
    let digits = 0;
    for (let i = 0; i < 36; i += 1) {
      if (i === 8 || i === 13 || i === 18 || i === 23) {
        if (id.charCodeAt(i) !== 45) return false;
        continue;
      }
      const c = id.charCodeAt(i);
      // '0'-'9' are 0x30-0x39, 'a'-'f' 0x61-0x66.
      const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (digit < 0) return false;
      word = word * 16 + digit;
      digits += 1;
      if (digits % 8 === 0) {
        key[digits / 8 - 1] = word;
        word = 0;
      }
    }
    return true;
  }

  private static readonly probe = new Uint32Array(4);

  has(id: string): boolean {
    return this.words.length > 0 && IdSet.key(id, IdSet.probe) && this.hasKey(IdSet.probe);
  }

  /** Whether the id whose words IdSet.key wrote is in the set (one id read once for several sets). */
  hasKey(key: Uint32Array): boolean {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = middle * 4;
      let order = 0;
      for (let w = 0; w < 4 && order === 0; w += 1) order = this.words[at + w]! - key[w]!;
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}

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
  /** How many people are remembered, and how many ids they weigh in all (the bench's memory figure). */
  stats(): { viewers: number; ids: number };
}

/**
 * How long after a write its author's pages read their flags from the database on every process (the write's
 * answer sets the cookie for this long): far longer than an event takes to reach the other processes.
 */
export const VIEWER_STATE_MARK_MS = 3000;

/** Someone with more reactions, bookmarks and follows than this is not remembered: their pages read their flags. */
export const VIEWER_STATE_MAX_IDS = 20_000;

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
 */
export function createViewerStateCache({
  db,
  bus,
  maxIds = 2_000_000,
  now = () => performance.now(),
}: {
  db: Db;
  bus: EventBus;
  maxIds?: number;
  now?: () => number;
}): ViewerStateCache {
  const memory = createUserMemory<ViewerState | typeof TOO_MANY>({
    maxSize: maxIds,
    sizeOf: (state) =>
      state === TOO_MANY ? 1 : 1 + state.liked.size + state.disliked.size + state.bookmarked.size + state.follows.size,
    load,
  });
  /** People who wrote lately (on any process), until when (this process's `now`). */
  const writers = new Map<string, number>();

  bus.subscribe(
    (event) => {
      if (event.type === 'viewer-changed') memory.forget([event.userId]);
      else if (event.type === 'relations-changed') memory.forget(event.userIds);
      else if (event.type === 'author-changed' || event.type === 'account-deleted') memory.forget([event.userId]);
    },
    () => memory.clear(),
  );

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
    forget: memory.forget,
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
    stats() {
      let ids = 0;
      for (const state of memory.values()) {
        if (state !== TOO_MANY)
          ids += state.liked.size + state.disliked.size + state.bookmarked.size + state.follows.size;
      }
      return { viewers: memory.size, ids };
    },
  };
}
