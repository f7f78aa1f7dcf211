import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  BlockResponse,
  ErrorBody,
  MutedWord,
  MutedWordBody,
  MutedWordParams,
  MutedWords,
  MuteResponse,
  PageQuery,
  RemotePersonParams,
  SAFETY_ERRORS,
  SAFETY_LIMITS,
  SafetyUserPage,
  UsernameParams,
} from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { SafetyService } from './safety.service.js';

const duplicate = { 409: Type.Object(ErrorBody.properties, { description: 'You mute this word already' }) };

/**
 * What a block hides, for every route's description: the same words in the docs of block and of the
 * routes it refuses.
 */
const BLOCK_EFFECTS =
  "A block works both ways: neither of you sees the other's posts, comments, likes, follows, profile (the blocked " +
  'person gets 404 for yours), suggestions, search results, mentions, notifications or live frames, and your ' +
  'follows of each other end. The blocked person is not told. Liking, disliking, bookmarking, commenting on or ' +
  "voting on comments of the other's posts answer exactly as for a post that does not exist (404, the same " +
  `message), so a block cannot be probed; following them answers 403 "${SAFETY_ERRORS.blocked}" to the one who ` +
  'blocked, and 404 (no such user) to the one blocked.';

/** Block, mute and muted words (issue 23). */
export const safetyRoutes: FastifyPluginAsyncTypebox<{ safety: SafetyService; guards: AuthGuards }> = async (
  app,
  { safety, guards },
) => {
  for (const [method, on] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/users/:username/block',
      preHandler: guards.requireUser,
      schema: {
        tags: ['safety'],
        summary: on ? 'Block someone' : 'Unblock someone',
        description: on
          ? `Idempotent (blocking again answers the same). ${BLOCK_EFFECTS} Yourself: 400 "${SAFETY_ERRORS.cannotBlockSelf}"; unknown user: 404.`
          : `Idempotent: unblocking someone you do not block answers { blocked: false } too. Follows ended by the block stay ended. Yourself: 400; unknown user: 404.`,
        security: bearerAuth,
        params: UsernameParams,
        response: { 200: BlockResponse, ...errorResponses(400, 401, 404) },
      },
      handler: (request) =>
        on
          ? safety.block(request.userId!, request.params.username)
          : safety.unblock(request.userId!, request.params.username),
    });

    app.route({
      method,
      url: '/users/:username/mute',
      preHandler: guards.requireUser,
      schema: {
        tags: ['safety'],
        summary: on ? 'Mute someone' : 'Unmute someone',
        description:
          (on
            ? 'Idempotent. Their posts leave your Home, Explore, tag pages and search, and their comments are hidden from you; nothing else changes (you still follow each other; they are not told; their profile and each post stay reachable). '
            : 'Idempotent: unmuting someone you do not mute answers { muted: false } too. ') +
          `Yourself: 400 "${SAFETY_ERRORS.cannotMuteSelf}"; unknown user: 404.`,
        security: bearerAuth,
        params: UsernameParams,
        response: { 200: MuteResponse, ...errorResponses(400, 401, 404) },
      },
      handler: (request) =>
        on
          ? safety.mute(request.userId!, request.params.username)
          : safety.unmute(request.userId!, request.params.username),
    });
  }

  // Someone on another server (issue 39), named by a follower's or notification actor's `_id`.
  for (const [method, on] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/remote-people/:id/block',
      preHandler: guards.requireUser,
      schema: {
        tags: ['safety'],
        summary: on ? 'Block someone on another server' : 'Unblock someone on another server',
        description: on
          ? 'Idempotent. Their follow of you ends, their likes and boosts of your works go (with the counts), their ' +
            'notifications to you go; from then on their follows, likes and boosts of you or your works do nothing, ' +
            'and nothing of yours is delivered to them. A `Block` is sent to their server (Mastodon then drops you ' +
            'from their follows). Someone not known here: 404.'
          : 'Idempotent. An `Undo` of the Block is sent to their server; what the block ended stays ended. Someone ' +
            'not known here: 404.',
        security: bearerAuth,
        params: RemotePersonParams,
        response: { 200: BlockResponse, ...errorResponses(400, 401, 404) },
      },
      handler: (request) =>
        on
          ? safety.blockRemote(request.userId!, request.params.id)
          : safety.unblockRemote(request.userId!, request.params.id),
    });
  }

  for (const list of ['blocks', 'mutes'] as const) {
    app.get(
      `/users/me/${list}`,
      {
        preHandler: guards.requireUser,
        schema: {
          tags: ['safety'],
          summary: list === 'blocks' ? 'The people you block' : 'The people you mute',
          description: 'The most recent first. Keyset paging: pass nextCursor as cursor; null on the last page.',
          security: bearerAuth,
          querystring: PageQuery,
          response: { 200: SafetyUserPage, ...errorResponses(400, 401) },
        },
      },
      (request) => safety[list](request.userId!, request.query),
    );
  }

  app.get(
    '/users/me/muted-words',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['safety'],
        summary: 'Your muted words and #tags',
        description: `Every one (at most ${SAFETY_LIMITS.mutedWordsMax}), the most recent first.`,
        security: bearerAuth,
        response: { 200: MutedWords, ...errorResponses(401) },
      },
    },
    (request) => safety.mutedWords(request.userId!),
  );

  app.post(
    '/users/me/muted-words',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['safety'],
        summary: 'Mute a word or a #tag',
        description:
          'Posts whose text holds the word (a whole word, any letter case), or that carry the #tag, leave your Home, ' +
          'Explore, tag pages and search; your own posts stay. GET /api/posts/{id} still answers such a post, with ' +
          `viewer.mutedWord set. 1 to ${SAFETY_LIMITS.mutedWordMax} characters after trimming; at most ` +
          `${SAFETY_LIMITS.mutedWordsMax} (400 "${SAFETY_ERRORS.tooManyMutedWords}"); one you mute already, in any ` +
          `letter case: 409 "${SAFETY_ERRORS.mutedWordDuplicate}".`,
        security: bearerAuth,
        body: MutedWordBody,
        response: { 201: MutedWord, ...errorResponses(400, 401), ...duplicate },
      },
    },
    async (request, reply) => reply.code(201).send(await safety.addMutedWord(request.userId!, request.body.word)),
  );

  app.delete(
    '/users/me/muted-words/:word',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['safety'],
        summary: 'Unmute a word or a #tag',
        description: `The word as listed, in any letter case (a #tag URL-encoded: %23). One you do not mute: 404 "${SAFETY_ERRORS.mutedWordNotFound}".`,
        security: bearerAuth,
        params: MutedWordParams,
        response: { 204: Type.Null({ description: 'Unmuted' }), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await safety.removeMutedWord(request.userId!, request.params.word);
      return reply.code(204).send(null);
    },
  );
};
