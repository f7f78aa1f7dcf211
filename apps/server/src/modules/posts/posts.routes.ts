import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  CreatePostBody,
  EditPostBody,
  ERRORS,
  ExploreQuery,
  IdParams,
  POST_LANGUAGE_ERRORS,
  PostListQuery,
  PostPage,
  PostResponse,
  PostWriteResponse,
  UsernameParams,
} from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import { PreferHeader, prefersMinimal } from '../../lib/prefer.js';
import { sendJson, type JsonText } from '../../lib/json-text.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { PostsService } from './posts.service.js';

const PAGING = 'Keyset paging: pass nextCursor as cursor for the next page; nextCursor is null on the last page.';

export const postsRoutes: FastifyPluginAsyncTypebox<{ posts: PostsService; guards: AuthGuards }> = async (
  app,
  { posts, guards },
) => {
  /** What a write answers: the post written and, unless the client prefers minimal, the first page. */
  async function writeResult(request: FastifyRequest, post: JsonText | undefined) {
    if (prefersMinimal(request)) return post ? { post } : {};
    const first = await posts.list({}, request.userId);
    return { ...first, ...(post ? { post } : {}) };
  }

  app.get(
    '/posts',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['posts'],
        summary: 'All posts (Explore)',
        description: `${PAGING} With a token, each post's viewer flags are filled in. open, kind, currency, priceMin and priceMax narrow it to the works of artists open for commissions (issue 42; a price needs its currency, and artists pricing in another currency are left out: 400 otherwise).`,
        querystring: ExploreQuery,
        response: { 200: PostPage, ...errorResponses(400) },
      },
    },
    async (request, reply) => sendJson(reply, await posts.list(request.query, request.userId)),
  );

  app.get(
    '/feed',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['posts'],
        summary: 'Home feed: your posts and those of the people you follow',
        description: PAGING,
        security: bearerAuth,
        querystring: PostListQuery,
        response: { 200: PostPage, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => sendJson(reply, await posts.feed(request.query, request.userId!)),
  );

  app.get(
    '/posts/liked',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['posts'],
        summary: 'Posts you like, most recently liked first (profile Liked tab)',
        description: PAGING,
        security: bearerAuth,
        querystring: PostListQuery,
        response: { 200: PostPage, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => sendJson(reply, await posts.liked(request.query, request.userId!)),
  );

  app.get(
    '/posts/user/:username',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['posts'],
        summary: "One user's posts",
        description: PAGING,
        params: UsernameParams,
        querystring: PostListQuery,
        response: { 200: PostPage, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, await posts.byUsername(request.params.username, request.query, request.userId)),
  );

  app.get(
    '/posts/:id',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['posts'],
        summary: 'One post',
        params: IdParams,
        response: { 200: PostResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) => sendJson(reply, { post: await posts.getPost(request.params.id, request.userId) }),
  );

  app.post(
    '/posts',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['posts'],
        summary: 'Create a post',
        description:
          'content is required (trimmed, at most 2000 characters). mediaIds attaches up to 20 pictures you ' +
          'uploaded with POST /api/media (purpose post), in order; mediaId, one picture, still works. Without ' +
          'pictures the post shows the default picture. 400 for more than 20, an id listed twice, someone ' +
          `else's picture, an avatar, a picture already in another post ("${ERRORS.pictureInUse}") or both ` +
          'mediaIds and mediaId; 404 for an unknown or deleted picture. processMediaIds attaches up to 10 process ' +
          'pictures (sketch, lines, flats…: issue 41), uploaded the same way, in order, refused as the pictures are ' +
          '(and a picture listed in both lists). Nothing is written when one is refused. language (issue 43) says ' +
          'what language the text is in, a BCP 47 tag (en, ja, pt-BR) kept in its canonical form; a malformed one: ' +
          `400 "${POST_LANGUAGE_ERRORS.malformed}".`,
        security: bearerAuth,
        headers: PreferHeader,
        body: CreatePostBody,
        response: { 201: PostWriteResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const post = await posts.create(request.userId!, request.body);
      return sendJson(reply.code(201), await writeResult(request, post));
    },
  );

  app.post(
    '/posts/edit/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['posts'],
        summary: 'Edit your post',
        description:
          'From postData: content, its language (a BCP 47 tag; null: not said), the pictures, and the rights and ' +
          'warnings (contentWarning, commentPolicy, ' +
          'licence, aiGenerated, downloadable), each left as it is when left out; any other field is ignored. mediaIds is the ' +
          'whole new list, in order (add, remove and reorder in one edit; [] removes them all); mediaId one ' +
          "picture in place of all, null none. An edit that changes something is kept in the work's history " +
          '(GET /api/posts/{id}/history) and the post says when it was edited (editedAt); a picture taken out of ' +
          'the post is kept there for its author, no longer shown to anyone else. ' +
          'processMediaIds is the whole new list of process pictures (issue 41; [] removes them all, left out keeps ' +
          'them); a process picture taken out is kept in the history too. The ' +
          `pictures are refused as on create, and nothing changes then. Another user's post: 400 "${ERRORS.editPostNotOwner}".`,
        security: bearerAuth,
        headers: PreferHeader,
        params: IdParams,
        body: EditPostBody,
        response: { 201: PostWriteResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const post = await posts.edit(request.userId!, request.params.id, request.body.postData);
      return sendJson(reply.code(201), await writeResult(request, post));
    },
  );

  app.delete(
    '/posts/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['posts'],
        summary: 'Delete your post',
        description: `Deletes its comments, likes, bookmarks and picture files (its process pictures' too). Another user's post: 400 "${ERRORS.deletePostNotOwner}".`,
        security: bearerAuth,
        headers: PreferHeader,
        params: IdParams,
        response: { 201: PostWriteResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await posts.remove(request.userId!, request.params.id);
      return sendJson(reply.code(201), await writeResult(request, undefined));
    },
  );

  for (const kind of ['like', 'dislike'] as const) {
    app.post(
      `/posts/${kind}/:id`,
      {
        preHandler: guards.requireUser,
        schema: {
          tags: ['posts'],
          summary: kind === 'like' ? 'Like a post' : 'Dislike a post (the heart’s “unlike”)',
          description:
            kind === 'like'
              ? `Replaces your dislike, if any; likeCount + 1. Already liked: 400 "${ERRORS.alreadyLiked}".`
              : `Replaces your like, if any (likeCount − 1), and records a dislike. likeCount 0: 400 "${ERRORS.likeBelowZero}"; already disliked: 400 "${ERRORS.alreadyDisliked}". likeCount always equals the number of users who like the post, so a dislike from someone who did not like it leaves likeCount as it is.`,
          security: bearerAuth,
          headers: PreferHeader,
          params: IdParams,
          response: { 201: PostWriteResponse, ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) => {
        const post = await posts.react(request.userId!, request.params.id, kind);
        return sendJson(reply.code(201), await writeResult(request, post));
      },
    );
  }
};
