import { ERRORS, PAGE_LIMITS, type PostListQuery } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { extractHashtags } from '../../lib/hashtags.js';
import { MEDIA_NOT_FOUND, type MediaService } from '../media/index.js';
import { usernameExists } from '../users/index.js';
import {
  lockPostRow,
  POST_LISTS,
  selectSearchMatches,
  updatePostRow,
  type PostChanges,
  selectPostKeys,
  selectPostKey,
  selectPostPage,
  selectPostsByIds,
  reactToPost,
  type PageRequest,
  type PostKeyRow,
  type PostOrder,
} from './posts.sql.js';
import { personalize, votedCommentIds, type PostCache, type SearchHit } from './posts.cache.js';
import { selectViewerVotes } from '../comments/index.js';
import type { SearchCache } from '../../lib/search-cache.js';
import { rankedPage } from '../../lib/keyset.js';
import { deletePostRow, insertPost, setBookmarkRow } from '../../actions/posts.js';
import { toSharedPost } from './posts.presenter.js';
import type { JsonText } from '../../lib/json-text.js';

/** A page of posts, each already serialized (send it with `sendJson`). */
export interface PostPageResult {
  posts: JsonText[];
  nextCursor: string | null;
}

/** Search order: the most relevant first, then the newest, then by id (as the cursor's keyset). */
const byRelevance = (a: SearchHit, b: SearchHit): number =>
  b.rank - a.rank || b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function cleanContent(content: string): string {
  const trimmed = content.trim();
  if (!trimmed) throw badRequest(ERRORS.postContentEmpty);
  return trimmed;
}

