// The OAuth module's public face (issue 45, docs/oauth.md): Mastodon apps' registration, authorization, tokens
// and revocation; the token lookup the token check reads app tokens with (app.ts); and the scope guards of the
// Mastodon routes (requireScopes, optionalScopes: 401/403 as Mastodon answers).
export { wireOAuth, type OAuthModule } from './oauth.module.js';
export { createOAuthTokenLookup, type OAuthService } from './oauth.service.js';
export {
  allows,
  DEFAULT_SCOPES,
  expandScopes,
  optionalScopes,
  parseScopes,
  requireScopes,
  SCOPE_ERRORS,
  SCOPES_SUPPORTED,
} from './scopes.js';
