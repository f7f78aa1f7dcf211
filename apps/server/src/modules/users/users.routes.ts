import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  EditUserBody,
  ERRORS,
  FollowResponse,
  PageQuery,
  Post,
  PostIdParams,
  PostListQuery,
  UserPage,
  UserResponse,
  UsernameParams,
} from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import { prefersMinimal } from '../../lib/prefer.js';
import { sendJson } from '../../lib/json-text.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { PostsService } from '../posts/posts.service.js';
import type { UsersService } from './users.service.js';

const UserIdParams = Type.Object({ userId: Type.String({ maxLength: 100 }) });
const FollowParams = Type.Object({ followUserId: Type.String({ maxLength: 100 }) });
const BookmarkPage = Type.Object({
  bookmarks: Type.Array(Post, { description: 'Your bookmarked posts, the most recently saved first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const usersRoutes: FastifyPluginAsyncTypebox<{
  users: UsersService;
  posts: PostsService;
  guards: AuthGuards;
}> = async (app, { users, posts, guards }) => {
  app.get(
    '/users',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['users'],
        summary: 'All users, newest first',
        description: 'Keyset paging: pass nextCursor as cursor; null on the last page.',
        querystring: PageQuery,
        response: { 200: UserPage, ...errorResponses(400) },
      },
    },
    (request) => users.list(request.query, request.userId),
  );

  app.get(
    '/users/suggestions',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['users'],
        summary: 'People you may want to follow',
        description:
          'People you do not follow yet: those followed by more of the people you follow first, then the most followed. Keyset paging.',
        security: bearerAuth,
        querystring: PageQuery,
        response: { 200: UserPage, ...errorResponses(400, 401) },
      },
    },
    (request) => users.suggestions(request.query, request.userId!),
  );

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

  app.get(
    '/users/by-username/:username',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['users'],
        summary: 'A user by username (any letter case)',
        params: UsernameParams,
        response: { 200: UserResponse, ...errorResponses(404) },
      },
    },
    async (request) => ({ user: await users.getByUsername(request.params.username, request.userId) }),
  );

  app.get(
    '/users/:userId',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['users'],
        summary: 'A user by id',
        params: UserIdParams,
        response: { 200: UserResponse, ...errorResponses(404) },
      },
    },
    async (request) => ({ user: await users.getUser(request.params.userId, request.userId) }),
  );

  for (const [path, follow] of [
    ['/users/follow/:followUserId', true],
    ['/users/unfollow/:followUserId', false],
  ] as const) {
    app.post(
      path,
      {
        preHandler: guards.requireUser,
        schema: {
          tags: ['users'],
          summary: follow ? 'Follow a user' : 'Unfollow a user',
          description: follow
            ? `Already following: 400 "${ERRORS.alreadyFollowing}"; yourself: 400 "${ERRORS.cannotFollowSelf}".`
            : `Not following: 400 "${ERRORS.notFollowing}".`,
          security: bearerAuth,
          params: FollowParams,
          response: { 200: FollowResponse, ...errorResponses(400, 401, 404) },
        },
      },
      (request) =>
        follow
          ? users.follow(request.userId!, request.params.followUserId)
          : users.unfollow(request.userId!, request.params.followUserId),
    );
  }

  app.post(
    '/users/edit',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['users'],
        summary: 'Edit your profile',
        description:
          'Only firstName, lastName, email, bio, link (http or https) and userPhoto change; any other field in userData is ignored.',
        security: bearerAuth,
        body: EditUserBody,
        response: { 201: UserResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const user = await users.editProfile(request.userId!, request.body.userData);
      return reply.code(201).send({ user });
    },
  );
};
