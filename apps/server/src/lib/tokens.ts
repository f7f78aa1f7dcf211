import { SignJWT, jwtVerify } from 'jose';

export interface TokenClaims {
  userId: string;
  username: string;
  /** When the token stops being valid (ms since the epoch), if it says. */
  expiresAt?: number;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** The claims of a valid token, or null for a forged, tampered, expired or malformed one. */
  verify(token: string): Promise<TokenClaims | null>;
}

export function createTokenService(secret: string, expiresIn: string): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    sign: ({ userId, username }) =>
      new SignJWT({ username })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.username !== 'string') return null;
        return {
          userId: payload.sub,
          username: payload.username,
          ...(payload.exp === undefined ? {} : { expiresAt: payload.exp * 1000 }),
        };
      } catch {
        return null;
      }
    },
  };
}

/** Reads the token from `authorization`, raw (as the first client sent it) or as `Bearer <jwt>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const match = /^bearer\s+(.+)$/i.exec(value);
  return (match ? match[1]! : value).trim() || undefined;
}
