import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { ERRORS, HealthResponse, NotReadyResponse, ReadyResponse, type ReadyChecks } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/http-error.js';
import { errorResponses } from '../../lib/route-schema.js';
import type { StorageHealth } from '../media/index.js';

/** A check that has not answered in this long is down: a load balancer's probe must not hang. */
export const READY_CHECK_TIMEOUT_MS = 2000;

export interface HealthOptions {
  db: Db;
  storageHealth: () => Promise<StorageHealth>;
  /**
   * GET /api/ready's storage check: throws, saying what fails, when the pictures' storage cannot be
   * reached. The seam for the S3 driver's check; unset, the media folder's health (a folder that takes
   * no writes is down).
   */
  storageCheck?: () => Promise<void>;
  /** Redis answers a PING (REDIS_URL); unset without Redis. */
  redisReachable?: (() => Promise<boolean>) | undefined;
  /** Throws when the background job queue cannot be reached (issue 37). */
  jobsCheck: () => Promise<void>;
}

const withTimeout = <T>(work: Promise<T>, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${READY_CHECK_TIMEOUT_MS / 1000} s`)),
      READY_CHECK_TIMEOUT_MS,
    );
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });

export const healthRoutes: FastifyPluginAsyncTypebox<HealthOptions> = async (
  app,
  { db, storageHealth, storageCheck, redisReachable, jobsCheck },
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

  const checkStorage =
    storageCheck ??
    (async () => {
      const health = await storageHealth();
      if (health.storage === 'failing') throw new Error(health.problem);
    });

  app.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary: "Readiness: 200 when the database and the pictures' storage answer, else 503 naming what is down",
        description:
          'For a load balancer deciding whether this machine takes traffic. Each check has ' +
          `${READY_CHECK_TIMEOUT_MS / 1000} s. \`redis\` is \`off\` without REDIS_URL. When Redis or the job queue ` +
          'does not answer, the answer is a 200 with `status` `degraded`: requests are still served (the limits are ' +
          'counted in each process meanwhile; jobs wait in the database), and a Redis shared by every machine must ' +
          'not take them all out of the load balancer at once. GET /api/health is the liveness check (the process and its database).',
        response: { 200: ReadyResponse, 503: NotReadyResponse },
      },
    },
    async (_request, reply) => {
      const problems: string[] = [];
      const warnings: string[] = [];
      const [database, storage, redis, jobs] = await Promise.all([
        withTimeout(db.execute(sql`select 1`), 'The database').then(
          () => 'up' as const,
          () => {
            problems.push('The database does not answer.');
            return 'down' as const;
          },
        ),
        withTimeout(checkStorage(), "The pictures' storage").then(
          () => 'up' as const,
          (error: unknown) => {
            problems.push(`The pictures' storage is not available: ${(error as Error).message}`);
            return 'down' as const;
          },
        ),
        redisReachable
          ? withTimeout(redisReachable(), 'Redis')
              .catch(() => false)
              .then((up) => {
                if (up) return 'up' as const;
                warnings.push('Redis (REDIS_URL) does not answer: rate limits are counted in each process meanwhile.');
                return 'down' as const;
              })
          : ('off' as const),
        withTimeout(jobsCheck(), 'The job queue').then(
          () => 'up' as const,
          () => {
            warnings.push('The background job queue does not answer: mails and sweeps wait until it is back.');
            return 'down' as const;
          },
        ),
      ]);
      const checks: ReadyChecks = { database, storage, redis, jobs };
      if (problems.length > 0) {
        return reply
          .code(503)
          .header('retry-after', '5')
          .send({ errors: [...problems, ...warnings], checks });
      }
      if (warnings.length > 0) return { status: 'degraded' as const, checks, problems: warnings };
      return { status: 'ready' as const, checks };
    },
  );
};
