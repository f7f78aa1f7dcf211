import type { TokenClaims, TokenService } from '../../lib/tokens.js';
import type { TokenCheck, TokenVerdict } from '../../plugins/auth.js';
import type { AccountStatus } from '../users/index.js';

/**
 * The one token verification of the API, for HTTP requests (plugins/auth.ts), POST /api/auth/verify and
 * the live socket's hello: a token is valid when it verifies (signature, expiry: see lib/tokens.ts) and
 * its account still exists, since a token outlives its account, and is not suspended (issue 23: a
 * suspension ends its tokens at once).
 */
export function createTokenCheck({
  tokens,
  accountStatus,
}: {
  tokens: TokenService;
  /** Whether the account exists and is not suspended (createAccountCheck in modules/users, which remembers it). */
  accountStatus: (userId: string) => Promise<AccountStatus>;
}): TokenCheck {
  const claims = async (token: string | undefined): Promise<TokenClaims | null> =>
    token ? tokens.verify(token) : null;
  return {
    claims,
    async check(token): Promise<TokenVerdict> {
      if (!token) return { status: 'missing' };
      const verified = await tokens.verify(token);
      if (!verified) return { status: 'invalid' };
      const account = await accountStatus(verified.userId);
      if (account.state === 'gone') return { status: 'gone', claims: verified };
      if (account.state === 'suspended') return { status: 'suspended', claims: verified, until: account.until };
      return { status: 'valid', claims: verified };
    },
  };
}
