import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SEARCH_LIMITS, SearchQuery, SearchResponse } from '@share-arts/contract';
import { errorResponses } from '../../lib/route-schema.js';
import { sendJson } from '../../lib/json-text.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { PostsService } from '../posts/index.js';
import { type UsersService, SEARCH_CANDIDATES } from '../users/index.js';
import type { TagsService } from '../tags/index.js';
import { commissionFilterOf } from '../commissions/index.js';

export const searchRoutes: FastifyPluginAsyncTypebox<{
  users: UsersService;
  posts: PostsService;
  tags: TagsService;
  guards: AuthGuards;
}> = async (app, { users, posts, tags, guards }) => {
  app.get(
    '/search',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['search'],
        summary: 'Search people and posts',
        description: `People by username or name (prefix, part of a word, small typos), ranked among at most ${SEARCH_CANDIDATES} people per kind of match (the start of the username, of the name, of the last name; typos and parts of words when those find fewer): a name part that thousands share costs as little as a rare one. Posts by their words (each word may be the start of a word) or by a #hashtag; a name or username also finds the newest works of the three people it names best (first). With type=all, up to ${SEARCH_LIMITS.tagsInAll} tags starting with the first word (with or without #), the most used first. Keyset paging per kind. open, kind, currency, priceMin and priceMax narrow the people to artists open for commissions (issue 42; a price needs its currency, and artists pricing in another currency are left out).`,
        querystring: SearchQuery,
        response: { 200: SearchResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { q, type = 'all', limit, cursor } = request.query;
      // People narrowed to artists open for commissions (issue 42), when asked: a 400 for a price without currency.
      const open = commissionFilterOf(request.query);
      if (type === 'users') return users.search(q, { limit, cursor }, request.userId, open);
      const artists = await users.artistIds(q);
      if (type === 'posts') return sendJson(reply, await posts.search(q, { limit, cursor }, request.userId, artists));
      const [people, found, tagged] = await Promise.all([
        users.search(q, { limit: SEARCH_LIMITS.usersInAll }, request.userId, open),
        posts.search(q, { limit, cursor }, request.userId, artists),
        tags.suggest(q.trim().split(/\s+/u)[0], SEARCH_LIMITS.tagsInAll),
      ]);
      return sendJson(reply, {
        users: people.users,
        posts: found.posts,
        tags: tagged.tags,
        nextCursor: found.nextCursor,
      });
    },
  );
};
