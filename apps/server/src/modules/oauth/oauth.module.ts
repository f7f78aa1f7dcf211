import type { ServerContext } from '../../context.js';
import { createOAuthService } from './oauth.service.js';
import { mastodonOAuthRoutes, oauthWebRoutes } from './oauth.routes.js';

/**
 * The OAuth module (issue 45, docs/oauth.md): Mastodon apps register (POST /api/v1/apps), a person authorizes one
 * on the web app's page (/oauth/authorize, answered through POST /api/oauth/authorizations), the app exchanges
 * the code (POST /oauth/token, PKCE) and revokes (POST /oauth/revoke). An authorized app is a session of the
 * sessions module; its opaque token is read by the token check through createOAuthTokenLookup (app.ts), and the
 * Mastodon routes guard their scopes with requireScopes (scopes.ts), which reads the guards set here.
 */
export async function wireOAuth(shared: ServerContext<{ publicOrigin: string | undefined }>) {
  const { app, config, db, guards, limiter, tokenCheck } = shared;
  // The push module, wired after this one, decorates the app with its VAPID key (`app.push.publicKey`).
  const oauth = createOAuthService({ db, vapidKey: () => (app.hasDecorator('push') ? app.push.publicKey : '') });
  // requireScopes and optionalScopes (scopes.ts) are plain preHandlers: they find the guards on the server.
  app.decorate('oauthGuards', { requireUser: guards.requireUser, optionalUser: guards.optionalUser });
  await app.register(mastodonOAuthRoutes, { oauth, tokenCheck, limiter, publicOrigin: config.publicOrigin });
  await app.register(oauthWebRoutes, { prefix: '/api', oauth, guards });
  return { oauth };
}

export type OAuthModule = Awaited<ReturnType<typeof wireOAuth>>;
