import type { ServerContext } from '../../context.js';
import { insightsRoutes } from './insights.routes.js';
import { createInsightsService } from './insights.service.js';
import { createViewCounter, type ViewCounter } from './view-counter.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The views gathered for insights (issue 42): tests write a batch with `flush()`; the benchmark turns it off. */
    viewCounter: ViewCounter;
  }
}

/**
 * The insights module (issue 42): the views beacon, whose views are gathered in memory and written in batches, and an
 * artist's own counts. Uniqueness is kept in Redis with REDIS_URL, else in this process.
 */
export async function wireInsights(
  shared: ServerContext<{ redisUrl?: string | undefined; redisKeyPrefix?: string; redisCommandTimeoutMs?: number }>,
) {
  const { app, config, db, guards, limiter, log } = shared;
  const counter = createViewCounter({
    db,
    log,
    redisUrl: config.redisUrl,
    redisKeyPrefix: config.redisKeyPrefix,
    redisTimeoutMs: config.redisCommandTimeoutMs,
  });
  // Before the database closes: the last batch is written.
  shared.beforeClose(() => counter.close());
  app.decorate('viewCounter', counter);
  const insights = createInsightsService({ db, now: () => counter.now() });
  await app.register(insightsRoutes, { prefix: '/api', insights, counter, guards, limiter });
  return { insights, counter };
}

export type InsightsModule = Awaited<ReturnType<typeof wireInsights>>;
