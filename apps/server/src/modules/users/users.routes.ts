import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  EditUserBody,
  ERRORS,
  FOLLOW_OUT_ERRORS,
  FollowerPage,
  FollowResponse,
  MentionSuggestions,
  MentionSuggestQuery,
  PageQuery,
  SECURITY_ERRORS,
  TAG_LIMITS,
  UserPage,
  UserResponse,
  UsernameParams,
} from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { UsersService } from './users.service.js';

const UserIdParams = Type.Object({ userId: Type.String({ maxLength: 100 }) });
const FollowParams = Type.Object({ followUserId: Type.String({ maxLength: 100 }) });

export const usersRoutes: FastifyPluginAsyncTypebox<{
  users: UsersService;
  guards: AuthGuards;
}> = async (app, { users, guards }) => {
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
    '/users/mentionable',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['users'],
        summary: 'People to suggest as someone types @',
        description: `People whose username starts with prefix (a leading @ is ignored; case does not matter), the people you follow first, then others, each by username; at most ${TAG_LIMITS.suggestMax} (default ${TAG_LIMITS.suggestDefault}). Without a token, anyone. A prefix no username can start with finds nobody.`,
        querystring: MentionSuggestQuery,
        response: { 200: MentionSuggestions, ...errorResponses(400) },
      },
    },
    (request) => users.mentionable(request.userId, request.query.prefix, request.query.limit),
  );

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

  app.get(
    '/users/:userId/followers',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['users'],
        summary: "A user's followers, here and on other servers",
        description:
          'Newest follow first, accounts here and people on other servers of the fediverse (issue 39: `remote`, ' +
          'with their handle and profile page) in one order; keyset paging: pass nextCursor as cursor, null on the ' +
          'last page. People in a blocked pair with the viewer are left out; everyone else is counted in ' +
          `followerCount. 404 "${ERRORS.userNotFound}" for no such user, or one who blocked the viewer.`,
        params: UserIdParams,
        querystring: PageQuery,
        response: { 200: FollowerPage, ...errorResponses(400, 404) },
      },
    },
    (request) => users.followers(request.params.userId, request.query, request.userId),
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
            ? `Already following: 400 "${ERRORS.alreadyFollowing}"; yourself: 400 "${ERRORS.cannotFollowSelf}". ` +
              'Someone on another server (a user with `remote`, issue 39): their server is sent a Follow and the ' +
              'follow waits for its Accept (`viewer.requested`); 403 ' +
              `"${FOLLOW_OUT_ERRORS.blocked}" when you block them, 403 "${FOLLOW_OUT_ERRORS.suspended}" when their ` +
              `server is suspended here, 503 "${FOLLOW_OUT_ERRORS.unsendable}" when this site has no public address.`
            : `Not following: 400 "${ERRORS.notFollowing}". Someone on another server: their server is sent the Undo of the Follow.`,
          security: bearerAuth,
          params: FollowParams,
          response: { 200: FollowResponse, ...errorResponses(400, 401, 403, 404, 503) },
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
          'Only firstName, lastName, bio, link (http or https) and userPhoto change; any other field in userData is ignored. ' +
          'email may be sent as it is now; a different one answers 400 ' +
          `"${SECURITY_ERRORS.emailChangeNeedsConfirmation}" and nothing is saved: the address changes with POST /api/account/email, ` +
          'after confirming who you are (issue 38).',
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
