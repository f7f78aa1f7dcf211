import type { FastifyInstance } from 'fastify';
import { namingRefusals } from '../lib/metrics.js';
import { createRateLimiter, type RateLimiter } from '../lib/rate-limiter.js';
import { createRedisRateLimiter } from '../lib/rate-limiter-redis.js';

/** The settings the rate limits read (the Config's). */
export interface RateLimitSettings {
  rateLimits: boolean;
  now: () => number;
  redisUrl?: string | undefined;
  redisKeyPrefix?: string;
  redisCommandTimeoutMs?: number;
}

/**
 * The rate limits of every route and module. REDIS_URL: every process counts in one Redis (issue 25); else
 * in this process's memory. Closed with the server; each 429 a limit answers is counted under its name.
 */
export async function openRateLimiter(app: FastifyInstance, settings: RateLimitSettings): Promise<RateLimiter> {
  const limiter =
    settings.redisUrl && settings.rateLimits
      ? await createRedisRateLimiter({
          url: settings.redisUrl,
          prefix: settings.redisKeyPrefix ?? 'share-arts:',
          ...(settings.redisCommandTimeoutMs ? { commandTimeoutMs: settings.redisCommandTimeoutMs } : {}),
          enabled: true,
          now: settings.now,
          log: app.log,
        })
      : createRateLimiter({ enabled: settings.rateLimits, now: settings.now });
  app.addHook('onClose', () => limiter.close());
  namingRefusals(limiter);
  return limiter;
}
