import type { TokenClaims, TokenService } from '../../lib/tokens.js';
import type { TokenCheck, TokenVerdict } from '../../plugins/auth.js';
import type { AccountStatus } from '../users/index.js';

/**
 * The one token verification of the API, for HTTP requests (plugins/auth.ts), POST /api/auth/verify and
 * the live socket's hello: a token is valid when it verifies (signature, expiry: see lib/tokens.ts), its
 * account still exists, since a token outlives its account, and is not suspended (issue 23: a
 * suspension ends its tokens at once), and the session it names is still live (issue 24: LOG OUT, or a
 * session ended from the settings or by a password change, ends its token at once).
 */
export function createTokenCheck({
  tokens,
  accountStatus,
  sessionLive,
  appToken = async () => null,
}: {
  tokens: TokenService;
  /**
   * An app's opaque OAuth access token (issue 45: createOAuthTokenLookup in modules/oauth): the claims of the
   * session it names, with its scopes, or null. Its account and session are then checked as a JWT's are.
   */
  appToken?: (token: string) => Promise<TokenClaims | null>;
  /** Whether the account exists and is not suspended (createAccountCheck in modules/users, which remembers it). */
  accountStatus: (userId: string) => Promise<AccountStatus>;
  /** Whether the token's session was not ended (createSessionCheck in modules/sessions, which remembers it). */
  sessionLive: (sessionId: string, userId: string) => Promise<boolean>;
}): TokenCheck {
  async function check(token: string | undefined): Promise<TokenVerdict> {
    if (!token) return { status: 'missing' };
    // A JWT has two dots; an OAuth access token (43 base64url characters) has none.
    const verified = token.includes('.') ? await tokens.verify(token) : await appToken(token);
    if (!verified) return { status: 'invalid' };
    // The account first: a deleted account's sessions went with it, and its token answers "gone".
    const account = await accountStatus(verified.userId);
    if (account.state === 'gone') return { status: 'gone', claims: verified };
    if (account.state === 'suspended') return { status: 'suspended', claims: verified, until: account.until };
    if (!(await sessionLive(verified.sessionId, verified.userId))) return { status: 'invalid' };
    return { status: 'valid', claims: verified };
  }
  return {
    check,
    // A token that only reads (optionalUser) counts as signed in on the same terms: a suspended account's
    // token reads as signed out, as a deleted one's does (issue 23: a suspension ends its tokens at once).
    async claims(token): Promise<TokenClaims | null> {
      const verdict = await check(token);
      return verdict.status === 'valid' ? verdict.claims : null;
    },
  };
}