export function createPostsService({
  db,
  media,
  cache,
  searches,
}: {
  db: Db;
  media: MediaService;
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
    const posts: JsonText[] = [];
    for (const row of rows) {
      const post = shared.get(row.id);
      // Deleted between the two reads: the page is one shorter, its cursor unchanged.
      if (post) posts.push(personalize(post, row, viewerId, votes));
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

  /** Locks the post row for the rest of the transaction: reactions to one post take turns. */
  async function lockPost(tx: Db, postId: string) {
    if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
    const row = await lockPostRow(tx, postId);
    if (!row) throw notFound(ERRORS.postNotFound);
    return row;
  }

  async function attachablePicture(tx: Db, userId: string, mediaId: string) {
    const row = await media.findOwned(userId, mediaId, { purpose: 'post', db: tx });
    return row.id;
  }

  /** The newest matching posts, ranked: by text relevance, then newest (see selectSearchMatches). */
  async function searchHits(terms: string): Promise<SearchHit[]> {
    const rows = await selectSearchMatches(db, terms);
    return rows
      .map((row) => ({ id: row.id, rank: Number(row.rank), time: new Date(row.created_at).getTime() }))
      .sort(byRelevance);
  }

  const mapPictureInUse = (error: unknown): never => {
    if (isUniqueViolation(error, 'posts_media_key')) throw badRequest(ERRORS.pictureInUse);
    // Deleted between the owner's check and the write.
    if (isForeignKeyViolation(error, 'posts_media_id_media_id_fk')) throw notFound(MEDIA_NOT_FOUND);
    throw error;
  };

  return {
    getPost,

    /** Everyone's posts (Explore). */
    list: (query: PostListQuery, viewerId: string | null) =>
      page({ ...query, ...POST_LISTS.everyone(), order: query.sort ?? 'latest', viewerId }),

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
      if (result.posts.length === 0 && !(await usernameExists(db, username))) throw notFound(ERRORS.userNotFound);
      return result;
    },

    /** The posts the viewer likes, the most recently liked first (the profile's Liked tab). */
    liked: (query: PostListQuery, viewerId: string) =>
      page({ ...query, ...POST_LISTS.liked(viewerId), order: 'reacted' satisfies PostOrder, viewerId }),

    /** The viewer's bookmarks, the most recently saved first (the profile's Saved tab). */
    bookmarked: (query: PostListQuery, viewerId: string) =>
      page({ ...query, ...POST_LISTS.bookmarked(viewerId), order: 'bookmarked' satisfies PostOrder, viewerId }),

    /**
     * Posts whose words start with every word of `q`: the newest 500 such posts ranked by text
     * relevance, then newest; or, for a `#hashtag`, every post that carries it, newest first.
     */
    async search(q: string, query: PostListQuery, viewerId: string | null): Promise<PostPageResult> {
      const trimmed = q.trim();
      const [tag] = trimmed.startsWith('#') ? extractHashtags(trimmed) : [];
      if (tag) return page({ ...query, ...POST_LISTS.tagged(tag), order: 'latest', viewerId });
      const words =
        trimmed
          .toLowerCase()
          .match(/[\p{L}\p{N}_]+/gu)
          ?.slice(0, 8) ?? [];
      if (words.length === 0) return { posts: [], nextCursor: null };
      const terms = words.map((word) => `${word}:*`).join(' & ');
      const hits = await searches.hits(terms, () => searchHits(terms));
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
      );
      const keys = new Map(found.map((row) => [row.id, row]));
      const rows = chosen.flatMap((hit) => keys.get(hit.id) ?? []);
      return { posts: await assemble(rows, viewerId), nextCursor };
    },

    async create(userId: string, input: { content: string; mediaId?: string | null | undefined }): Promise<JsonText> {
      const content = cleanContent(input.content);
      const mediaId = input.mediaId ? (await media.findOwned(userId, input.mediaId, { purpose: 'post' })).id : null;
      const postId = await insertPost(db, { authorId: userId, content, tags: extractHashtags(content), mediaId }).catch(
        mapPictureInUse,
      );
      searches.clear();
      return getPost(postId, userId);
    },

    /** Only content and the picture change; the replaced picture's files are deleted. */
    async edit(userId: string, postId: string, data: { content?: string; mediaId?: string | null }): Promise<JsonText> {
      const replaced = await db
        .transaction(async (tx) => {
          const post = await lockPost(tx, postId);
          if (post.authorId !== userId) throw badRequest(ERRORS.editPostNotOwner);
          const changes: PostChanges = {};
          if (data.content !== undefined) {
            changes.content = cleanContent(data.content);
            changes.tags = extractHashtags(changes.content);
          }
          if (data.mediaId !== undefined && data.mediaId !== post.mediaId) {
            changes.mediaId = data.mediaId === null ? null : await attachablePicture(tx, userId, data.mediaId);
          }
          if (Object.keys(changes).length === 0) return null;
          await updatePostRow(tx, postId, changes);
          return changes.mediaId !== undefined ? post.mediaId : null;
        })
        .catch(mapPictureInUse);
      cache.invalidate(postId);
      searches.clear();
      if (replaced) await media.deleteMedia(replaced);
      return getPost(postId, userId);
    },

    /** Deletes the post with its reactions, comments and bookmarks (counters kept exact), then its files. */
    async remove(userId: string, postId: string): Promise<void> {
      const mediaId = await db.transaction(async (tx) => {
        const post = await lockPost(tx, postId);
        if (post.authorId !== userId) throw badRequest(ERRORS.deletePostNotOwner);
        await deletePostRow(tx, postId, userId);
        return post.mediaId;
      });
      cache.invalidate(postId);
      searches.clear();
      if (mediaId) await media.deleteMedia(mediaId);
    },

    /**
     * Like: refused when already liked; otherwise replaces a dislike and adds one to likeCount.
     * Dislike (the heart's "unlike"): refused when likeCount is 0 or already disliked; otherwise it
     * replaces the viewer's like (likeCount − 1) and records the dislike. likeCount is always the
     * number of like rows, dislikeCount the number of dislike rows.
     */
    async react(userId: string, postId: string, kind: 'like' | 'dislike'): Promise<JsonText> {
      if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
      const outcome = await reactToPost(db, postId, userId, kind);
      if (!outcome.found) throw notFound(ERRORS.postNotFound);
      if (!outcome.changed) {
        throw badRequest(
          kind === 'like'
            ? ERRORS.alreadyLiked
            : Number(outcome.like_count) === 0
              ? ERRORS.likeBelowZero
              : ERRORS.alreadyDisliked,
        );
      }
      cache.invalidate(postId);
      return getPost(postId, userId);
    },

    async bookmark(userId: string, postId: string, add: boolean): Promise<void> {
      if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
      const outcome = await setBookmarkRow(db, userId, postId, add);
      if (!outcome.found) throw notFound(ERRORS.postNotFound);
      if (!outcome.changed) throw badRequest(add ? ERRORS.alreadyBookmarked : ERRORS.notBookmarked);
    },
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
