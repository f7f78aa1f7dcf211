import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The session cookie (issue 22): the token again, beside the one the app keeps in localStorage, for document
 * requests only. The pages module reads it for `GET /` and draws the viewer's Home on the server; the API never
 * does (its auth reads the Authorization header alone, so a cross-site form or link cannot act with it).
 * HttpOnly (no script reads it), SameSite=Lax (sent on a link followed from elsewhere, as a page load should be),
 * Path=/ (the document's address), Secure over https, and it lives as long as its token.
 */
export const SESSION_COOKIE = 'sa_session';

const SESSION_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([\\w.-]{1,4096})\\s*(?:;|$)`);

/** Seconds until the token's `exp` (0 when it has none or it cannot be read: then the cookie ends with the browser). */
function secondsLeft(token: string, now: number): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? Math.max(0, Math.floor(payload.exp - now / 1000)) : 0;
  } catch {
    return 0;
  }
}

const attributes = (request: FastifyRequest) =>
  `Path=/; HttpOnly; SameSite=Lax${request.protocol === 'https' ? '; Secure' : ''}`;

/** The Set-Cookie value that keeps `token` for document requests as long as the token lives. */
export function sessionCookie(token: string, request: FastifyRequest, now = Date.now()): string {
  const seconds = secondsLeft(token, now);
  return `${SESSION_COOKIE}=${token}; ${seconds > 0 ? `Max-Age=${seconds}; ` : ''}${attributes(request)}`;
}

/** The Set-Cookie value that removes the session cookie. */
export const clearedSessionCookie = (request: FastifyRequest): string =>
  `${SESSION_COOKIE}=; Max-Age=0; ${attributes(request)}`;

/** Every answer that hands out a token sets the cookie too (sign-up, log-in, second factor, passkey). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.header('set-cookie', sessionCookie(token, request));
}

/** LOG OUT, and a document request whose cookie's session has ended: the cookie goes. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', clearedSessionCookie(request));
}

/** The token a request's Cookie header carries, if any (its validity is the caller's to check). */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  return SESSION_COOKIE_VALUE.exec(cookieHeader)?.[1];
}
