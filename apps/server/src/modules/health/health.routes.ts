import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { ERRORS, HealthResponse } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/http-error.js';
import { errorResponses } from '../../lib/route-schema.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Health: 200 when the server reaches its database, 503 otherwise',
        response: { 200: HealthResponse, 503: errorResponses(503)[503]! },
      },
    },
    async () => {
      try {
        await db.execute(sql`select 1`);
      } catch {
        throw new HttpError(503, ERRORS.databaseUnavailable, { 'retry-after': '5' });
      }
      return { status: 'ok' as const, database: 'up' as const };
    },
  );
};
