import { ERRORS } from '@share-arts/contract';
import { HttpError } from './http-error.js';

export interface RateLimit {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * The limits, per server process. Keys are the client's socket address (X-Forwarded-For is not
 * trusted) or the signed-in user; see the README.
 */
export const RATE_LIMITS = {
  loginPerIp: { max: 30, windowMs: 60_000 },
  loginPerAccount: { max: 10, windowMs: 15 * 60_000 },
  signupPerIp: { max: 10, windowMs: 60 * 60_000 },
  uploadPerUser: { max: 60, windowMs: 60 * 60_000 },
  writePerUser: { max: 120, windowMs: 60_000 },
} as const satisfies Record<string, RateLimit>;

export interface RateLimiter {
  /** Counts one request against `key`; throws a 429 with Retry-After once the limit is reached. */
  hit(key: string, limit: RateLimit): void;
}

/** Fixed windows in memory; `now` is injectable so tests control the clock. */
export function createRateLimiter(options: { enabled: boolean; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = 0;
  return {
    hit(key, limit) {
      if (!options.enabled) return;
      const time = now();
      if (time >= nextSweep) {
        for (const [k, w] of windows) if (w.resetAt <= time) windows.delete(k);
        nextSweep = time + 60_000;
      }
      let window = windows.get(key);
      if (!window || window.resetAt <= time) {
        window = { count: 0, resetAt: time + limit.windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count > limit.max) {
        const seconds = Math.max(1, Math.ceil((window.resetAt - time) / 1000));
        throw new HttpError(429, `${ERRORS.tooManyRequests} Please try again in ${seconds} s.`, {
          'retry-after': String(seconds),
        });
      }
    },
  };
}
