import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { sendJson } from '../../lib/json-text.js';
import type { PostPageResult, PostsService } from '../posts/index.js';

const newestIds = sql`select id from posts order by created_at desc, id desc limit 20`;

/**
 * The API benchmark's references (registered only with BENCH_ROUTES=1): the ceiling of Node and
 * Fastify here; the ceiling of one database round trip for a page of post ids; and the ceiling of a
 * page route, that round trip answered with a page of posts' bytes (the anonymous first page, read
 * once and sent again each time): what any page route costs at the least, however little it computes.
 */
export const benchRoutes: FastifyPluginAsync<{ db: Db; posts: PostsService }> = async (app, { db, posts }) => {
  app.get('/bench/hello', { schema: { hide: true } }, async () => ({ hello: 'world' }));
  app.get('/bench/keyset', { schema: { hide: true } }, async () => ({
    ids: (await queryRows<{ id: string }>(db, newestIds)).map((row) => row.id),
  }));
  let page: PostPageResult | undefined;
  app.get('/bench/keyset-page', { schema: { hide: true } }, async (_request, reply) => {
    await queryRows<{ id: string }>(db, newestIds);
    page ??= await posts.list({}, null);
    return sendJson(reply, page);
  });
};
