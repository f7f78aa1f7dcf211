import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { addressKey } from '../../lib/client-address.js';
import { HttpError } from '../../lib/http-error.js';
import type { RateLimit, RateLimiter } from '../../lib/rate-limiter.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import { tokenFromHeader } from '../../lib/tokens.js';
import type { AuthGuards, TokenCheck } from '../../plugins/auth.js';
import { sessionClient } from '../sessions/index.js';
import { APP_LIMITS, OAuthError, type AuthorizeParams, type OAuthService } from './oauth.service.js';
import { SCOPE_ERRORS, SCOPES_SUPPORTED } from './scopes.js';

/** Registrations from one address (Mastodon's apps are made once per install). */
export const APPS_PER_ADDRESS: RateLimit = { max: 30, windowMs: 5 * 60_000 };
/** Token requests (and revocations) from one address. */
export const TOKENS_PER_ADDRESS: RateLimit = { max: 60, windowMs: 5 * 60_000 };

type Body = Record<string, unknown>;

/** Mastodon's refusal: `{"error": "…"}`. */
const MastodonError = (description: string) => Type.Object({ error: Type.String() }, { description });

const nullableString = Type.Union([Type.String(), Type.Null()]);
/** Mastodon's Application entity (4.3); client_id and client_secret only when it is just registered. */
const Application = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    website: nullableString,
    scopes: Type.Array(Type.String(), { maxItems: SCOPES_SUPPORTED.length }),
    redirect_uri: Type.String(),
    redirect_uris: Type.Array(Type.String(), { maxItems: APP_LIMITS.redirectUris }),
    vapid_key: Type.String(),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
    client_secret_expires_at: Type.Optional(Type.Integer()),
  },
  { description: "Mastodon's Application" },
);

/** A form (`a=1&b=2`) as an object; a repeated field (`redirect_uris[]=…`) as an array. */
function parseForm(text: string): Body {
  const body: Body = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const isList = rawKey.endsWith('[]');
    const key = isList ? rawKey.slice(0, -2) : rawKey;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const had = body[key];
    if (isList || had !== undefined)
      body[key] = [...(Array.isArray(had) ? had : had === undefined ? [] : [had]), value];
    else body[key] = value;
  }
  return body;
}

const bodyOf = (request: FastifyRequest): Body =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Body) : {};

/** The body's fields, whether JSON, a form, or multipart/form-data (masto.js sends its token requests so). */
async function fieldsOf(request: FastifyRequest): Promise<Body> {
  if (!request.isMultipart()) return bodyOf(request);
  const body: Body = {};
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'field') throw new HttpError(400, 'A file has no place here');
      const key = part.fieldname.endsWith('[]') ? part.fieldname.slice(0, -2) : part.fieldname;
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
      const value = String(part.value);
      const had = body[key];
      body[key] =
        had === undefined && !part.fieldname.endsWith('[]')
          ? value
          : [...(Array.isArray(had) ? had : had === undefined ? [] : [had]), value];
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'The multipart/form-data body is malformed');
  }
  return body;
}

/** The origin the metadata names: PUBLIC_ORIGIN, else the request's own. */
const originOf = (request: FastifyRequest, publicOrigin: string | undefined) =>
  publicOrigin ?? `${request.protocol}://${request.host}`;

/**
 * The doors Mastodon apps knock at (issue 45): registration, the token and revocation endpoints, and the server's
 * metadata. Their bodies may be forms or JSON, and their refusals are Mastodon's (`{"error": "…"}`) or, at the
 * token and revocation endpoints, RFC 6749's (`{"error", "error_description"}`).
 */
