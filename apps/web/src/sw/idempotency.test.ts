import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER, withIdempotencyKey } from './idempotency';

const comment = (headers: Record<string, string> = {}) =>
  new Request('https://share.example/api/posts/abc-1/comment', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ commentData: { content: 'Lovely' } }),
  });

describe('a queued comment’s Idempotency-Key', () => {
  it('gives a comment without a key one of its own, kept by its copies (the queued replay), body and all', async () => {
    let made = 0;
    const keyed = withIdempotencyKey(comment(), () => `key-${++made}`);
    const queued = keyed.clone();
    expect(keyed.headers.get(IDEMPOTENCY_HEADER)).toBe('key-1');
    expect(queued.headers.get(IDEMPOTENCY_HEADER)).toBe('key-1');
    expect(keyed.headers.get('content-type')).toBe('application/json');
    expect(await queued.json()).toEqual({ commentData: { content: 'Lovely' } });
    // Another comment: another key.
    expect(withIdempotencyKey(comment(), () => `key-${++made}`).headers.get(IDEMPOTENCY_HEADER)).toBe('key-2');
  });

  it('keeps the key the page gave, and leaves likes and bookmarks as they are', () => {
    const given = comment({ [IDEMPOTENCY_HEADER]: 'from-the-page' });
    expect(withIdempotencyKey(given, () => 'new')).toBe(given);
    const like = new Request('https://share.example/api/posts/like/abc', { method: 'POST' });
    expect(withIdempotencyKey(like, () => 'new')).toBe(like);
  });
});
