import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';

export interface TokenClaims {
  userId: string;
  username: string;
  /** The server-side session the token names (its `sid` claim, issue 24): refused once the session ended. */
  sessionId: string;
  /** When the token stops being valid (ms since the epoch), if it says. */
  expiresAt?: number;
  /**
   * An app's OAuth token (issue 45, modules/oauth): the scopes it was granted, and the app. Undefined for the web
   * app's own token, which may do everything.
   */
  scopes?: readonly string[];
  appId?: string;
}

export interface TokenService {
  sign(claims: Omit<TokenClaims, 'expiresAt'>): Promise<string>;
  /**
   * The claims of a valid token, or null for a forged, tampered, expired or malformed one, or one without a
   * session (`sid`: signed before issue 24; its holder signs in again). Whether the session is still live
   * is the token check's question (modules/auth/token-check.ts).
   */
  verify(token: string): Promise<TokenClaims | null>;
}

/**
 * Signs and verifies the API's JWTs. A token verified once is remembered (by its exact text) until it
 * expires, so a signed-in request does not compute an HMAC again; a token that fails is never
 * remembered, and expiry is checked on every use.
 */
export function createTokenService(
  secret: string,
  expiresIn: string,
  options: { remember?: number } = {},
): TokenService {
  const key = new TextEncoder().encode(secret);
  const verified = new LRUCache<string, TokenClaims>({ max: options.remember ?? 10_000 });

  async function check(token: string): Promise<TokenClaims | null> {
    if (!isCanonical(token)) return null;
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.username !== 'string') return null;
      if (typeof payload.sid !== 'string') return null;
      return {
        userId: payload.sub,
        username: payload.username,
        sessionId: payload.sid,
        ...(payload.exp === undefined ? {} : { expiresAt: payload.exp * 1000 }),
      };
    } catch {
      return null;
    }
  }

  return {
    sign: ({ userId, username, sessionId }) =>
      new SignJWT({ username, sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(key),
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAt === undefined || known.expiresAt > Date.now()) return known;
        verified.delete(token);
        return null;
      }
      const claims = await check(token);
      if (claims) verified.set(token, claims);
      return claims;
    },
  };
}

/**
 * Three base64url segments, each written as its bytes encode: no padding, no other characters, and no
 * stray bits in the last character. jose decodes leniently, so `<token>=` or a last character changed
 * in its unused bits verified as the same token: two spellings of one credential.
 */
function isCanonical(token: string): boolean {
  const segments = token.split('.');
  return (
    segments.length === 3 &&
    segments.every(
      (segment) =>
        /^[A-Za-z0-9_-]+$/.test(segment) && Buffer.from(segment, 'base64url').toString('base64url') === segment,
    )
  );
}

/** Reads the token from `authorization`, raw (as the first client sent it) or as `Bearer <jwt>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const match = /^bearer\s+(.+)$/i.exec(value);
  return (match ? match[1]! : value).trim() || undefined;
}
