import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ERRORS, Post, PostIdParams, PostListQuery } from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import { prefersMinimal } from '../../lib/prefer.js';
import { sendJson } from '../../lib/json-text.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { PostsService } from './posts.service.js';

const BookmarkPage = Type.Object({
  bookmarks: Type.Array(Post, { description: 'Your bookmarked posts, the most recently saved first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

/** Bookmarks are the posts module's (its bookmarks table); their routes keep the spec's /users/ paths. */
export const bookmarksRoutes: FastifyPluginAsyncTypebox<{ posts: PostsService; guards: AuthGuards }> = async (
  app,
  { posts, guards },
) => {
  app.get(
    '/users/bookmark',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['bookmarks'],
        summary: 'Your bookmarks (profile Saved tab)',
        security: bearerAuth,
        querystring: PostListQuery,
        response: { 200: BookmarkPage, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const page = await posts.bookmarked(request.query, request.userId!);
      return sendJson(reply, { bookmarks: page.posts, nextCursor: page.nextCursor });
    },
  );

  for (const [path, add] of [
    ['/users/bookmark/:postId', true],
    ['/users/remove-bookmark/:postId', false],
  ] as const) {
    app.post(
      path,
      {
        preHandler: guards.requireUser,
        schema: {
          tags: ['bookmarks'],
          summary: add ? 'Bookmark a post' : 'Remove a bookmark',
          description: `${add ? `Already bookmarked: 400 "${ERRORS.alreadyBookmarked}"` : `Not bookmarked: 400 "${ERRORS.notBookmarked}"`}; unknown post: 404. Answers the first page of your bookmarks (an empty object with Prefer: return=minimal).`,
          security: bearerAuth,
          params: PostIdParams,
          response: { 200: Type.Partial(BookmarkPage), ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) => {
        await posts.bookmark(request.userId!, request.params.postId, add);
        if (prefersMinimal(request)) return {};
        const page = await posts.bookmarked({}, request.userId!);
        return sendJson(reply, { bookmarks: page.posts, nextCursor: page.nextCursor });
      },
    );
  }
};
