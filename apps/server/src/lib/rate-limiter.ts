import { ERRORS } from '@share-arts/contract';
import { HttpError } from './http-error.js';

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
  hit(key: string, limit: RateLimit): void;
  /** Adds `by` (negative to take back) to `key`'s count in its current window, without refusing. */
  add(key: string, limit: RateLimit, by?: number): void;
  /** `key`'s count in its current window and the seconds until that window ends (0 and 0 when none). */
  used(key: string): { count: number; seconds: number };
  /** The limiter's clock (tests replace it). */
  now(): number;
  enabled: boolean;
}

/** The 429 every limit answers; `seconds` goes in Retry-After and in the message. */
export function tooManyRequests(seconds: number): HttpError {
  return new HttpError(429, `${ERRORS.tooManyRequests} Please try again in ${seconds} s.`, {
    'retry-after': String(seconds),
  });
}

/** Fixed windows in memory; `now` is injectable so tests control the clock. */
export function createRateLimiter(options: { enabled: boolean; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now;
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
  const secondsLeft = (resetAt: number, time: number) => Math.max(1, Math.ceil((resetAt - time) / 1000));

  return {
    enabled: options.enabled,
    now,
    hit(key, limit) {
      if (!options.enabled) return;
      const time = now();
      const window = current(key, limit, time);
      window.count += 1;
      if (window.count > limit.max) throw tooManyRequests(secondsLeft(window.resetAt, time));
    },
    add(key, limit, by = 1) {
      if (!options.enabled) return;
      const window = current(key, limit, now());
      window.count = Math.max(0, window.count + by);
    },
    used(key) {
      const time = now();
      const window = windows.get(key);
      if (!options.enabled || !window || window.resetAt <= time) return { count: 0, seconds: 0 };
      return { count: window.count, seconds: secondsLeft(window.resetAt, time) };
    },
  };
}
