import { ERRORS, PAGE_LIMITS, type ExploreQuery, type PostListQuery } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { primaryOnly, type ReadRouting } from '../../db/replicas.js';
import { notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { extractHashtags } from '../../lib/hashtags.js';
import type { SearchCache } from '../../lib/search-cache.js';
import { rankedPage } from '../../lib/keyset.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import type { JsonText } from '../../lib/json-text.js';
import { usernameExists } from '../users/index.js';
import { commissionFilterOf } from '../commissions/index.js';
import { selectViewerVotes } from '../comments/index.js';
import {
  POST_LISTS,
  selectPostKey,
  selectPostKeys,
  selectHomeKeys,
  selectPostReactors,
  selectPostRows,
  selectPostsByIds,
  selectProcessPictures,
  selectSearchMatches,
  selectWorksBy,
  type PageRequest,
  type PostKeyRow,
  type PostOrder,
} from './posts.sql.js';
import { personalize, votedCommentIds, type PostCache, type SearchHit } from './posts.cache.js';
import { blockedViewer, NO_RELATIONS, type Relations, type RelationsCache } from '../safety/index.js';
import { toSharedPost } from './posts.presenter.js';
import { IdSet } from './id-set.js';
import type { ViewerState, ViewerStateCache } from './viewer-state.js';
import type { HomeTimeline } from './home-timeline.js';

/** A page of posts, each already serialized (send it with `sendJson`). */
export interface PostPageResult {
  posts: JsonText[];
  nextCursor: string | null;
}

/** The newest works of each artist a search names that it shows. */
const ARTIST_WORKS_IN_SEARCH = 20;
/** An artist's work ranks above any text match (ts_rank stays below 1 for the short texts of posts). */
const ARTIST_WORK_RANK = 10;

/**
 * A page that blocks and mutes empty reads at most this many times its size (then answers what it found, maybe
 * fewer posts than asked, with the cursor after the last row read): bounded whoever the viewer hides.
 */
const PAGE_READ_MAX_FACTOR = 10;

/**
 * How many rows more than `missing` to ask for when a list dropped `rate` of its rows for this viewer lately:
 * half again the expected loss, in powers of two (few distinct statements: the LIMIT is in their text).
 */
function extraRows(missing: number, rate: number): number {
  if (rate <= 0) return 0;
  const expected = (missing * Math.min(rate, 0.8)) / (1 - Math.min(rate, 0.8));
  return 2 ** Math.ceil(Math.log2(Math.max(1, expected * 1.5)));
}

/**
 * The viewer's flags on rows read without them (flagsInMemory), from the viewer's state in memory (issue 26):
 * as the statement's viewer columns would have read them. A followed author's post on Home has no reason.
 */
function fillFlags(rows: PostKeyRow[], state: ViewerState): void {
  const post = new Uint32Array(4);
  const author = new Uint32Array(4);
  for (const row of rows) {
    // Each id is read into its words once, then looked up in every set it may be in.
    const known = IdSet.key(row.id, post);
    const reacted = known && Number(row.like_count) + Number(row.dislike_count) > 0;
    row.viewer_reaction =
      reacted && state.liked.hasKey(post) ? 'like' : reacted && state.disliked.hasKey(post) ? 'dislike' : null;
    row.viewer_bookmarked = known && state.bookmarked.hasKey(post);
    row.viewer_follows_author = IdSet.key(row.author_id, author) && state.follows.hasKey(author);
    row.viewer_username = state.username;
    if (row.reason_tag && row.viewer_follows_author) row.reason_tag = null;
  }
}

/** A Home cursor's time and id (the `latest` keyset); a malformed one is a 400, as on every list. */
function homeCursor(cursor: string): { time: Date; id: string } {
  const [time, id] = decodeCursor(cursor, ['date', 'uuid']) as [Date, string];
  return { time, id };
}

/** Search order: the most relevant first, then the newest, then by id (as the cursor's keyset). */
const byRelevance = (a: SearchHit, b: SearchHit): number =>
  b.rank - a.rank || b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Every read of posts (lists, search, one post), each post as its viewer sees it: what anyone sees from
 * the post cache, the counters and the viewer's flags read per request.
 */
export function createPostReader({
  db,
  reads = primaryOnly(db),
  cache,
  searches,
  relations,
  viewerStates,
}: {
  db: Db;
  /**
   * Where the pages' rows may be read: a caught-up replica, or the primary (db/replicas.ts, issue 25).
   * The cache's fills stay on the primary: filled from a replica behind the change that emptied it, an
   * entry would keep the old post until the next change.
   */
  reads?: ReadRouting;
  cache: PostCache;
  searches: SearchCache<SearchHit>;
  relations: RelationsCache;
  /** Each viewer's reactions, bookmarks and follows in memory (issue 26); without it, read with every page. */
  viewerStates?: ViewerStateCache;
}) {
  /** The viewer's flags in memory, or null to read them with the rows (signed out, none kept, or just wrote). */
  const stateOf = (viewerId: string | null): Promise<ViewerState | null> =>
    viewerId === null || !viewerStates ? Promise.resolve(null) : viewerStates.of(viewerId);

  /** The viewer's relations and state, read side by side when not remembered. */
  const viewerOf = (viewerId: string | null): Promise<[Relations, ViewerState | null]> =>
    Promise.all([relationsOf(viewerId), stateOf(viewerId)]);

  /** What the viewer does not see of others (issue 23), remembered in memory: nothing when signed out. */
  const relationsOf = (viewerId: string | null): Promise<Relations> =>
    viewerId === null ? Promise.resolve(NO_RELATIONS) : relations.of(viewerId);

  /**
   * Each post as the viewer sees it, in the order of `rows`: the shared part from the cache (with the
   * newest comments), the rest from `rows`, and the viewer's votes on the shown comments in one query,
   * only when signed in and some of them have votes that the cache does not know yet.
   */
  async function assemble(rows: PostKeyRow[], viewerId: string | null, hidden: Relations): Promise<JsonText[]> {
    const shared = await cache.resolve(
      rows.map((row) => row.id),
      async (ids) => {
        // The process pictures of the page's posts in one more read (issue 41), beside the posts'.
        const [rows, process] = await Promise.all([selectPostsByIds(db, ids), selectProcessPictures(db, ids)]);
        return rows.map((row) => toSharedPost(row, process.get(row.id)));
      },
      (ids) => selectPostReactors(db, ids),
    );
    const voted = viewerId === null ? [] : votedCommentIds(shared.values());
    const votes =
      voted.length > 0
        ? await cache.viewerVotes(viewerId!, voted, (ids) => selectViewerVotes(db, viewerId!, ids))
        : undefined;
    const posts: JsonText[] = [];
    for (const row of rows) {
      const post = shared.get(row.id);
      // Deleted between the two reads: the page is one shorter, its cursor unchanged.
      // Blocks and mutes (issue 23): the embedded lists are shared by all viewers, so the people this viewer
      // does not see are left out here, from their relations in memory.
      if (post) posts.push(personalize(post, row, viewerId, votes, hidden.none ? undefined : hidden));
    }
    return posts;
  }

  /**
   * One keyset page of a list (`name`, the list's drop rate's key), as `viewer` sees it. The database
   * picks the rows with every condition but blocks and mutes, which are dropped here from the viewer's
   * relations in memory: those in a blocked pair with them, and on the lists that hide them
   * (`hidesMuted`), those they muted. So the statement carries no anti-join over the blocks and mutes
   * tables, and a page comes out full all the same: rows dropped are read again further down the keyset,
   * asked for in advance when the list dropped rows lately (its drop rate), within PAGE_READ_MAX_FACTOR.
   */
  async function page(
    request: Omit<PageRequest, 'limit'> & { limit?: number },
    viewer: Relations,
    name: string,
    hidesMuted: boolean,
    state: ViewerState | null,
  ): Promise<PostPageResult> {
    const limit = request.limit ?? PAGE_LIMITS.default;
    if (state) request = { ...request, flagsInMemory: true };
    const rowsDb = reads.reader(request.viewerId);
    const blocked = request.blocksInSql ? NO_RELATIONS.blocked : viewer.blocked;
    const hides = blocked.size > 0 || (hidesMuted && viewer.muted.size > 0);
    if (!hides) {
      const { rows, cursorOf } = await selectPostRows(rowsDb, request, limit + 1);
      const shown = rows.slice(0, limit);
      const nextCursor = rows.length > limit ? cursorOf(shown.at(-1)!) : null;
      if (state) fillFlags(shown, state);
      return { posts: await assemble(shown, request.viewerId, viewer), nextCursor };
    }
    const hidden = (row: PostKeyRow) => blocked.has(row.author_id) || (hidesMuted && viewer.muted.has(row.author_id));
    const rate = viewer.dropRates.get(name) ?? 0;
    const maxRead = limit * PAGE_READ_MAX_FACTOR;
    const kept: PostKeyRow[] = [];
    let cursor = request.cursor;
    let cursorOf: ((row: PostKeyRow) => string) | undefined;
    let read = 0;
    let exhausted = false;
    // One row more than the page tells whether there is a next one, as on a page without blocks.
    while (kept.length <= limit && !exhausted && read < maxRead) {
      const missing = limit + 1 - kept.length;
      const count = Math.min(maxRead - read, missing + extraRows(missing, rate));
      const batch = await selectPostRows(rowsDb, { ...request, cursor }, count);
      cursorOf = batch.cursorOf;
      read += batch.rows.length;
      exhausted = batch.rows.length < count;
      for (const row of batch.rows) if (!hidden(row)) kept.push(row);
      const last = batch.rows.at(-1);
      if (last) cursor = batch.cursorOf(last);
    }
    viewer.dropRates.set(name, 0.7 * rate + (0.3 * (read - kept.length)) / Math.max(read, 1));
    const shown = kept.slice(0, limit);
    // Past the page's last post when there is one more; at the end, none; when the bound stopped the
    // reading first, after the last row read (the next page goes on from there).
    const nextCursor = kept.length > limit ? cursorOf!(shown.at(-1)!) : exhausted ? null : (cursor ?? null);
    if (state) fillFlags(shown, state);
    return { posts: await assemble(shown, request.viewerId, viewer), nextCursor };
  }

  /**
   * One post as the viewer sees it, as JSON (GET /api/posts/{id} and every write's answer): its counters
   * and the viewer's flags in one query, the rest as on a page (see assemble).
   */
  async function getPost(postId: string, viewerId: string | null): Promise<JsonText> {
    if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
    const row = await selectPostKey(reads.reader(viewerId), postId, viewerId);
    const [post] = row ? await assemble([row], viewerId, await relationsOf(viewerId)) : [];
    if (!post) throw notFound(ERRORS.postNotFound);
    return post;
  }

  /** One post as the viewer sees it, from its row just read (a write's answer): the rest as on a page. */
  async function present(row: PostKeyRow, viewerId: string): Promise<JsonText> {
    const [post] = await assemble([row], viewerId, await relationsOf(viewerId));
    if (!post) throw notFound(ERRORS.postNotFound);
    return post;
  }

  /**
   * The newest matching posts, ranked: by text relevance, then newest (see selectSearchMatches); and
   * the newest works of the artists the words name (`artistIds`), first (rank ARTIST_WORK_RANK, above
   * any text rank), each post once.
   */
  async function searchHits(terms: string, artistIds: string[]): Promise<SearchHit[]> {
    const [rows, works] = await Promise.all([
      selectSearchMatches(db, terms),
      selectWorksBy(db, artistIds, ARTIST_WORKS_IN_SEARCH),
    ]);
    const hits = new Map<string, SearchHit>();
    for (const row of rows) {
      hits.set(row.id, { id: row.id, rank: Number(row.rank), time: new Date(row.created_at).getTime() });
    }
    for (const work of works) {
      hits.set(work.id, { id: work.id, rank: ARTIST_WORK_RANK, time: new Date(work.created_at).getTime() });
    }
    return [...hits.values()].sort(byRelevance);
  }

  /** The posts carrying a tag (lower case, without '#'), but those of people the viewer muted. */
  async function tagged(tag: string, query: ExploreQuery, viewerId: string | null): Promise<PostPageResult> {
    // Narrowed to artists open for commissions (issue 42) when the query asks (a 400 for a price without currency).
    const open = commissionFilterOf(query);
    const [viewer, state] = await viewerOf(viewerId);
    const request = {
      ...query,
      ...POST_LISTS.tagged(tag, viewerId, viewer, open),
      order: query.sort ?? 'latest',
      viewerId,
    };
    return page(request, viewer, `tagged${open ? '-open' : ''}:${request.order}`, true, state);
  }

  /**
   * A Home page out of a timeline of the viewer's (issue 26): the posts after the cursor that it holds, checked in
   * one statement by id (selectHomeKeys: what hides a post from the viewer, why a followed tag's post is there, and
   * without `state` the viewer's flags), then in memory (blocks, muted people, and whether it is still on their
   * Home), as the database's page would have them. Undefined when the timeline cannot tell the page: the cursor is
   * past what it holds, the posts left after the checks run out before the page is full while there are more, or
   * it changed while the page was read.
   */
  async function fromTimeline(
    timeline: HomeTimeline,
    { limit, after }: { limit: number; after: { time: Date; id: string } | undefined },
    viewerId: string,
    viewer: Relations,
    state: ViewerState | null,
  ): Promise<PostPageResult | undefined> {
    const start = after ? timeline.startAfter(after.time.getTime(), after.id) : 0;
    if (start === undefined) return undefined;
    let from = start;
    const version = timeline.version;
    const kept: { row: PostKeyRow; time: number }[] = [];
    let last = false;
    // One post more than the page tells whether there is a next one.
    while (kept.length <= limit && !last) {
      const slice = timeline.slice(from, limit + 1 - kept.length);
      last = slice.last;
      if (slice.ids.length === 0) break;
      from += slice.ids.length;
      const found = await selectHomeKeys(reads.reader(viewerId), slice.ids, viewerId, viewer, {
        followsTags: timeline.tags.size > 0,
        flagsInMemory: state !== null,
      });
      if (timeline.version !== version) return undefined;
      // The flags first: whether they follow the author is one of them. A post by someone they follow has no reason.
      if (state) fillFlags(found, state);
      else for (const row of found) if (row.viewer_follows_author) row.reason_tag = null;
      const rows = new Map(found.map((row) => [row.id, row]));
      slice.ids.forEach((id, i) => {
        const row = rows.get(id);
        if (!row || viewer.blocked.has(row.author_id) || viewer.muted.has(row.author_id)) return;
        // Still on their Home: theirs, by someone they follow, or carrying a tag they follow.
        if (row.author_id === viewerId || row.viewer_follows_author || row.reason_tag != null)
          kept.push({ row, time: slice.times[i]! });
      });
    }
    if (kept.length <= limit && !last) return undefined;
    const shown = kept.slice(0, limit);
    const end = shown.at(-1);
    const nextCursor = kept.length > limit && end ? encodeCursor([new Date(end.time), end.row.id]) : null;
    return {
      posts: await assemble(
        shown.map((post) => post.row),
        viewerId,
        viewer,
      ),
      nextCursor,
    };
  }

  return {
    getPost,
    present,

    /** These posts as the viewer sees them, in the order of `ids`; unknown or deleted ones are left out. */
    async getPosts(ids: readonly string[], viewerId: string | null): Promise<JsonText[]> {
      const wanted = ids.filter(isUuid);
      if (wanted.length === 0) return [];
      const [hidden, state] = await viewerOf(viewerId);
      const found = await selectPostKeys(reads.reader(viewerId), wanted, viewerId, { flagsInMemory: state !== null });
      if (state) fillFlags(found, state);
      const keys = new Map(found.map((row) => [row.id, row]));
      return assemble(
        wanted.flatMap((id) => keys.get(id) ?? []),
        viewerId,
        hidden,
      );
    },

    /** Everyone's posts (Explore), but those of people the viewer muted. */
    async list(query: ExploreQuery, viewerId: string | null): Promise<PostPageResult> {
      // Narrowed to artists open for commissions (issue 42) when the query asks.
      const open = commissionFilterOf(query);
      const [viewer, state] = await viewerOf(viewerId);
      const request = {
        ...query,
        ...POST_LISTS.everyone(viewerId, viewer, open),
        order: query.sort ?? 'latest',
        viewerId,
      };
      return page(request, viewer, `everyone${open ? '-open' : ''}:${request.order}`, true, state);
    },

    /**
     * The home feed: the viewer's own posts and those of the people they follow, but those they muted. Newest
     * first, its pages come from the viewer's Home timeline in memory while it holds them (see fromTimeline).
     */
    async feed(query: PostListQuery, viewerId: string): Promise<PostPageResult> {
      const [viewer, state] = await viewerOf(viewerId);
      if (viewerStates && (query.sort ?? 'latest') === 'latest') {
        const limit = query.limit ?? PAGE_LIMITS.default;
        const after = query.cursor ? homeCursor(query.cursor) : undefined;
        const timeline = state && (await viewerStates.home(viewerId, state));
        const result = timeline && (await fromTimeline(timeline, { limit, after }, viewerId, viewer, state));
        if (result) return result;
        // Not from memory (they just wrote, or the page is past the timeline): the posts after the cursor, read now
        // as a timeline is, from each person they follow when few (a walk of the newest posts would read them all).
        const fresh = await viewerStates.readHome(viewerId, 2 * limit, after);
        const page = await fromTimeline(fresh, { limit, after: undefined }, viewerId, viewer, state);
        if (page) return page;
      }
      const request = {
        ...query,
        ...POST_LISTS.feed(viewerId, viewer, state !== null),
        order: query.sort ?? 'latest',
        viewerId,
      };
      return page(request, viewer, `feed:${request.order}`, true, state);
    },

    async byUsername(username: string, query: PostListQuery, viewerId: string | null): Promise<PostPageResult> {
      // One author: the statement itself leaves them out when in a blocked pair with the viewer.
      const [viewer, state] = await viewerOf(viewerId);
      const result = await page(
        { ...query, ...POST_LISTS.byUsername(username), order: query.sort ?? 'latest', viewerId, blocksInSql: true },
        viewer,
        'byUsername',
        false,
        state,
      );
      // A page with posts shows the author exists: only an empty one (no posts yet, or past the last)
      // asks whether there is such a user at all.
      // Someone who blocked the viewer is not there for them (issue 23); their posts are hidden anyway.
      if (
        result.posts.length === 0 &&
        (!(await usernameExists(reads.reader(viewerId), username)) ||
          (viewerId !== null && (await blockedViewer(reads.reader(viewerId), username, viewerId))))
      )
        throw notFound(ERRORS.userNotFound);
      return result;
    },

    /** The posts carrying a tag (lower case, without '#'): the tag page, in the three sorts. */
    tagged,

    /** The posts the viewer likes, the most recently liked first (the profile's Liked tab). */
    async liked(query: PostListQuery, viewerId: string) {
      const [viewer, state] = await viewerOf(viewerId);
      const order: PostOrder = 'reacted';
      const request = { ...query, ...POST_LISTS.liked(viewerId), order, viewerId };
      return page(request, viewer, 'liked', false, state);
    },

    /** The viewer's bookmarks, the most recently saved first (the profile's Saved tab). */
    async bookmarked(query: PostListQuery, viewerId: string) {
      const [viewer, state] = await viewerOf(viewerId);
      const order: PostOrder = 'bookmarked';
      const request = { ...query, ...POST_LISTS.bookmarked(viewerId), order, viewerId };
      return page(request, viewer, 'bookmarked', false, state);
    },

    /**
     * Posts whose words start with every word of `q`: the newest 500 such posts ranked by text
     * relevance, then newest, after the newest works of `artistIds` (the people `q` names, found by the
     * caller); or, for a `#hashtag`, every post that carries it, newest first.
     */
    async search(
      q: string,
      query: PostListQuery,
      viewerId: string | null,
      artistIds: string[] = [],
    ): Promise<PostPageResult> {
      const trimmed = q.trim();
      const [tag] = trimmed.startsWith('#') ? extractHashtags(trimmed) : [];
      if (tag) return tagged(tag, { ...query, sort: 'latest' }, viewerId);
      const words =
        trimmed
          .toLowerCase()
          .match(/[\p{L}\p{N}_]+/gu)
          ?.slice(0, 8) ?? [];
      if (words.length === 0) return { posts: [], nextCursor: null };
      const terms = words.map((word) => `${word}:*`).join(' & ');
      const key = artistIds.length > 0 ? `${terms}|${artistIds.join(',')}` : terms;
      const hits = await searches.hits(key, () => searchHits(terms, artistIds));
      const { page: chosen, nextCursor } = rankedPage(hits, {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
        shape: ['float', 'date', 'uuid'],
        key: (hit) => [hit.rank, new Date(hit.time), hit.id],
      });
      const [hidden, state] = await viewerOf(viewerId);
      const found = await selectPostKeys(
        reads.reader(viewerId),
        chosen.map((hit) => hit.id),
        viewerId,
        { asList: true, flagsInMemory: state !== null },
      );
      if (state) fillFlags(found, state);
      const keys = new Map(found.map((row) => [row.id, row]));
      const rows = chosen.flatMap((hit) => keys.get(hit.id) ?? []);
      return { posts: await assemble(rows, viewerId, hidden), nextCursor };
    },
  };
}
