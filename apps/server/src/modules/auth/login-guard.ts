import { LRUCache } from 'lru-cache';
import { RATE_LIMITS, tooManyRequests, type RateLimiter } from '../../lib/rate-limiter.js';

/** How long an address that signed in to an account stays trusted for it (OWASP's "device cookie"). */
const TRUSTED_FOR_MS = 30 * 24 * 60 * 60_000;
const TRUST = { max: 1, windowMs: TRUSTED_FOR_MS };

/**
 * Limits password guessing per account without handing strangers a lock-out button: only failures
 * count, and they are counted per account (its id, never the text typed) and per account and address.
 *
 * - Past `loginFailuresPerAccount` failures in the window, an address that has failed for the account
 *   may not try again until the window ends; an address that has not failed still may (the owner,
 *   elsewhere, with the right password), but its own first failure shuts it out too.
 * - Past `loginFailuresPerAccountHard` (many addresses guessing, as a botnet or a whole IPv6 /48
 *   would), only addresses that signed in to the account in the last 30 days may try.
 *
 * An attempt counts as a failure from the moment it starts and is taken back when the password is
 * right, so concurrent guesses cannot all slip past a check made before any of them failed.
 *
 * Trust is kept in this process (an LRU) and, with Redis, in the limiter too, so that an address that
 * signed in through one worker or machine is trusted by all (for 30 days from its first sign-in of the
 * period). Without Redis the LRU alone: it bounds what is kept, where the limiter's windows would not.
 */
export function createLoginGuard(limiter: RateLimiter) {
  const trusted = new LRUCache<string, number>({ max: 100_000 });
  const accountKey = (accountId: string) => `login-failed:${accountId}`;
  const pairKey = (accountId: string, address: string) => `login-failed:${accountId}:${address}`;
  const trustKey = (accountId: string, address: string) => `login-trusted:${accountId}:${address}`;
  const shared = () => limiter.store() !== 'memory';
  const isTrusted = async (accountId: string, address: string) => {
    const until = trusted.get(pairKey(accountId, address));
    if (until !== undefined && until > limiter.now()) return true;
    return shared() && (await limiter.used(trustKey(accountId, address))).count > 0;
  };

  return {
    /** Throws a 429 when this address may not try this account's password now; else counts the attempt. */
    async begin(accountId: string, address: string): Promise<void> {
      if (!limiter.enabled) return;
      // Counted before the check, in one step each (with Redis, across every process): concurrent
      // guesses each see the ones before them. A refused attempt is taken back: it tried no password.
      const limit = RATE_LIMITS.loginFailuresPerAccount;
      const [accountNow, pairNow] = await Promise.all([
        limiter.add(accountKey(accountId), limit),
        limiter.add(pairKey(accountId, address), limit),
      ]);
      const account = { count: accountNow.count - 1, seconds: accountNow.seconds };
      const pair = { count: pairNow.count - 1, seconds: pairNow.seconds };
      let refused: number | undefined;
      if (account.count >= limit.max && pair.count > 0) {
        refused = Math.min(account.seconds, pair.seconds);
      } else if (account.count >= RATE_LIMITS.loginFailuresPerAccountHard.max) {
        if (!(await isTrusted(accountId, address))) refused = account.seconds;
      }
      if (refused === undefined) return;
      await Promise.all([
        limiter.add(accountKey(accountId), limit, -1),
        limiter.add(pairKey(accountId, address), limit, -1),
      ]);
      throw tooManyRequests(refused);
    },
    /**
     * The password was right: the attempt was no failure, the address's earlier failures (its owner's
     * typos) are forgotten, and the address is trusted for the account.
     */
    async succeeded(accountId: string, address: string): Promise<void> {
      if (!limiter.enabled) return;
      await Promise.all([
        limiter.add(accountKey(accountId), RATE_LIMITS.loginFailuresPerAccount, -1),
        limiter.add(pairKey(accountId, address), RATE_LIMITS.loginFailuresPerAccount, -Infinity),
        shared() && limiter.add(trustKey(accountId, address), TRUST),
      ]);
      trusted.set(pairKey(accountId, address), limiter.now() + TRUSTED_FOR_MS);
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;
