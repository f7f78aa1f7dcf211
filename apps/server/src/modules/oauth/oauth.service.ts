import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.js';
import { insertAppSession } from '../../actions/oauth.js';
import { HttpError } from '../../lib/http-error.js';
import type { TokenClaims } from '../../lib/tokens.js';
import { endSessions } from '../sessions/index.js';
import {
  deleteApp as deleteAppRow,
  deleteAppToken,
  insertApp,
  insertAppToken,
  insertCode,
  selectAppByClientId,
  selectAppById,
  selectAppSessions,
  selectAppToken,
  selectSessionByToken,
  takeCode,
  type AppRow,
} from './oauth.sql.js';
import { isSubset, parseScopes, SCOPE_ERRORS } from './scopes.js';

/** The redirect address of an app with no web address: the code is shown to copy (RFC 6749's "out of band"). */
export const OOB = 'urn:ietf:wg:oauth:2.0:oob';
/** How long an authorization code may be exchanged, as Mastodon (Doorkeeper) allows. */
export const CODE_LIFETIME_SECONDS = 600;
/** Mastodon's limits of a registration's fields. */
export const APP_LIMITS = { name: 60, website: 2000, redirectUri: 2000, redirectUris: 20 } as const;

/** An opaque credential: 32 random bytes as 43 base64url characters, as Mastodon's are. */
export const newSecret = () => randomBytes(32).toString('base64url');
/** What is stored of a credential: its SHA-256 (hex). */
export const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** An RFC 6749 error of the token and revocation endpoints: `{error, error_description}` with its status. */
export class OAuthError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/** Doorkeeper's words, which Mastodon answers with. */
export const OAUTH_ERRORS = {
  invalid_request: (detail?: string) =>
    new OAuthError(
      400,
      'invalid_request',
      detail ??
        'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.',
    ),
  invalid_client: () =>
    new OAuthError(
      401,
      'invalid_client',
      'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
    ),
  invalid_grant: () =>
    new OAuthError(
      400,
      'invalid_grant',
      'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
    ),
  unsupported_grant_type: () =>
    new OAuthError(
      400,
      'unsupported_grant_type',
      'The authorization grant type is not supported by the authorization server.',
    ),
  invalid_scope: () => new OAuthError(400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.'),
  unauthorized_client: () => new OAuthError(403, 'unauthorized_client', 'You are not authorized to revoke this token'),
} as const;

/** What the authorization page says when it cannot go on (never a redirect to an address not registered). */
export const AUTHORIZE_ERRORS = {
  unknownClient: 'This app is not registered on Share Arts (unknown client_id): go back to the app and try again.',
  redirectMismatch:
    'The address this app asked to return to (redirect_uri) is not one it registered, so Share Arts will not send you there.',
  responseType: 'This app asked for a kind of authorization Share Arts does not give (response_type must be "code").',
  scope: 'The requested scope is invalid, unknown, or malformed.',
  pkce: 'This app asked for a PKCE method Share Arts does not support (code_challenge_method must be "S256").',
} as const;

/** Mastodon's Application entity (4.3): with client_id and client_secret when it is just registered. */
export interface ApplicationEntity {
  id: string;
  name: string;
  website: string | null;
  scopes: string[];
  redirect_uri: string;
  redirect_uris: string[];
  vapid_key: string;
  client_id?: string;
  client_secret?: string;
  client_secret_expires_at?: number;
}

const entityFrom = (row: AppRow, vapidKey: string): ApplicationEntity => ({
  id: row.id,
  name: row.name,
  website: row.website,
  scopes: row.scopes.split(' '),
  redirect_uri: row.redirect_uris.join('\n'),
  redirect_uris: row.redirect_uris,
  // The server's VAPID public key (the push module's), which an app's push subscription is signed against.
  vapid_key: vapidKey,
});

/** A body's or query's field as text (forms give strings; JSON may give anything). */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function sameSecret(secret: string, hash: string): boolean {
  const given = Buffer.from(hashOf(secret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** A redirect address an app may register: the out-of-band one, or an absolute URI without a fragment. */
function validRedirectUri(uri: string): boolean {
  if (uri === OOB) return true;
  if (uri.length > APP_LIMITS.redirectUri || uri.includes('#')) return false;
  try {
    const url = new URL(uri);
    // javascript: and data: are not places to send a code.
    return !['javascript:', 'data:', 'vbscript:', 'file:'].includes(url.protocol);
  } catch {
    return false;
  }
}

/** The address a code or a refusal is sent to: the registered one with its parameters added. */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, value);
  return `${uri}${uri.includes('?') ? '&' : '?'}${query.toString()}`;
}

export interface AuthorizeParams {
  response_type?: string | undefined;
  client_id?: string | undefined;
  redirect_uri?: string | undefined;
  scope?: string | undefined;
  state?: string | undefined;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
}

/**
 * `vapidKey` answers the server's VAPID public key when an app is shown: the push module keeps it and is wired
 * after this one (it needs the live module's `online`), so the wiring reads it from the app when asked; '' (as
 * Mastodon answers for a server without Web Push) when there is none.
 */
export function createOAuthService({ db, vapidKey = () => '' }: { db: Db; vapidKey?: () => string }) {
  const entityOf = (row: AppRow): ApplicationEntity => entityFrom(row, vapidKey());
  /** What the authorization page checks before it shows anything: 400 with a sentence when it cannot go on. */
  async function checkAuthorization(params: AuthorizeParams) {
    const app = params.client_id ? await selectAppByClientId(db, params.client_id) : undefined;
    if (!app) throw new HttpError(400, AUTHORIZE_ERRORS.unknownClient);
    // Without redirect_uri, an app with a single address means it (as Doorkeeper allows).
    const redirectUri = params.redirect_uri ?? (app.redirect_uris.length === 1 ? app.redirect_uris[0]! : '');
    if (!app.redirect_uris.includes(redirectUri)) throw new HttpError(400, AUTHORIZE_ERRORS.redirectMismatch);
    if (params.response_type !== 'code') throw new HttpError(400, AUTHORIZE_ERRORS.responseType);
    const appScopes = app.scopes.split(' ');
    const scopes = parseScopes(params.scope, appScopes.includes('read') ? ['read'] : appScopes);
    if (!scopes || !isSubset(scopes, appScopes)) throw new HttpError(400, AUTHORIZE_ERRORS.scope);
    const challenge = params.code_challenge || null;
    const method = challenge ? (params.code_challenge_method ?? 'S256') : null;
    if (method !== null && method !== 'S256') throw new HttpError(400, AUTHORIZE_ERRORS.pkce);
    if (challenge !== null && !/^[A-Za-z0-9_~.-]{43,128}$/.test(challenge))
      throw new HttpError(400, AUTHORIZE_ERRORS.pkce);
    return { app, redirectUri, scopes, challenge, method };
  }

  /** The app that authenticates with client_id and client_secret (in the body or HTTP Basic), or 401. */
  async function authenticateClient(body: Record<string, unknown>, authorization: string | undefined): Promise<AppRow> {
    let clientId = text(body.client_id);
    let clientSecret = text(body.client_secret);
    const basic = authorization ? /^basic\s+(.+)$/i.exec(authorization.trim()) : null;
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        try {
          clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
          clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
        } catch {
          throw OAUTH_ERRORS.invalid_client();
        }
      }
    }
    if (!clientId || !clientSecret) throw OAUTH_ERRORS.invalid_client();
    const app = await selectAppByClientId(db, clientId);
    if (!app || !sameSecret(clientSecret, app.client_secret_hash)) throw OAUTH_ERRORS.invalid_client();
    return app;
  }

  return {
    /** POST /api/v1/apps: answers Mastodon's 422 `Validation failed: …` sentences for a bad field. */
    async register(body: Record<string, unknown>): Promise<ApplicationEntity> {
      const name = (text(body.client_name) ?? '').trim();
      if (name === '') throw new HttpError(422, "Validation failed: Application name can't be blank");
      if (name.length > APP_LIMITS.name) {
        throw new HttpError(
          422,
          `Validation failed: Application name is too long (maximum is ${APP_LIMITS.name} characters)`,
        );
      }
      const raw = body.redirect_uris ?? body.redirect_uri;
      const uris = [
        ...new Set(
          (Array.isArray(raw) ? raw : [raw])
            .filter((uri): uri is string => typeof uri === 'string')
            .flatMap((uri) => uri.split(/\s+/))
            .filter((uri) => uri !== ''),
        ),
      ];
      if (uris.length === 0) throw new HttpError(422, "Validation failed: Redirect URI can't be blank");
      if (uris.length > APP_LIMITS.redirectUris || !uris.every(validRedirectUri)) {
        throw new HttpError(422, 'Validation failed: Redirect URI must be an absolute URI.');
      }
      const scopes = parseScopes(body.scopes);
      if (!scopes) throw new HttpError(422, SCOPE_ERRORS.appScopes);
      const websiteText = (text(body.website) ?? '').trim();
      let website: string | null = null;
      if (websiteText !== '') {
        let url: URL | undefined;
        try {
          url = new URL(websiteText);
        } catch {
          url = undefined;
        }
        if (!url || !['http:', 'https:'].includes(url.protocol) || websiteText.length > APP_LIMITS.website) {
          throw new HttpError(422, 'Validation failed: Website is invalid');
        }
        website = websiteText;
      }
      const clientId = newSecret();
      const clientSecret = newSecret();
      const row = await insertApp(db, {
        clientId,
        clientSecretHash: hashOf(clientSecret),
        name,
        website,
        redirectUris: uris,
        scopes: scopes.join(' '),
      });
      return { ...entityOf(row), client_id: clientId, client_secret: clientSecret, client_secret_expires_at: 0 };
    },

    entityOf,

    /** The authorization page's first look: the app and what it asks, or 400 with a sentence. */
    async preview(params: AuthorizeParams) {
      const { app, redirectUri, scopes } = await checkAuthorization(params);
      return { app: { name: app.name, website: app.website }, scopes, redirectUri, outOfBand: redirectUri === OOB };
    },

    /**
     * The person's answer on the consent page (signed in with the web app's token): Authorize makes a code
     * (single-use, CODE_LIFETIME_SECONDS) sent back to the registered address with `state`, or shown to copy for
     * the out-of-band address; Deny sends `error=access_denied` back.
     */
    async decide(
      userId: string,
      params: AuthorizeParams,
      approve: boolean,
    ): Promise<{ redirectUrl: string | null; code: string | null }> {
      const { app, redirectUri, scopes, challenge, method } = await checkAuthorization(params);
      if (!approve) {
        if (redirectUri === OOB) return { redirectUrl: null, code: null };
        return {
          redirectUrl: withParams(redirectUri, {
            error: 'access_denied',
            error_description: 'The resource owner or authorization server denied the request.',
            state: params.state,
          }),
          code: null,
        };
      }
      const code = newSecret();
      await insertCode(db, {
        codeHash: hashOf(code),
        appId: app.id,
        userId,
        redirectUri,
        scopes: scopes.join(' '),
        codeChallenge: challenge,
        codeChallengeMethod: method,
        lifetimeSeconds: CODE_LIFETIME_SECONDS,
      });
      if (redirectUri === OOB) return { redirectUrl: null, code };
      return { redirectUrl: withParams(redirectUri, { code, state: params.state }), code: null };
    },

    authenticateClient,

    /** POST /oauth/token: authorization_code (with PKCE) and client_credentials; RFC 6749 errors otherwise. */
    async token(
      body: Record<string, unknown>,
      authorization: string | undefined,
      client: { userAgent: string; address: string },
    ): Promise<{ access_token: string; token_type: 'Bearer'; scope: string; created_at: number }> {
      const grantType = text(body.grant_type);
      if (!grantType) throw OAUTH_ERRORS.invalid_request();
      if (grantType !== 'authorization_code' && grantType !== 'client_credentials') {
        throw OAUTH_ERRORS.unsupported_grant_type();
      }
      const app = await authenticateClient(body, authorization);
      const accessToken = newSecret();
      const createdAt = Math.floor(Date.now() / 1000);
      if (grantType === 'client_credentials') {
        const appScopes = app.scopes.split(' ');
        const scopes = parseScopes(body.scope, appScopes.includes('read') ? ['read'] : appScopes);
        if (!scopes || !isSubset(scopes, appScopes)) throw OAUTH_ERRORS.invalid_scope();
        await insertAppToken(db, hashOf(accessToken), app.id, scopes.join(' '));
        return { access_token: accessToken, token_type: 'Bearer', scope: scopes.join(' '), created_at: createdAt };
      }
      const code = text(body.code);
      if (!code) throw OAUTH_ERRORS.invalid_request();
      const grant = await takeCode(db, hashOf(code));
      if (!grant || grant.expired || grant.app_id !== app.id) throw OAUTH_ERRORS.invalid_grant();
      // The address must be the one the code was sent to (RFC 6749 4.1.3); an app with one may leave it out.
      const redirectUri =
        text(body.redirect_uri) ?? (app.redirect_uris.length === 1 ? app.redirect_uris[0] : undefined);
      if (redirectUri !== grant.redirect_uri) throw OAUTH_ERRORS.invalid_grant();
      if (grant.code_challenge !== null) {
        const verifier = text(body.code_verifier);
        if (!verifier || !/^[A-Za-z0-9_~.-]{43,128}$/.test(verifier)) throw OAUTH_ERRORS.invalid_grant();
        const computed = createHash('sha256').update(verifier).digest('base64url');
        if (computed !== grant.code_challenge) throw OAUTH_ERRORS.invalid_grant();
      }
      await insertAppSession(db, {
        userId: grant.user_id,
        appId: app.id,
        scopes: grant.scopes,
        tokenHash: hashOf(accessToken),
        userAgent: client.userAgent,
        address: client.address,
      });
      return { access_token: accessToken, token_type: 'Bearer', scope: grant.scopes, created_at: createdAt };
    },

    /**
     * POST /oauth/revoke: the app's token ends (a person's: its session, at once, everywhere; an app's own: its
     * row). An unknown token answers as a known one (200 {}), as RFC 7009 and Mastodon do; another app's is 403.
     */
    async revoke(body: Record<string, unknown>, authorization: string | undefined): Promise<void> {
      const app = await authenticateClient(body, authorization);
      const token = text(body.token);
      if (!token) throw OAUTH_ERRORS.invalid_request();
      const tokenHash = hashOf(token);
      const session = await selectSessionByToken(db, tokenHash);
      if (session) {
        if (session.oauth_app_id !== app.id) throw OAUTH_ERRORS.unauthorized_client();
        await endSessions(db, session.user_id, { sessionId: session.id });
        return;
      }
      const appToken = await selectAppToken(db, tokenHash);
      if (appToken) {
        if (appToken.app_id !== app.id) throw OAUTH_ERRORS.unauthorized_client();
        await deleteAppToken(db, tokenHash);
      }
    },

    /** The app a token belongs to, for GET /api/v1/apps/verify_credentials (an app's own token included). */
    async appOfToken(claims: TokenClaims | null, token: string | undefined): Promise<AppRow | undefined> {
      if (claims?.appId) return selectAppById(db, claims.appId);
      if (!token || token.includes('.')) return undefined;
      const appToken = await selectAppToken(db, hashOf(token));
      return appToken && selectAppById(db, appToken.app_id);
    },

    /** Deletes an app: every session it holds ends at once (their tokens stop), then the app and its codes go. */
    async deleteApp(appId: string): Promise<void> {
      for (const session of await selectAppSessions(db, appId)) {
        await endSessions(db, session.user_id, { sessionId: session.id });
      }
      await deleteAppRow(db, appId);
    },
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;

/**
 * The claims of an app's access token, for the token check (modules/auth/token-check.ts), which then checks its
 * account and session as a JWT's: the token names a session for life, so what a token names is remembered (an
 * LRU keyed by its SHA-256) and never stale; whether that session still lives is the session check's question
 * (revoking or ending it forgets it at once). An unknown token is looked up each time (one primary-key read).
 */
export function createOAuthTokenLookup({ db, max = 100_000 }: { db: Db; max?: number }) {
  const known = new LRUCache<string, TokenClaims>({ max });
  return async function appToken(token: string): Promise<TokenClaims | null> {
    if (!/^[A-Za-z0-9_-]{20,200}$/.test(token)) return null;
    const tokenHash = hashOf(token);
    const seen = known.get(tokenHash);
    if (seen) return seen;
    const row = await selectSessionByToken(db, tokenHash);
    if (!row) return null;
    const claims: TokenClaims = {
      userId: row.user_id,
      username: row.username,
      sessionId: row.id,
      scopes: row.oauth_scopes.split(' '),
      appId: row.oauth_app_id,
    };
    known.set(tokenHash, claims);
    return claims;
  };
}
