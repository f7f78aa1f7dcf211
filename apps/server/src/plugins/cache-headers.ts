import type { FastifyInstance, FastifyReply } from 'fastify';

/** What a cache may do with an API answer (see registerCacheHeaders). */
export const API_CACHE = {
  /** Asked with a token: the viewer's own flags, email, Saved list or token; no cache may keep it. */
  private: 'private, no-store',
  /** An anonymous read: the same for every visitor, but any write changes it, so a cache asks each time. */
  anonymousRead: 'no-cache',
  /** Writes, errors and the rest: nothing worth keeping. */
  other: 'no-store',
} as const;

function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  // Most answers have no Vary yet.
  if (current === undefined) {
    reply.header('vary', field);
    return;
  }
  const fields = String(current ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (fields.includes('*') || fields.some((value) => value.toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', [...fields, field].join(', '));
}

/**
 * Cache headers on every API answer. Most routes read the token when there is one (a post's viewer
 * flags, a user's `viewer`, your own email and bookmarks), so every API answer varies by Authorization:
 * a shared cache in front never hands one reader's answer to another. No API answer carries a validator
 * (no ETag or Last-Modified): `no-cache` means fetch again, which is what live data needs. Media and the
 * built app keep their own (long, public) headers: they never depend on the token.
 */
export function registerCacheHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?')) {
      const read = request.method === 'GET' || request.method === 'HEAD';
      if (request.headers.authorization !== undefined) reply.header('cache-control', API_CACHE.private);
      else if (!reply.hasHeader('cache-control')) {
        reply.header('cache-control', read && reply.statusCode < 300 ? API_CACHE.anonymousRead : API_CACHE.other);
      }
      addVary(reply, 'Authorization');
    }
    done(null, payload);
  });
}
