import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { ERRORS, HealthResponse } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/http-error.js';
import { errorResponses } from '../../lib/route-schema.js';
import type { StorageHealth } from '../media/index.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db; storageHealth: () => Promise<StorageHealth> }> = async (
  app,
  { db, storageHealth },
) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Health: 200 when the server reaches its database, 503 otherwise',
        // A full disk leaves every read working, so it is a 200 that says so rather than a 503 that would
        // take a working server out of a load balancer (or restart it, which frees no disk).
        description:
          '`status` is `degraded` and `storage` is `failing` when the media folder takes no writes (a full ' +
          'or read-only disk): reads are served, uploads answer 503 until it is fixed. `problems` says what ' +
          'is failing.',
        response: { 200: HealthResponse, 503: errorResponses(503)[503]! },
      },
    },
    async () => {
      try {
        await db.execute(sql`select 1`);
      } catch {
        throw new HttpError(503, ERRORS.databaseUnavailable, { 'retry-after': '5' });
      }
      const storage = await storageHealth();
      if (storage.storage === 'ok') return { status: 'ok' as const, database: 'up' as const, storage: 'ok' as const };
      return {
        status: 'degraded' as const,
        database: 'up' as const,
        storage: 'failing' as const,
        problems: [storage.problem],
      };
    },
  );
};
