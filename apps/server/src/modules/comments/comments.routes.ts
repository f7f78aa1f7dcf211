import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddCommentBody,
  CommentListQuery,
  CommentPage,
  CommentParams,
  CommentWriteResponse,
  EditCommentBody,
  ERRORS,
  IdParams,
  PostIdParams,
  VoteResponse,
} from '@share-arts/contract';
import type { FastifyRequest } from 'fastify';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import { PreferHeader, prefersMinimal } from '../../lib/prefer.js';
import { sendJson } from '../../lib/json-text.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { JsonText } from '../../lib/json-text.js';
import { IDEMPOTENCY_HOURS, idempotencyKeyOf, type Idempotency } from '../../lib/idempotency.js';
import type { CommentsService } from './comments.service.js';

/**
 * The posts a comment write answers with (the spec's answers carry the post and the first page): the posts
 * module's, handed in by app.ts, since the posts module reads comments and not the other way round.
 */
export interface PostAnswers {
  getPost(postId: string, viewerId: string | null): Promise<JsonText>;
  list(query: object, viewerId: string | null): Promise<{ posts: JsonText[]; nextCursor: string | null }>;
}

export const commentsRoutes: FastifyPluginAsyncTypebox<{
  comments: CommentsService;
  posts: PostAnswers;
  guards: AuthGuards;
  /** Comment creates by Idempotency-Key (the offline queue replays them). */
  idempotency: Idempotency;
}> = async (app, { comments, posts, guards, idempotency }) => {
  /** The post the comment belongs to (with its newest comments and count) and, unless minimal, the first page. */
  async function postResult(request: FastifyRequest, postId: string, extra: object = {}) {
    const post = await posts.getPost(postId, request.userId);
    if (prefersMinimal(request)) return { post, ...extra };
    return { ...(await posts.list({}, request.userId)), post, ...extra };
  }

  app.post(
    '/posts/:id/comment',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['comments'],
        summary: 'Comment on a post',
        description: `content is trimmed and must not be empty (at most 1000 characters). 403 when the post's commentPolicy does not let you: nobody, or following and the author does not follow you. With an \`Idempotency-Key\` header (1 to 255 visible ASCII characters, one new key per comment): the same key sent again by the same person within ${IDEMPOTENCY_HOURS} hours answers the first comment (201, \`Idempotent-Replayed: true\`) and adds nothing; 409 while the first is still being made; a refused comment's key may be sent again.`,
        security: bearerAuth,
        headers: PreferHeader,
        params: IdParams,
        body: AddCommentBody,
        response: { 201: CommentWriteResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const me = request.userId!;
      const key = idempotencyKeyOf(request.headers['idempotency-key']);
      let made: Awaited<ReturnType<CommentsService['add']>> | undefined;
      const { resultId, replayed } = await idempotency.run(me, key, async () => {
        made = await comments.add(me, request.params.id, request.body.commentData.content);
        return made._id;
      });
      const comment = made ?? (await comments.getComment(resultId, me));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return sendJson(reply.code(201), await postResult(request, comment.postId, { comment }));
    },
  );

  app.get(
    '/comments/:postId',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['comments'],
        summary: "A post's comments",
        description: 'Keyset paging: pass nextCursor as cursor; null on the last page. Unknown post: 404.',
        params: PostIdParams,
        querystring: CommentListQuery,
        response: { 200: CommentPage, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, await comments.list(request.params.postId, request.query, request.userId)),
  );

  app.post(
    '/comments/edit/:postId/:commentId',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['comments'],
        summary: 'Edit your comment',
        description: `Only its author: otherwise 400 "${ERRORS.editCommentNotOwner}". A comment of another post: 404.`,
        security: bearerAuth,
        headers: PreferHeader,
        params: CommentParams,
        body: EditCommentBody,
        response: { 201: CommentWriteResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { postId, commentId } = request.params;
      const comment = await comments.edit(request.userId!, postId, commentId, request.body.content);
      return sendJson(reply.code(201), await postResult(request, postId, { comment }));
    },
  );

  app.post(
    '/comments/delete/:postId/:commentId',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['comments'],
        summary: 'Delete a comment',
        description: `Its author or the post's author: otherwise 400 "${ERRORS.deleteCommentNotOwner}".`,
        security: bearerAuth,
        headers: PreferHeader,
        params: CommentParams,
        response: { 201: CommentWriteResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { postId, commentId } = request.params;
      await comments.remove(request.userId!, postId, commentId);
      return sendJson(reply.code(201), await postResult(request, postId));
    },
  );

  for (const kind of ['up', 'down'] as const) {
    app.post(
      `/comments/${kind}vote/:postId/:commentId`,
      {
        preHandler: guards.requireUser,
        schema: {
          tags: ['comments'],
          summary: kind === 'up' ? 'Upvote a comment' : 'Downvote a comment',
          description: `Replaces your ${kind === 'up' ? 'downvote' : 'upvote'}, if any. Already ${kind}voted: 400 "${
            kind === 'up' ? ERRORS.alreadyUpvoted : ERRORS.alreadyDownvoted
          }". Answers the first page of the post's comments and the comment (the comment alone with Prefer: return=minimal).`,
          security: bearerAuth,
          headers: PreferHeader,
          params: CommentParams,
          response: { 201: VoteResponse, ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) => {
        const { postId, commentId } = request.params;
        const comment = await comments.vote(request.userId!, postId, commentId, kind);
        if (prefersMinimal(request)) return reply.code(201).send({ comment });
        const page = await comments.list(postId, {}, request.userId);
        return sendJson(reply.code(201), { ...page, comment });
      },
    );
  }
};
