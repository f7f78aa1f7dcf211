import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERRORS } from '@share-arts/contract';
import { notFound, unauthorized } from '../lib/http-error.js';
import { tokenFromHeader, type TokenService } from '../lib/tokens.js';
import { RATE_LIMITS, type RateLimiter } from '../lib/rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's id, set by `requireUser` (or `optionalUser`) from a valid token. */
    userId: string | null;
  }
}

export interface AuthGuards {
  /** preHandler: 401 unless the request carries a valid token; counts writes against the user's limit. */
  requireUser(request: FastifyRequest): Promise<void>;
  /** preHandler: sets userId when a valid token is present; a missing or bad token reads as signed out. */
  optionalUser(request: FastifyRequest): Promise<void>;
  limiter: RateLimiter;
}

/** A valid token whose user was deleted: 404, as POST /api/auth/verify answers for it. */
export const ACCOUNT_GONE = 'The account of this token no longer exists: sign up or log in again.';

export function registerAuth(
  app: FastifyInstance,
  tokens: TokenService,
  limiter: RateLimiter,
  /** True while the user exists: a token outlives its user, and nothing may be written in a deleted user's name. */
  userExists: (userId: string) => Promise<boolean>,
): AuthGuards {
  app.decorateRequest('userId', null);
  return {
    async requireUser(request) {
      const token = tokenFromHeader(request.headers.authorization);
      if (!token) throw unauthorized(ERRORS.missingToken);
      const claims = await tokens.verify(token);
      if (!claims) throw unauthorized(ERRORS.invalidToken);
      if (!(await userExists(claims.userId))) throw notFound(ACCOUNT_GONE);
      request.userId = claims.userId;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        limiter.hit(`write:${claims.userId}`, RATE_LIMITS.writePerUser);
      }
    },
    async optionalUser(request) {
      const token = tokenFromHeader(request.headers.authorization);
      const claims = token ? await tokens.verify(token) : null;
      request.userId = claims?.userId ?? null;
    },
    limiter,
  };
}
