import { ERRORS, LIMITS, PAGE_LIMITS, RIGHTS_ERRORS, type Comment, type CommentListQuery } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { primaryOnly, type ReadRouting } from '../../db/replicas.js';
import { HttpError, badRequest, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import {
  lockCommentRow,
  selectComment,
  selectCommentPage,
  updateCommentRow,
  voteOnComment,
  selectPostHiddenFrom,
  selectCommentPolicy,
} from './comments.sql.js';
import { deleteComment, findPost, insertComment } from '../../actions/comments.js';
import { notifyMentions } from '../../events/notification-rules.js';
import { extractMentions } from '../../lib/mentions.js';
import { blockedFromPost } from '../safety/index.js';

function cleanContent(content: string): string {
  const trimmed = content.trim();
  if (!trimmed) throw badRequest(ERRORS.commentContentEmpty);
  if (trimmed.length > LIMITS.commentContentMax) {
    throw badRequest(`content must be at most ${LIMITS.commentContentMax} characters long.`);
  }
  return trimmed;
}

/**
 * The post cache (the posts module's, handed in by app.ts), which holds each post's newest comments:
 * every change here drops the post's entry in this process at once (the answer's post list shows it),
 * and in the others by the event sent with the change.
 */
export interface CommentedPostCache {
  invalidate(postId: string): void;
  /** The viewer's votes the cache holds for a page of comments. */
  forgetVotes(userId: string): void;
}

export function createCommentsService({
  db,
  reads = primaryOnly(db),
  cache,
}: {
  db: Db;
  /** Where the reads of pages may go: a caught-up replica, or the primary (db/replicas.ts, issue 25). */
  reads?: ReadRouting;
  cache: CommentedPostCache;
}) {
  async function requirePost(tx: Db, postId: string) {
    if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
    const post = await findPost(tx, postId);
    if (!post) throw notFound(ERRORS.postNotFound);
    return post;
  }

  /** The comment, locked for the rest of the transaction; 404 unless it belongs to that post. */
  async function lockComment(tx: Db, postId: string, commentId: string) {
    if (!isUuid(commentId)) throw notFound(ERRORS.commentNotFound);
    const comment = await lockCommentRow(tx, postId, commentId);
    if (!comment) throw notFound(ERRORS.commentNotFound);
    return comment;
  }

  /** The author's comment policy: nobody, or only the people they follow (and themselves); else a 403 that says so. */
  async function requireCommentsOpen(postId: string, userId: string): Promise<void> {
    const allowed = await selectCommentPolicy(db, postId, userId);
    if (allowed?.policy === 'nobody') throw new HttpError(403, RIGHTS_ERRORS.commentsOff);
    if (allowed?.policy === 'following' && !allowed.followed) throw new HttpError(403, RIGHTS_ERRORS.commentsFollowing);
  }

  async function getComment(commentId: string, viewerId: string | null): Promise<Comment> {
    const comment = await selectComment(db, commentId, viewerId);
    if (!comment) throw notFound(ERRORS.commentNotFound);
    return comment;
  }

  return {
    getComment,

    async list(postId: string, query: CommentListQuery, viewerId: string | null) {
      if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
      const reader = reads.reader(viewerId);
      // Signed out, a post shown to signed-in people only is not there, nor its comments; nor a post a
      // moderator hid (but to its author) or removed.
      if (await selectPostHiddenFrom(reader, postId, viewerId)) throw notFound(ERRORS.postNotFound);
      // A post by someone in a blocked pair with the viewer is not there for them (issue 23).
      if (viewerId !== null && (await blockedFromPost(reader, viewerId, postId))) throw notFound(ERRORS.postNotFound);
      const page = await selectCommentPage(reader, {
        postId,
        viewerId,
        limit: query.limit ?? PAGE_LIMITS.default,
        cursor: query.cursor,
        order: query.order ?? 'oldest',
      });
      // Comments are deleted with their post, so a page with comments shows the post exists: only an empty
      // page (no comments yet, or past the last) asks whether the post is there at all.
      if (page.comments.length === 0) await requirePost(reader, postId);
      return { comments: page.comments, nextCursor: page.nextCursor };
    },

    async add(userId: string, postId: string, content: string): Promise<Comment> {
      const text = cleanContent(content);
      if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
      // A blocked pair: answered as a post that does not exist, so a block cannot be probed (issue 23).
      if (await blockedFromPost(db, userId, postId)) throw notFound(ERRORS.postNotFound);
      // Hidden or removed by a moderator (or by a suspended account): not there for them (issue 23).
      if (await selectPostHiddenFrom(db, postId, userId)) throw notFound(ERRORS.postNotFound);
      await requireCommentsOpen(postId, userId);
      const id = await insertComment(db, { postId, userId, content: text, mentions: extractMentions(text) });
      if (!id) throw notFound(ERRORS.postNotFound);
      cache.invalidate(postId);
      return getComment(id, userId);
    },

    /**
     * Only the comment's author may edit it; the edit marks it edited and sets updatedAt. An edit puts new words
     * on the post: the author's comment policy applies as to a new comment (issue 38, item 15); deleting does not.
     */
    async edit(userId: string, postId: string, commentId: string, content: string): Promise<Comment> {
      const text = cleanContent(content);
      // A post by someone in a blocked pair with the writer is not there for them (issue 23).
      if (isUuid(postId) && (await blockedFromPost(db, userId, postId))) throw notFound(ERRORS.postNotFound);
      if (isUuid(postId)) await requireCommentsOpen(postId, userId);
      await db.transaction(async (tx) => {
        await requirePost(tx, postId);
        const comment = await lockComment(tx, postId, commentId);
        if (comment.authorId !== userId) throw badRequest(ERRORS.editCommentNotOwner);
        await updateCommentRow(tx, postId, commentId, text);
        // Only the people this edit adds are notified.
        await notifyMentions(tx, { actorId: userId, usernames: extractMentions(text), postId, commentId });
      });
      cache.invalidate(postId);
      return getComment(commentId, userId);
    },

    /** The comment's author or the post's author may delete it (with its votes). */
    async remove(userId: string, postId: string, commentId: string): Promise<void> {
      if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
      if (!isUuid(commentId)) {
        await requirePost(db, postId);
        throw notFound(ERRORS.commentNotFound);
      }
      if (await blockedFromPost(db, userId, postId)) throw notFound(ERRORS.postNotFound);
      const missing = await deleteComment(db, { postId, commentId }, ({ postAuthorId, commentAuthorId }) => {
        if (commentAuthorId !== userId && postAuthorId !== userId) throw badRequest(ERRORS.deleteCommentNotOwner);
      });
      if (missing) throw notFound(missing === 'post' ? ERRORS.postNotFound : ERRORS.commentNotFound);
      cache.invalidate(postId);
    },

    /** Up and down votes exclude each other: voting one way replaces a vote the other way. */
    async vote(userId: string, postId: string, commentId: string, kind: 'up' | 'down'): Promise<Comment> {
      if (!isUuid(postId)) throw notFound(ERRORS.postNotFound);
      if (!isUuid(commentId)) {
        await requirePost(db, postId);
        throw notFound(ERRORS.commentNotFound);
      }
      const blocked = await blockedFromPost(db, userId, postId, commentId);
      if (blocked) throw notFound(blocked === 'post' ? ERRORS.postNotFound : ERRORS.commentNotFound);
      const outcome = await voteOnComment(db, { postId, commentId, userId, kind });
      if (!outcome.post_found) throw notFound(ERRORS.postNotFound);
      if (!outcome.found) throw notFound(ERRORS.commentNotFound);
      if (!outcome.changed) throw badRequest(kind === 'up' ? ERRORS.alreadyUpvoted : ERRORS.alreadyDownvoted);
      cache.invalidate(postId);
      cache.forgetVotes(userId);
      return getComment(commentId, userId);
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
