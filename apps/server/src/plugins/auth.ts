import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERRORS, MODERATION_MESSAGES } from '@share-arts/contract';
import { HttpError, notFound, unauthorized } from '../lib/http-error.js';
import { tokenFromHeader, type TokenClaims } from '../lib/tokens.js';
import { RATE_LIMITS, type RateLimiter } from '../lib/rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's id, set by `requireUser` (or `optionalUser`) from a valid token. */
    userId: string | null;
    /** The session the signed-in user's token names (issue 24), set with `userId`. */
    sessionId: string | null;
    /**
     * The scopes of an app's OAuth token (issue 45), set with `userId`; undefined for the web app's own token,
     * which may do everything (see requireScopes in modules/oauth).
     */
    scopes: readonly string[] | undefined;
  }
}

/**
 * What an app's OAuth token may never do (issue 45): the web app's own account routes (password, two-factor and
 * passkeys, sessions, email, deletion, export, moving the account, authorizing other apps). Answered 403.
 */
export const WEB_ONLY_ROUTE =
  /^\/api\/(account\/|sessions|two-factor|auth\/(password|reauthenticate|verify-email\/resend)|federation\/(move|aliases)|oauth\/)/;
export const WEB_ONLY_MESSAGE = 'An app cannot do this: sign in to Share Arts itself to change your account.';

/** What a token is worth: the claims of a valid token whose account exists, or why it is refused. */
export type TokenVerdict =
  | { status: 'valid'; claims: TokenClaims }
  | { status: 'missing' }
  | { status: 'invalid' }
  /** A valid token whose account was deleted: a token outlives its account. */
  | { status: 'gone'; claims: TokenClaims }
  /** A valid token of a suspended account (issue 23): refused at once; `until` null for good. */
  | { status: 'suspended'; claims: TokenClaims; until: string | null };

/** What a suspended account is told (403), at sign-in and on every request with its token. */
export const suspendedError = (until: string | null) =>
  new HttpError(403, until === null ? MODERATION_MESSAGES.suspended : MODERATION_MESSAGES.suspendedUntil(until));

/**
 * The one token check of the HTTP guards, POST /api/auth/verify and the live socket's hello
 * (createTokenCheck in modules/auth; app.ts hands it over).
 */
export interface TokenCheck {
  check(token: string | undefined): Promise<TokenVerdict>;
  /**
   * The claims of a token `check` finds valid (its account exists and is not suspended, its session is
   * live); null otherwise: optionalUser reads any other token as signed out.
   */
  claims(token: string | undefined): Promise<TokenClaims | null>;
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
  /** Nothing may be done in a deleted user's name: `check` refuses a token whose account is gone. */
  tokenCheck: TokenCheck,
  limiter: RateLimiter,
  /**
   * A request's user is known (either guard): where their reads go is decided from it (a write, or a
   * recent write's mark, keeps them on the primary until replicas have it: db/replicas.ts).
   */
  identified: (request: FastifyRequest, userId: string) => void = () => {},
): AuthGuards {
  app.decorateRequest('userId', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('scopes', undefined);
  return {
    async requireUser(request) {
      const verdict = await tokenCheck.check(tokenFromHeader(request.headers.authorization));
      if (verdict.status === 'missing') throw unauthorized(ERRORS.missingToken);
      if (verdict.status === 'invalid') throw unauthorized(ERRORS.invalidToken);
      if (verdict.status === 'gone') throw notFound(ACCOUNT_GONE);
      if (verdict.status === 'suspended') throw suspendedError(verdict.until);
      const { userId, sessionId, scopes } = verdict.claims;
      if (scopes !== undefined && WEB_ONLY_ROUTE.test(request.routeOptions.url ?? request.url)) {
        throw new HttpError(403, WEB_ONLY_MESSAGE);
      }
      request.userId = userId;
      request.sessionId = sessionId;
      request.scopes = scopes;
      identified(request, userId);
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        await limiter.hit(`write:${userId}`, RATE_LIMITS.writePerUser);
      }
    },
    async optionalUser(request) {
      const claims = await tokenCheck.claims(tokenFromHeader(request.headers.authorization));
      request.userId = claims?.userId ?? null;
      request.sessionId = claims?.sessionId ?? null;
      request.scopes = claims?.scopes;
      if (request.userId) identified(request, request.userId);
    },
    limiter,
  };
}
