import { Redis } from 'ioredis';
import { limiterOver, memoryWindows, secondsLeft, type RateLimiter, type WindowStore } from './rate-limiter.js';

/**
 * Rate limits counted in Redis (REDIS_URL, issue 25), so that every server process — several workers, or
 * several machines — shares one count per key. ioredis rather than @fastify/rate-limit's Redis store: our
 * limits are not one per route but keyed by address, user and account, taken back (`add(-1)`) and read
 * without counting (`used`), which that plugin's store does not offer.
 *
 * A window is a key with a count and an expiry, changed by one Lua script: the increment, and the expiry
 * set when the key is new, happen in one atomic round trip, so two processes never both start a window.
 *
 * When Redis does not answer, requests are still served: counts go to this process's memory (one warning
 * in the log, not one per request) until Redis answers again (one line saying so). Commands time out
 * after COMMAND_TIMEOUT_MS and are never queued while disconnected, so a request never waits on Redis
 * for longer than that.
 */

/** A request waits at most this long for Redis before it is counted in memory instead. */
export const COMMAND_TIMEOUT_MS = 300;
/** While Redis is down, how often it is asked whether it is back (besides ioredis's reconnections). */
const PROBE_EVERY_MS = 1000;

// KEYS[1]: the window; ARGV[1]: what to add; ARGV[2]: the window's length (ms). Answers {count, ms left}.
const ADD = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count < 0 then count = redis.call('INCRBY', KEYS[1], -count) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {count, ttl}`;
// KEYS[1]: the window. Answers {count, ms left}, {0, 0} when there is none.
const USED = `
local count = redis.call('GET', KEYS[1])
if not count then return {0, 0} end
return {tonumber(count), redis.call('PTTL', KEYS[1])}`;

interface Scripts {
  rateAdd(key: string, by: number, windowMs: number): Promise<[number, number]>;
  rateUsed(key: string): Promise<[number, number]>;
}

export interface RedisLimiterLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export async function createRedisRateLimiter(options: {
  url: string;
  /** Prepended to every key (REDIS_KEY_PREFIX): several sites, or test runs, can share one Redis. */
  prefix: string;
  enabled: boolean;
  /** How long a request waits for Redis before it is counted in memory (COMMAND_TIMEOUT_MS by default). */
  commandTimeoutMs?: number;
  now?: () => number;
  log: RedisLimiterLog;
}): Promise<RateLimiter> {
  const now = options.now ?? Date.now;
  const { log, prefix } = options;
  const redis = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    // Reconnect for ever, at most every 2 s: Redis coming back is noticed within that.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  const scripts = redis as unknown as Scripts;
  redis.defineCommand('rateAdd', { numberOfKeys: 1, lua: ADD });
  redis.defineCommand('rateUsed', { numberOfKeys: 1, lua: USED });

  const memory = memoryWindows(now);
  let down = false;
  let closed = false;
  let probe: NodeJS.Timeout | undefined;

  const wentDown = (err: unknown) => {
    if (down || closed) return;
    down = true;
    log.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'Redis does not answer: rate limits are counted in this process alone until it does',
    );
    probe = setInterval(() => {
      if (redis.status !== 'ready') return;
      redis.ping().then(cameBack, () => {});
    }, PROBE_EVERY_MS).unref();
  };
  const cameBack = () => {
    if (!down || closed) return;
    down = false;
    clearInterval(probe);
    log.info({}, 'Redis answers again: rate limits are counted in Redis again');
  };
  // ioredis reports each failed reconnection as an error event: the warning above is the one line.
  redis.on('error', () => {});
  redis.on('close', () => wentDown(new Error('the connection to Redis closed')));
  redis.on('ready', cameBack);

  /** Runs `command` in Redis, or `fallback` in memory when Redis is down or does not answer in time. */
  async function either<T>(command: () => Promise<T>, fallback: () => T): Promise<T> {
    if (down || redis.status !== 'ready') {
      wentDown(new Error(`the connection to Redis is ${redis.status}`));
      return fallback();
    }
    try {
      return await command();
    } catch (err) {
      wentDown(err);
      return fallback();
    }
  }

  const store: WindowStore = {
    add: (key, limit, by) =>
      either(
        async () => {
          // INCRBY takes whole numbers: -Infinity (clear) is a take-back larger than any count.
          const step = Number.isFinite(by) ? Math.trunc(by) : by > 0 ? 2 ** 31 : -(2 ** 52);
          const [count, ms] = await scripts.rateAdd(prefix + key, step, limit.windowMs);
          return { count, seconds: secondsLeft(ms) };
        },
        () => memory.add(key, limit, by),
      ),
    used: (key) =>
      either(
        async () => {
          const [count, ms] = await scripts.rateUsed(prefix + key);
          return count === 0 && ms <= 0 ? { count: 0, seconds: 0 } : { count, seconds: secondsLeft(ms) };
        },
        () => memory.used(key),
      ),
  };

  // Start counting in Redis at once when it is there; a server whose Redis is away still starts.
  try {
    await redis.connect();
  } catch (err) {
    wentDown(err);
  }

  return {
    ...limiterOver(store, { enabled: options.enabled, now }),
    store: () => (down ? 'redis-down' : 'redis'),
    async redisReachable() {
      if (redis.status !== 'ready') return false;
      return redis.ping().then(
        () => true,
        () => false,
      );
    },
    async close() {
      closed = true;
      clearInterval(probe);
      redis.disconnect();
    },
  };
}
