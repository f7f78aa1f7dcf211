import type { FastifyInstance, FastifyReply } from 'fastify';
import { addressKey } from '../../lib/client-address.js';
import type { RateLimit } from '../../lib/rate-limiter.js';
import { tokenFromHeader } from '../../lib/tokens.js';
import { TOO_MANY_REQUESTS } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';

/**
 * Mastodon's API limits (its Rack::Attack throttles `throttle_authenticated_api` and
 * `throttle_unauthenticated_api`): a signed-in person 1,500 requests per 5 minutes, whatever app or token they use;
 * anyone else 300 per 5 minutes per address (IPv6 by its /64). Counted by the project's limiter (in Redis with
 * REDIS_URL, else in this process's memory), in the Mastodon scope only: the web app's own routes keep their limits.
 */
export const MASTODON_RATE_LIMITS = {
  signedIn: { max: 1500, windowMs: 5 * 60_000 },
  signedOut: { max: 300, windowMs: 5 * 60_000 },
} as const satisfies Record<string, RateLimit>;

/** The streaming routes (socket and server-sent events) stay open for long: a connection is not a request. */
const NOT_COUNTED = /^\/api\/v1\/streaming(\/|$|\?)/;

/** Sets Mastodon's three headers: the limit, what is left of it, and when its window ends (ISO 8601). */
function setHeaders(reply: FastifyReply, limit: RateLimit, count: number, seconds: number, now: number): void {
  reply.header('x-ratelimit-limit', String(limit.max));
  reply.header('x-ratelimit-remaining', String(Math.max(0, limit.max - count)));
  reply.header('x-ratelimit-reset', new Date(now + seconds * 1000).toISOString());
}

/**
 * Counts every request of the Mastodon scope against its limit and answers Mastodon's `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` on each answer; past the limit, 429 `{"error":"Too many requests"}`
 * with those headers and Retry-After. A token that is not valid counts as signed out (by address). Nothing is counted
 * or said when the limits are off (RATE_LIMITS=off).
 */
export function registerMastodonRateLimits(scope: FastifyInstance, { shared }: Pick<MastodonDeps, 'shared'>): void {
  const { limiter, tokenCheck } = shared;
  if (!limiter.enabled) return;
  scope.addHook('onRequest', async (request, reply) => {
    if (NOT_COUNTED.test(request.url)) return;
    const token = tokenFromHeader(request.headers.authorization);
    const claims = token ? await tokenCheck.claims(token) : null;
    const [key, limit] = claims
      ? [`masto:user:${claims.userId}`, MASTODON_RATE_LIMITS.signedIn]
      : [`masto:ip:${addressKey(request.ip)}`, MASTODON_RATE_LIMITS.signedOut];
    const { count, seconds } = await limiter.add(key, limit);
    setHeaders(reply, limit, count, seconds, limiter.now());
    if (count > limit.max) {
      return reply.code(429).header('retry-after', String(seconds)).send({ error: TOO_MANY_REQUESTS });
    }
  });
}
