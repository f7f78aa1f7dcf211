import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ERRORS,
  FollowedTagPage,
  FollowedTagsQuery,
  PostPage,
  TAG_LIMITS,
  TagParams,
  TagPostsQuery,
  TagState,
  TagSuggestions,
  TagSuggestQuery,
} from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import { sendJson } from '../../lib/json-text.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { TagsService } from './tags.service.js';

const PAGING = 'Keyset paging: pass nextCursor as cursor for the next page; nextCursor is null on the last page.';
const TAG_RULE = `The tag is given without its # and case does not matter; anything but 1 to ${TAG_LIMITS.maxLength} letters, digits or _ (any script) is a 400 "${ERRORS.invalidTag}".`;

export const tagsRoutes: FastifyPluginAsyncTypebox<{ tags: TagsService; guards: AuthGuards }> = async (
  app,
  { tags, guards },
) => {
  app.get(
    '/tags',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['tags'],
        summary: 'Tags to suggest as someone types # (by use)',
        description: `Tags starting with prefix (a leading # is ignored; case does not matter), the most used first, at most ${TAG_LIMITS.suggestMax} (default ${TAG_LIMITS.suggestDefault}); without a prefix, the most used tags. A prefix no tag can start with finds none.`,
        querystring: TagSuggestQuery,
        response: { 200: TagSuggestions, ...errorResponses(400) },
      },
    },
    (request) => tags.suggest(request.query.prefix, request.query.limit),
  );

  app.get(
    '/tags/:tag',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['tags'],
        summary: 'A tag: how many posts carry it, whether you follow it',
        description: `A tag no post carries yet answers postCount 0 (never 404). following is false without a token. ${TAG_RULE}`,
        params: TagParams,
        response: { 200: TagState, ...errorResponses(400) },
      },
    },
    (request) => tags.state(request.params.tag, request.userId),
  );

  app.get(
    '/tags/:tag/posts',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['tags'],
        summary: "A tag's posts (the tag page)",
        description: `The posts carrying the tag, with the sorts of GET /api/posts (latest, oldest, trending), and its filters to artists open for commissions (open, kind, currency, priceMin, priceMax: issue 42). ${PAGING} ${TAG_RULE}`,
        params: TagParams,
        querystring: TagPostsQuery,
        response: { 200: PostPage, ...errorResponses(400) },
      },
    },
    async (request, reply) => sendJson(reply, await tags.posts(request.params.tag, request.query, request.userId)),
  );

  const followSchema = (follow: boolean) => ({
    tags: ['tags'],
    summary: follow ? 'Follow a tag (its posts appear on Home)' : 'Unfollow a tag',
    description: follow
      ? `Idempotent: following a tag you follow changes nothing. Answers the tag's state. One follows at most ${TAG_LIMITS.followMax} tags: one more is a 400 "${ERRORS.tooManyFollowedTags}". ${TAG_RULE}`
      : `Idempotent: unfollowing a tag you do not follow changes nothing. Answers the tag's state. ${TAG_RULE}`,
    security: bearerAuth,
    params: TagParams,
    response: { 200: TagState, ...errorResponses(400, 401) },
  });

  app.post('/tags/:tag/follow', { preHandler: guards.requireUser, schema: followSchema(true) }, (request) =>
    tags.setFollow(request.userId!, request.params.tag, true),
  );

  app.delete('/tags/:tag/follow', { preHandler: guards.requireUser, schema: followSchema(false) }, (request) =>
    tags.setFollow(request.userId!, request.params.tag, false),
  );

  app.get(
    '/users/me/tags',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['tags'],
        summary: 'The tags you follow',
        description: `The most recently followed first, each with its post count. ${PAGING}`,
        security: bearerAuth,
        querystring: FollowedTagsQuery,
        response: { 200: FollowedTagPage, ...errorResponses(400, 401) },
      },
    },
    (request) => tags.followed(request.userId!, request.query),
  );
};
