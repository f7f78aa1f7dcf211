import type { ServerContext } from '../../context.js';
import { createIdempotency } from '../../lib/idempotency.js';
import { commentsRoutes, type PostAnswers } from './comments.routes.js';
import { createCommentsService, type CommentedPostCache } from './comments.service.js';

/**
 * The comments module: comments and their votes. A comment's routes answer with its post, and the post
 * cache holds each post's newest comments: both the posts module's, handed in.
 */
export async function wireComments(
  shared: ServerContext,
  { posts }: { posts: { posts: PostAnswers; cache: CommentedPostCache } },
) {
  const { app, db, guards, reads } = shared;
  const comments = createCommentsService({ db, reads, cache: posts.cache });
  const idempotency = createIdempotency(db, 'comment');
  await app.register(commentsRoutes, { prefix: '/api', comments, posts: posts.posts, guards, idempotency });
  return { comments };
}

export type CommentsModule = Awaited<ReturnType<typeof wireComments>>;
