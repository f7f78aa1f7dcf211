import { IdSet } from './id-set.js';

/**
 * How many of a viewer's newest Home posts are kept: the first page and the next two at the default size
 * (and one page of the largest), which is where nearly every visit reads.
 */
export const HOME_TIMELINE_SIZE = 64;

/** How many published posts each process remembers for the timelines that have not taken them in yet. */
export const PUBLISHED_LOG_SIZE = 20_000;

/** A published post as a Home timeline takes it in (the post-published event). */
export interface PublishedPost {
  id: string;
  authorId: string;
  /** created_at in milliseconds. */
  time: number;
  tags: readonly string[];
}

/** What a page reads of a timeline: the ids and times of its posts from a place on, newest first. */
export interface TimelineSlice {
  ids: string[];
  times: number[];
  /** Whether the timeline has no posts after this slice's last one (else the database has the rest). */
  last: boolean;
}

/**
 * The ids of a viewer's newest Home posts (issue 26), newest first by (created_at, id) as the Home's keyset
 * orders them: every post of the people they follow, their own and those carrying a tag they follow, newer
 * than the last one kept, with no other condition. What else decides whether a post shows (moderation,
 * blocks, mutes, muted words, hiding AI works, deletion) is asked when a page is read, so a change to any of
 * it never leaves the timeline wrong. Kept compact: 16 bytes an id and 8 a time, 1.5 KB a viewer.
 */
export class HomeTimeline {
  private readonly words: Uint32Array;
  private readonly times: Float64Array;
  private count = 0;
  /** Whether these are all of the viewer's Home posts (none older was left out). */
  private all: boolean;
  /** Changed by every post taken in: a page that read a slice before can tell its places moved. */
  version = 0;
  /** An edit may have given an older post one of its tags: read again before the next page. */
  stale = false;

  /**
   * @param posts the newest Home posts, newest first, at most `capacity` + 1 (one more tells there are more)
   * @param tags the tags the viewer follows
   * @param merged how far in the process's published log the timeline has taken posts in
   * @param capacity how many posts it keeps
   */
  constructor(
    posts: readonly { id: string; time: number }[],
    readonly tags: ReadonlySet<string>,
    public merged: number,
    private readonly capacity = HOME_TIMELINE_SIZE,
  ) {
    this.words = new Uint32Array(capacity * 4);
    this.times = new Float64Array(capacity);
    this.all = posts.length <= capacity;
    const key = new Uint32Array(4);
    for (const post of posts.slice(0, capacity)) {
      if (!IdSet.key(post.id, key)) continue;
      this.words.set(key, this.count * 4);
      this.times[this.count] = post.time;
      this.count += 1;
    }
  }

  get size(): number {
    return this.count;
  }

  /** Where (time, key) is in the Home's order against the post at `i`: after it (older) > 0, the same 0, before < 0. */
  private compare(i: number, time: number, key: Uint32Array): number {
    const at = this.times[i]!;
    if (time !== at) return at - time;
    for (let w = 0; w < 4; w += 1) {
      const word = this.words[i * 4 + w]!;
      if (key[w] !== word) return word - key[w]!;
    }
    return 0;
  }

  /**
   * Where the posts after a cursor's (time, id) start; undefined when the cursor is past the last post kept
   * and there are more (the database reads that page) or is not an id.
   */
  startAfter(time: number, id: string): number | undefined {
    const key = new Uint32Array(4);
    if (!IdSet.key(id, key)) return undefined;
    let i = 0;
    // The cursor's post, and those newer, were on the pages before.
    while (i < this.count && this.compare(i, time, key) >= 0) i += 1;
    return i === this.count && !this.all ? undefined : i;
  }

  /** Up to `count` posts from place `from` on. */
  slice(from: number, count: number): TimelineSlice {
    const end = Math.min(this.count, from + count);
    const ids: string[] = [];
    const times: number[] = [];
    for (let i = from; i < end; i += 1) {
      ids.push(IdSet.idOf(this.words, i * 4));
      times.push(this.times[i]!);
    }
    return { ids, times, last: end === this.count && this.all };
  }

  /**
   * Takes in a post just published, at its place in the order (nothing if it is there already, or older than
   * the last one kept while there are more); past its capacity the oldest one leaves.
   */
  add(post: PublishedPost): void {
    const key = new Uint32Array(4);
    if (!IdSet.key(post.id, key)) return;
    let i = 0;
    while (i < this.count && this.compare(i, post.time, key) > 0) i += 1;
    if (i < this.count && this.compare(i, post.time, key) === 0) return;
    if (i === this.count && !this.all) return;
    if (this.count === this.capacity) {
      if (i === this.count) return;
      this.count -= 1;
      this.all = false;
    }
    this.words.copyWithin((i + 1) * 4, i * 4, this.count * 4);
    this.times.copyWithin(i + 1, i, this.count);
    this.words.set(key, i * 4);
    this.times[i] = post.time;
    this.count += 1;
    this.version += 1;
  }
}

/**
 * The posts published lately, as every process hears of them (post-published events), each with its place in
 * this process's order of hearing: a timeline takes in those after the place it has reached. A timeline that
 * fell further behind than PUBLISHED_LOG_SIZE is read again.
 */
export class PublishedLog {
  private readonly posts: PublishedPost[] = [];
  /** The place of posts[0]. */
  private start = 0;

  constructor(private readonly max = PUBLISHED_LOG_SIZE) {}

  /** The place the next post heard will have. */
  get end(): number {
    return this.start + this.posts.length;
  }

  add(post: PublishedPost): void {
    this.posts.push(post);
    if (this.posts.length > this.max * 2) {
      const dropped = this.posts.length - this.max;
      this.posts.splice(0, dropped);
      this.start += dropped;
    }
  }

  /** The posts heard from place `from` on; undefined when some of them are forgotten already. */
  since(from: number): readonly PublishedPost[] | undefined {
    if (from < this.start) return undefined;
    return from === this.end ? [] : this.posts.slice(from - this.start);
  }

  /** Forgets every post (the event listener was away: what it missed is unknown). */
  clear(): void {
    this.start = this.end;
    this.posts.length = 0;
  }
}
