import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';

/**
 * The API benchmark's references (registered only with BENCH_ROUTES=1): the ceiling of Node and
 * Fastify here, and the ceiling of one database round trip for a page of post ids.
 */
export const benchRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.get('/bench/hello', { schema: { hide: true } }, async () => ({ hello: 'world' }));
  app.get('/bench/keyset', { schema: { hide: true } }, async () => ({
    ids: (
      await queryRows<{ id: string }>(db, sql`select id from posts order by created_at desc, id desc limit 20`)
    ).map((row) => row.id),
  }));
};
