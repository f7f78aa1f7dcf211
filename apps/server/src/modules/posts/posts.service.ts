import { ERRORS } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { extractHashtags } from '../../lib/hashtags.js';
import type { SearchCache } from '../../lib/search-cache.js';
import type { JsonText } from '../../lib/json-text.js';
import { deletePostRow, insertPost, setBookmarkRow } from '../../actions/posts.js';
import { MEDIA_NOT_FOUND, type MediaService } from '../media/index.js';
import { lockPostRow, reactToPost, updatePostRow, type PostChanges } from './posts.sql.js';
import type { PostCache, SearchHit } from './posts.cache.js';
import { createPostReader } from './posts.reader.js';

export type { PostPageResult } from './posts.reader.js';

function cleanContent(content: string): string {
  const trimmed = content.trim();
  if (!trimmed) throw badRequest(ERRORS.postContentEmpty);
  return trimmed;
}

/** Posts: every read (see createPostReader) and every write, with its rules and its errors. */
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
  const reader = createPostReader({ db, cache, searches });
  const { getPost } = reader;

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

  const mapPictureInUse = (error: unknown): never => {
    if (isUniqueViolation(error, 'posts_media_key')) throw badRequest(ERRORS.pictureInUse);
    // Deleted between the owner's check and the write.
    if (isForeignKeyViolation(error, 'posts_media_id_media_id_fk')) throw notFound(MEDIA_NOT_FOUND);
    throw error;
  };

  return {
    ...reader,

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
