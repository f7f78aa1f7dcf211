/**
 * A comment's Idempotency-Key in the service worker (issue 44): the offline queue may send a comment again whose first
 * try reached the server (the answer was lost, or the network dropped after the request left); the server answers
 * the same key from the same person with the first comment and adds nothing (docs/pwa.md). The page gives each
 * comment its own key; a comment POST that comes without one gets one here, before its first try, so that the first
 * try and every replay of the queued copy carry the same key. Likes and bookmarks need none: they set a state.
 */
const COMMENT_WRITE = /^\/api\/posts\/[\w-]+\/comment$/;
export const IDEMPOTENCY_HEADER = 'idempotency-key';

export function withIdempotencyKey(request: Request, newKey: () => string = () => crypto.randomUUID()): Request {
  if (request.method !== 'POST' || request.headers.has(IDEMPOTENCY_HEADER)) return request;
  if (!COMMENT_WRITE.test(new URL(request.url).pathname)) return request;
  const headers = new Headers(request.headers);
  headers.set(IDEMPOTENCY_HEADER, newKey());
  return new Request(request, { headers });
}