export async function mastodonOAuthRoutes(
  app: FastifyInstance,
  {
    oauth,
    tokenCheck,
    limiter,
    publicOrigin,
  }: { oauth: OAuthService; tokenCheck: TokenCheck; limiter: RateLimiter; publicOrigin: string | undefined },
) {
  // Apps send forms (Tusky, Mastodon.py) or JSON (masto.js, Ice Cubes): here a form is a form.
  app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text.startsWith('{')) {
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new HttpError(400, 'The body is not valid JSON'), undefined);
      }
      return;
    }
    done(null, parseForm(text));
  });

  // … and multipart/form-data, text fields only.
  await app.register(multipart, {
    limits: { fileSize: 0, files: 0, fields: 50, fieldSize: 4000, fieldNameSize: 100, headerPairs: 50 },
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof OAuthError) {
      return reply
        .code(error.statusCode)
        .header('cache-control', 'no-store')
        .send({ error: error.error, error_description: error.description });
    }
    if (error instanceof HttpError)
      return reply.code(error.statusCode).headers(error.headers).send({ error: error.message });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ error: error.message });
    throw error;
  });

  app.post(
    '/api/v1/apps',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Register an app (Mastodon)',
        description:
          'Mastodon\'s dynamic client registration: client_name, redirect_uris (one per line or space, an array, or urn:ietf:wg:oauth:2.0:oob), scopes (space-separated; default "read"), website. Answers the Application with its client_id and client_secret (kept only as its SHA-256). 422 {"error": "Validation failed: …"} for a bad field. Limited per address.',
        response: {
          200: Application,
          400: MastodonError('A body that is not a form, JSON or multipart'),
          422: MastodonError('Validation failed: a bad field'),
          429: MastodonError('Too many registrations from this address'),
        },
      },
    },
    async (request) => {
      await limiter.hit(`oauth-apps:${addressKey(request.ip)}`, APPS_PER_ADDRESS);
      return oauth.register(await fieldsOf(request));
    },
  );

  app.get(
    '/api/v1/apps/verify_credentials',
    {
      schema: {
        tags: ['oauth'],
        summary: 'The app of a token (Mastodon)',
        description: "The Application an app's token (a person's or its own, from client_credentials) belongs to.",
        security: bearerAuth,
        response: { 200: Application, 401: MastodonError('The access token is invalid') },
      },
    },
    async (request, reply) => {
      const token = tokenFromHeader(request.headers.authorization);
      const verdict = await tokenCheck.check(token);
      const found = await oauth.appOfToken(verdict.status === 'valid' ? verdict.claims : null, token);
      if (!found) return reply.code(401).send({ error: SCOPE_ERRORS.invalidToken });
      return oauth.entityOf(found);
    },
  );

  app.post(
    '/oauth/token',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Get an access token (OAuth 2)',
        description:
          'grant_type authorization_code (code, redirect_uri, code_verifier when the authorization had a PKCE challenge) or client_credentials (scope), with client_id and client_secret in the body or HTTP Basic. Answers access_token, token_type Bearer, scope and created_at; the token does not expire (no refresh token, as Mastodon). Errors as RFC 6749: 400 invalid_request, invalid_grant, invalid_scope, unsupported_grant_type; 401 invalid_client.',
      },
    },
    async (request, reply) => {
      await limiter.hit(`oauth-token:${addressKey(request.ip)}`, TOKENS_PER_ADDRESS);
      const answer = await oauth.token(await fieldsOf(request), request.headers.authorization, sessionClient(request));
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );

  app.post(
    '/oauth/revoke',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Revoke a token (OAuth 2)',
        description:
          "token, client_id, client_secret (or HTTP Basic): a person's token ends its session at once (as ending it in \"Where you're signed in\"); answers 200 {} for an unknown token too. 401 invalid_client, 403 unauthorized_client for another app's token.",
      },
    },
    async (request) => {
      await limiter.hit(`oauth-token:${addressKey(request.ip)}`, TOKENS_PER_ADDRESS);
      await oauth.revoke(await fieldsOf(request), request.headers.authorization);
      return {};
    },
  );

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        tags: ['oauth'],
        summary: 'OAuth server metadata (RFC 8414)',
        description: 'As Mastodon 4.3 serves it: the endpoints, the scopes, and what is supported.',
      },
    },
    async (request, reply) => {
      const origin = originOf(request, publicOrigin);
      return reply.header('cache-control', 'public, max-age=3600').send({
        issuer: `${origin}/`,
        service_documentation: 'https://docs.joinmastodon.org/',
        authorization_endpoint: `${origin}/oauth/authorize`,
        token_endpoint: `${origin}/oauth/token`,
        app_registration_endpoint: `${origin}/api/v1/apps`,
        revocation_endpoint: `${origin}/oauth/revoke`,
        scopes_supported: SCOPES_SUPPORTED,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    },
  );
}

const AuthorizeQuery = Type.Object({
  response_type: Type.Optional(Type.String({ maxLength: 100 })),
  client_id: Type.Optional(Type.String({ maxLength: 200 })),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2000 })),
  scope: Type.Optional(Type.String({ maxLength: 2000 })),
  state: Type.Optional(Type.String({ maxLength: 2000 })),
  code_challenge: Type.Optional(Type.String({ maxLength: 200 })),
  code_challenge_method: Type.Optional(Type.String({ maxLength: 20 })),
});

const AuthorizeBody = Type.Object({ ...AuthorizeQuery.properties, approve: Type.Boolean() });

const AuthorizePreview = Type.Object({
  app: Type.Object({ name: Type.String(), website: Type.Union([Type.String(), Type.Null()]) }),
  scopes: Type.Array(Type.String(), { maxItems: SCOPES_SUPPORTED.length }),
  redirectUri: Type.String(),
  outOfBand: Type.Boolean(),
});

const AuthorizeDecision = Type.Object({
  redirectUrl: Type.Union([Type.String(), Type.Null()]),
  code: Type.Union([Type.String(), Type.Null()]),
});

/**
 * The web app's side of the authorization page (/oauth/authorize, drawn by apps/web/src/features/oauth): what an
 * authorization asks (anyone may look, so a bad link is said before signing in), and the person's answer, with
 * the web app's own token only (an app's token is refused: plugins/auth.ts, WEB_ONLY_ROUTE).
 */
export const oauthWebRoutes: FastifyPluginAsyncTypebox<{ oauth: OAuthService; guards: AuthGuards }> = async (
  app,
  { oauth, guards },
) => {
  app.get(
    '/oauth/authorizations/new',
    {
      schema: {
        tags: ['oauth'],
        summary: 'What an app asks to be authorized for',
        description:
          "The authorization page's parameters checked: the app's name and website, the scopes asked, where the answer goes. 400 with a sentence for an unknown client_id, a redirect_uri the app did not register, a response_type other than code, an unknown scope or one beyond the app's, a PKCE method other than S256.",
        querystring: AuthorizeQuery,
        response: { 200: AuthorizePreview, ...errorResponses(400) },
      },
    },
    async (request) => oauth.preview(request.query as AuthorizeParams),
  );

  app.post(
    '/oauth/authorizations',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['oauth'],
        summary: 'Authorize an app, or deny it',
        description:
          'The same parameters as the page, and approve. Authorize: redirectUrl is the registered address with code and state (the code is single-use and valid 10 minutes), or for urn:ietf:wg:oauth:2.0:oob, code to copy. Deny: redirectUrl with error=access_denied and state. 400 as GET /api/oauth/authorizations/new.',
        security: bearerAuth,
        body: AuthorizeBody,
        response: { 200: AuthorizeDecision, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { approve, ...params } = request.body;
      return oauth.decide(request.userId!, params as AuthorizeParams, approve);
    },
  );
};
