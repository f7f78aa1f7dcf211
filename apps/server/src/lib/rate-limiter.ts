import { ERRORS } from '@share-arts/contract';
import { refusal, type HttpError } from './http-error.js';

export interface RateLimit {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * The limits, per server process. Keys are the client's address (`addressKey`: IPv4 alone, IPv6 by
 * its /64; X-Forwarded-For is not trusted), the signed-in user, or the account a login names; see the
 * README.
 */
export const RATE_LIMITS = {
  loginPerIp: { max: 30, windowMs: 60_000 },
  /** Failed logins of one account (see login-guard.ts for who may still try past it). */
  loginFailuresPerAccount: { max: 10, windowMs: 15 * 60_000 },
  /** Failed logins of one account past which only addresses it signed in from before may try. */
  loginFailuresPerAccountHard: { max: 100, windowMs: 15 * 60_000 },
  signupPerIp: { max: 10, windowMs: 60 * 60_000 },
  /** Wrong two-factor codes (an authenticator's or a recovery code) of one account (issue 24). */
  secondFactorFailuresPerAccount: { max: 5, windowMs: 15 * 60_000 },
  uploadPerUser: { max: 60, windowMs: 60 * 60_000 },
  writePerUser: { max: 120, windowMs: 60_000 },
  /** "Forgot password?" from one address, whatever it names (issue 24). */
  forgotPerIp: { max: 10, windowMs: 15 * 60_000 },
  /** Reset mails to one account: past it, "Forgot password?" answers the same and sends nothing. */
  resetMailsPerAccount: { max: 3, windowMs: 60 * 60_000 },
  /** "Resend confirmation" of one signed-in account. */
  verifyMailsPerUser: { max: 5, windowMs: 60 * 60_000 },
  /** Links tried from one address (reset and confirmation). */
  mailLinksPerIp: { max: 30, windowMs: 15 * 60_000 },
} as const satisfies Record<string, RateLimit>;

export interface RateLimiter {
  /** Counts one request against `key`; throws a 429 with Retry-After once the limit is reached. */
  hit(key: string, limit: RateLimit): Promise<void>;
  /**
   * Adds `by` (negative to take back, -Infinity to clear) to `key`'s count in its current window, without
   * refusing; answers the count after it and the seconds until the window ends (0 and 0 when off).
   */
  add(key: string, limit: RateLimit, by?: number): Promise<{ count: number; seconds: number }>;
  /** `key`'s count in its current window and the seconds until that window ends (0 and 0 when none). */
  used(key: string): Promise<{ count: number; seconds: number }>;
  /** The limiter's clock (tests replace it; with Redis, only for what is kept in memory). */
  now(): number;
  enabled: boolean;
  /** Where counts go: this process's memory, or Redis (`redis-down` while it is unreachable). */
  store(): 'memory' | 'redis' | 'redis-down';
  /** Redis answers a PING now (undefined without Redis): for GET /api/ready. */
  redisReachable?(): Promise<boolean>;
  close(): Promise<void>;
}

/** The 429's words, filled with the seconds in the reader's language (issue 43). */
export const RATE_LIMIT_MESSAGES = {
  /** "Too many requests. Please try again in 12 s." */
  tryAgain: `${ERRORS.tooManyRequests} Please try again in {seconds} s.`,
} as const;

/** The 429 every limit answers; `seconds` goes in Retry-After and in the message. */
export function tooManyRequests(seconds: number): HttpError {
  return refusal(429, RATE_LIMIT_MESSAGES.tryAgain, { seconds }, { 'retry-after': String(seconds) });
}

/**
 * An attempt that may fail (a current password, a two-factor code), counted against `key` before it is
 * checked, in one step (with Redis, across every process): attempts sent at once each see those before them,
 * so at most `limit.max` are ever checked in a window. Past it, a 429 (that attempt is taken back: it checked
 * nothing). Call `passed()` when the attempt was right: only failures count.
 */
export async function countedAttempt(
  limiter: RateLimiter,
  key: string,
  limit: RateLimit,
): Promise<{ passed(): Promise<void> }> {
  if (!limiter.enabled) return { passed: async () => {} };
  const counted = await limiter.add(key, limit);
  if (counted.count > limit.max) {
    await limiter.add(key, limit, -1);
    throw tooManyRequests(counted.seconds);
  }
  return { passed: async () => void (await limiter.add(key, limit, -1)) };
}

/** Fixed windows in one process's memory: the limiter without Redis, and its stand-in while Redis is away. */
export function memoryWindows(now: () => number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = 0;

  function current(key: string, limit: RateLimit, time: number) {
    if (time >= nextSweep) {
      for (const [k, w] of windows) if (w.resetAt <= time) windows.delete(k);
      nextSweep = time + 60_000;
    }
    let window = windows.get(key);
    if (!window || window.resetAt <= time) {
      window = { count: 0, resetAt: time + limit.windowMs };
      windows.set(key, window);
    }
    return window;
  }

  return {
    add(key: string, limit: RateLimit, by: number) {
      const time = now();
      const window = current(key, limit, time);
      window.count = Math.max(0, window.count + by);
      return { count: window.count, seconds: secondsLeft(window.resetAt - time) };
    },
    used(key: string) {
      const time = now();
      const window = windows.get(key);
      if (!window || window.resetAt <= time) return { count: 0, seconds: 0 };
      return { count: window.count, seconds: secondsLeft(window.resetAt - time) };
    },
  };
}

/** Whole seconds until a window ends, at least 1 (Retry-After: 0 would invite an immediate retry). */
export const secondsLeft = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** One counting step of a limiter, whichever store it counts in. */
export interface WindowStore {
  add(key: string, limit: RateLimit, by: number): Promise<{ count: number; seconds: number }>;
  used(key: string): Promise<{ count: number; seconds: number }>;
}

/** The limiter's rules over a store: `hit` is one `add` whose answer decides, so it is one round trip. */
export function limiterOver(
  store: WindowStore,
  options: { enabled: boolean; now: () => number },
): Pick<RateLimiter, 'hit' | 'add' | 'used' | 'now' | 'enabled'> {
  const off = { count: 0, seconds: 0 };
  return {
    enabled: options.enabled,
    now: options.now,
    async hit(key, limit) {
      if (!options.enabled) return;
      const window = await store.add(key, limit, 1);
      if (window.count > limit.max) throw tooManyRequests(window.seconds);
    },
    async add(key, limit, by = 1) {
      if (!options.enabled) return off;
      return store.add(key, limit, by);
    },
    async used(key) {
      if (!options.enabled) return off;
      return store.used(key);
    },
  };
}

/** Fixed windows in this process's memory; `now` is injectable so tests control the clock. */
export function createRateLimiter(options: { enabled: boolean; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now;
  const windows = memoryWindows(now);
  return {
    ...limiterOver(
      { add: async (key, limit, by) => windows.add(key, limit, by), used: async (key) => windows.used(key) },
      { enabled: options.enabled, now },
    ),
    store: () => 'memory',
    close: async () => {},
  };
}
