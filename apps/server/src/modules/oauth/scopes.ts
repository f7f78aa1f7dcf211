import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../lib/http-error.js';
import { WEB_ONLY_MESSAGE, type AuthGuards } from '../../plugins/auth.js';

/**
 * OAuth scopes exactly as Mastodon (4.3) names them (issue 45, docs/oauth.md): the four top-level ones, their
 * granular forms, and `profile` (reads only the signed-in account: verify_credentials).
 */
export const READ_SCOPES = [
  'read:accounts',
  'read:blocks',
  'read:bookmarks',
  'read:favourites',
  'read:filters',
  'read:follows',
  'read:lists',
  'read:mutes',
  'read:notifications',
  'read:search',
  'read:statuses',
] as const;
export const WRITE_SCOPES = [
  'write:accounts',
  'write:blocks',
  'write:bookmarks',
  'write:conversations',
  'write:favourites',
  'write:filters',
  'write:follows',
  'write:lists',
  'write:media',
  'write:mutes',
  'write:notifications',
  'write:reports',
  'write:statuses',
] as const;
/** `follow` (deprecated by Mastodon, still granted) is these six. */
export const FOLLOW_SCOPES = [
  'read:follows',
  'write:follows',
  'read:blocks',
  'write:blocks',
  'read:mutes',
  'write:mutes',
] as const;

export const SCOPES_SUPPORTED: readonly string[] = [
  'read',
  'write',
  'follow',
  'push',
  'profile',
  ...READ_SCOPES,
  ...WRITE_SCOPES,
];
const KNOWN = new Set(SCOPES_SUPPORTED);

/** What an app gets when it names no scopes, as on Mastodon. */
export const DEFAULT_SCOPES = ['read'] as const;

/** Mastodon's words for the refusals (the JSON is `{"error": "…"}`). */
export const SCOPE_ERRORS = {
  /** 403: a valid token without any of the route's scopes. */
  outside: 'This action is outside the authorized scopes',
  /** 401: no token, or a token that is not (or no longer) valid. */
  invalidToken: 'The access token is invalid',
  /** 422: an app's own token (client_credentials) on a route that needs a person. */
  needsUser: 'This method requires an authenticated user',
  /** 403: a suspended account's token. */
  disabled: 'Your login is currently disabled',
  /** 422 at POST /api/v1/apps: a scope Mastodon does not know. */
  appScopes: "Validation failed: Scopes doesn't match configured on the server.",
} as const;

/**
 * The scopes of a `scope`/`scopes` parameter: space- (or `+`-) separated text, or an array of them; duplicates go.
 * Undefined when one is unknown (the caller answers Mastodon's error); the default when none is named.
 */
export function parseScopes(value: unknown, fallback: readonly string[] = DEFAULT_SCOPES): string[] | undefined {
  const parts = (Array.isArray(value) ? value : [value])
    .filter((part): part is string => typeof part === 'string')
    .flatMap((part) => part.split(/[\s+]+/))
    .filter((part) => part !== '');
  if (parts.length === 0) return [...fallback];
  if (parts.some((part) => !KNOWN.has(part))) return undefined;
  return [...new Set(parts)];
}

/** Every scope `scopes` grants: `read` its granular reads, `write` its writes, `follow` its six. */
export function expandScopes(scopes: readonly string[]): Set<string> {
  const all = new Set<string>(scopes);
  for (const scope of scopes) {
    if (scope === 'read') for (const granular of READ_SCOPES) all.add(granular);
    if (scope === 'write') for (const granular of WRITE_SCOPES) all.add(granular);
    if (scope === 'follow') for (const granular of FOLLOW_SCOPES) all.add(granular);
  }
  return all;
}

/** Whether every scope of `requested` is granted by `granted` (an authorization asks within its app's). */
export function isSubset(requested: readonly string[], granted: readonly string[]): boolean {
  const grants = expandScopes(granted);
  return requested.every((scope) => {
    if (grants.has(scope)) return true;
    // `read` asked of an app registered with every granular read is within it (and `write`, `follow` likewise).
    const parts =
      scope === 'read' ? READ_SCOPES : scope === 'write' ? WRITE_SCOPES : scope === 'follow' ? FOLLOW_SCOPES : null;
    return parts !== null && parts.every((part) => grants.has(part));
  });
}

/**
 * Whether a request's scopes allow a route that accepts any of `anyOf` (as Mastodon's `doorkeeper_authorize!`):
 * undefined scopes (the web app's own token) allow everything; `read` allows `read:statuses`, and so on.
 */
export function allows(scopes: readonly string[] | undefined, anyOf: readonly string[]): boolean {
  if (scopes === undefined) return true;
  const grants = expandScopes(scopes);
  return anyOf.length === 0 || anyOf.some((scope) => grants.has(scope));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The auth guards, for requireScopes/optionalScopes (set by wireOAuth on the root instance). */
    oauthGuards: Pick<AuthGuards, 'requireUser' | 'optionalUser'>;
  }
}

/** Answers Mastodon's `{"error": "…"}` for a refusal of the project's guards (they throw HttpError). */
function mastodonRefusal(reply: FastifyReply, error: unknown): FastifyReply {
  if (!(error instanceof HttpError)) throw error;
  if (error.statusCode === 429) {
    return reply.code(429).headers(error.headers).send({ error: 'Too many requests' });
  }
  // A suspended account's token (the guards' only other 403 is an app on the web app's own account routes).
  if (error.statusCode === 403) {
    return reply.code(403).send({ error: error.message === WEB_ONLY_MESSAGE ? error.message : SCOPE_ERRORS.disabled });
  }
  // Missing, invalid, ended, or an account that is gone: Mastodon says the same for all.
  return reply.code(401).send({ error: SCOPE_ERRORS.invalidToken });
}

/**
 * preHandler of a Mastodon route that needs a signed-in person and any one of `anyOf` (e.g.
 * `requireScopes('read', 'read:statuses')`; `read:statuses` alone is enough, `read` grants it): sets
 * request.userId, sessionId and scopes as guards.requireUser does (its write limit included), and answers as
 * Mastodon: 401 {"error":"The access token is invalid"} without a valid token, 403 {"error":"This action is
 * outside the authorized scopes"} without the scope. The web app's own token counts as every scope.
 */
export function requireScopes(...anyOf: string[]) {
  return async function requireScopesHandler(request: FastifyRequest, reply: FastifyReply) {
    try {
      await request.server.oauthGuards.requireUser(request);
    } catch (error) {
      return mastodonRefusal(reply, error);
    }
    if (!allows(request.scopes, anyOf)) return reply.code(403).send({ error: SCOPE_ERRORS.outside });
  };
}

/**
 * preHandler of a Mastodon route anyone may read (a public timeline, an account): no token reads signed out; a
 * token, when present, must be valid (401) and, when it is an app's, hold one of `anyOf` (403), as on Mastodon.
 */
export function optionalScopes(...anyOf: string[]) {
  return async function optionalScopesHandler(request: FastifyRequest, reply: FastifyReply) {
    if (!request.headers.authorization) {
      request.userId = null;
      return;
    }
    try {
      await request.server.oauthGuards.requireUser(request);
    } catch (error) {
      return mastodonRefusal(reply, error);
    }
    if (!allows(request.scopes, anyOf)) return reply.code(403).send({ error: SCOPE_ERRORS.outside });
  };
}
