import type { TokenClaims, TokenService } from '../../lib/tokens.js';
import type { TokenCheck, TokenVerdict } from '../../plugins/auth.js';

/**
 * The one token verification of the API, for HTTP requests (plugins/auth.ts), POST /api/auth/verify and
 * the live socket's hello: a token is valid when it verifies (signature, expiry: see lib/tokens.ts) and
 * its account still exists, since a token outlives its account.
 */
export function createTokenCheck({
  tokens,
  accountExists,
}: {
  tokens: TokenService;
  /** True while the account exists (createAccountCheck in modules/users, which remembers the answer). */
  accountExists: (userId: string) => Promise<boolean>;
}): TokenCheck {
  const claims = async (token: string | undefined): Promise<TokenClaims | null> =>
    token ? tokens.verify(token) : null;
  return {
    claims,
    async check(token): Promise<TokenVerdict> {
      if (!token) return { status: 'missing' };
      const verified = await tokens.verify(token);
      if (!verified) return { status: 'invalid' };
      if (!(await accountExists(verified.userId))) return { status: 'gone', claims: verified };
      return { status: 'valid', claims: verified };
    },
  };
}
