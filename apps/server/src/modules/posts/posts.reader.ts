import { ERRORS, PAGE_LIMITS, type PostListQuery } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { extractHashtags } from '../../lib/hashtags.js';
import type { SearchCache } from '../../lib/search-cache.js';
import { rankedPage } from '../../lib/keyset.js';
import type { JsonText } from '../../lib/json-text.js';
import { usernameExists } from '../users/index.js';
import { selectViewerVotes } from '../comments/index.js';
import {
  POST_LISTS,
  selectPostKey,
  selectPostKeys,
  selectPostPage,
  selectPostsByIds,
  selectSearchMatches,
  selectWorksBy,
  type PageRequest,
  type PostKeyRow,
  type PostOrder,
} from './posts.sql.js';
import {
  embeddedUserIds,
  personalize,
  votedCommentIds,
  type HiddenPeople,
  type PostCache,
  type SearchHit,
} from './posts.cache.js';
import { blockedViewer, selectHiddenAmong } from '../safety/index.js';
import { toSharedPost } from './posts.presenter.js';

/** A page of posts, each already serialized (send it with `sendJson`). */
export interface PostPageResult {
  posts: JsonText[];
  nextCursor: string | null;
}

/** The newest works of each artist a search names that it shows. */
const ARTIST_WORKS_IN_SEARCH = 20;
/** An artist's work ranks above any text match (ts_rank stays below 1 for the short texts of posts). */
const ARTIST_WORK_RANK = 10;

/** Search order: the most relevant first, then the newest, then by id (as the cursor's keyset). */
const byRelevance = (a: SearchHit, b: SearchHit): number =>
  b.rank - a.rank || b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Every read of posts (lists, search, one post), each post as its viewer sees it: what anyone sees from
 * the post cache, the counters and the viewer's flags read per request.
 */
export function createPostReader({
  db,
  cache,
  searches,
}: {
  db: Db;
  cache: PostCache;
  searches: SearchCache<SearchHit>;
}) {
  /**
   * Each post as the viewer sees it, in the order of `rows`: the shared part from the cache (with the
   * newest comments), the rest from `rows`, and the viewer's votes on the shown comments in one query,
   * only when signed in and some of them have votes that the cache does not know yet.
   */
  async function assemble(rows: PostKeyRow[], viewerId: string | null): Promise<JsonText[]> {
    const shared = await cache.resolve(
      rows.map((row) => row.id),
      async (ids) => (await selectPostsByIds(db, ids)).map(toSharedPost),
    );
    const voted = viewerId === null ? [] : votedCommentIds(shared.values());
    const votes =
      voted.length > 0
        ? await cache.viewerVotes(viewerId!, voted, (ids) => selectViewerVotes(db, viewerId!, ids))
        : undefined;
    // Blocks and mutes (issue 23): the embedded lists are shared by all viewers, so the people this viewer
    // does not see are left out here, read once per page among those the lists show (bounded by the page).
    let hidden: HiddenPeople | undefined;
    if (viewerId !== null && rows.some((row) => row.viewer_hides)) {
      const ids = embeddedUserIds(shared.values()).filter((id) => id !== viewerId);
      if (ids.length > 0) hidden = await selectHiddenAmong(db, viewerId, ids);
    }
    const posts: JsonText[] = [];
    for (const row of rows) {
      const post = shared.get(row.id);
      // Deleted between the two reads: the page is one shorter, its cursor unchanged.
      if (post) posts.push(personalize(post, row, viewerId, votes, hidden));
    }
    return posts;
  }

  async function page(request: Omit<PageRequest, 'limit'> & { limit?: number }): Promise<PostPageResult> {
    const { rows, nextCursor } = await selectPostPage(db, { ...request, limit: request.limit ?? PAGE_LIMITS.default });
    return { posts: await assemble(rows, request.viewerId), nextCursor };
  }

  /**
   * One post as the viewer sees it, as JSON (GET /api/posts/{id} and every write's answer): its counters
   * and the viewer's flags in one query, the rest as on a page (see assemble).
   */
  async function getPost(postId: string, viewerId: string | null): Promise<JsonText> {
    if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
    const row = await selectPostKey(db, postId, viewerId);
    const [post] = row ? await assemble([row], viewerId) : [];
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

  return {
    getPost,

    /** These posts as the viewer sees them, in the order of `ids`; unknown or deleted ones are left out. */
    async getPosts(ids: readonly string[], viewerId: string | null): Promise<JsonText[]> {
      const wanted = ids.filter(isUuid);
      if (wanted.length === 0) return [];
      const keys = new Map((await selectPostKeys(db, wanted, viewerId)).map((row) => [row.id, row]));
      return assemble(
        wanted.flatMap((id) => keys.get(id) ?? []),
        viewerId,
      );
    },

    /** Everyone's posts (Explore). */
    list: (query: PostListQuery, viewerId: string | null) =>
      page({ ...query, ...POST_LISTS.everyone(viewerId), order: query.sort ?? 'latest', viewerId }),

    /** The home feed: the viewer's own posts and those of the people they follow. */
    feed: (query: PostListQuery, viewerId: string) =>
      page({ ...query, ...POST_LISTS.feed(viewerId), order: query.sort ?? 'latest', viewerId }),

    async byUsername(username: string, query: PostListQuery, viewerId: string | null): Promise<PostPageResult> {
      const result = await page({
        ...query,
        ...POST_LISTS.byUsername(username),
        order: query.sort ?? 'latest',
        viewerId,
      });
      // A page with posts shows the author exists: only an empty one (no posts yet, or past the last)
      // asks whether there is such a user at all.
      // Someone who blocked the viewer is not there for them (issue 23); their posts are hidden anyway.
      if (
        result.posts.length === 0 &&
        (!(await usernameExists(db, username)) || (viewerId !== null && (await blockedViewer(db, username, viewerId))))
      )
        throw notFound(ERRORS.userNotFound);
      return result;
    },

    /** The posts carrying a tag (lower case, without '#'): the tag page, in the three sorts. */
    tagged: (tag: string, query: PostListQuery, viewerId: string | null) =>
      page({ ...query, ...POST_LISTS.tagged(tag, viewerId), order: query.sort ?? 'latest', viewerId }),

    /** The posts the viewer likes, the most recently liked first (the profile's Liked tab). */
    liked: (query: PostListQuery, viewerId: string) =>
      page({ ...query, ...POST_LISTS.liked(viewerId), order: 'reacted' satisfies PostOrder, viewerId }),

    /** The viewer's bookmarks, the most recently saved first (the profile's Saved tab). */
    bookmarked: (query: PostListQuery, viewerId: string) =>
      page({ ...query, ...POST_LISTS.bookmarked(viewerId), order: 'bookmarked' satisfies PostOrder, viewerId }),

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
      if (tag) return page({ ...query, ...POST_LISTS.tagged(tag, viewerId), order: 'latest', viewerId });
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
      const found = await selectPostKeys(
        db,
        chosen.map((hit) => hit.id),
        viewerId,
        { asList: true },
      );
      const keys = new Map(found.map((row) => [row.id, row]));
      const rows = chosen.flatMap((hit) => keys.get(hit.id) ?? []);
      return { posts: await assemble(rows, viewerId), nextCursor };
    },
  };
}
