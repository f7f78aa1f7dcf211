import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.js';
import { IDEMPOTENCY_ERRORS } from '../../lib/idempotency.js';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * A comment's Idempotency-Key (issue 44): the offline queue replays a comment whose first try may have reached the
 * server; the same key from the same person within 24 hours answers the first comment and stores nothing twice.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const headers = (who: SignedUp, key?: string) => ({
  authorization: `Bearer ${who.token}`,
  prefer: 'return=minimal',
  ...(key === undefined ? {} : { 'idempotency-key': key }),
});

async function newPost(author: SignedUp, extra: object = {}) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content: 'a post', ...extra },
    headers: headers(author),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post._id as string;
}

const send = (who: SignedUp, postId: string, key: string | undefined, content: unknown = 'Lovely colours') =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comment`,
    payload: { commentData: { content } },
    headers: headers(who, key),
  });

async function stored(postId: string) {
  const rows = await queryRows<{ id: string; content: string }>(
    ctx.database.db,
    sql`select id, content from comments where post_id = ${postId}::uuid order by created_at`,
  );
  const [post] = await queryRows<{ comment_count: number }>(
    ctx.database.db,
    sql`select comment_count from posts where id = ${postId}::uuid`,
  );
  return { rows, count: post!.comment_count };
}

describe('a comment sent again with its Idempotency-Key', () => {
  it('answers the first comment (201, Idempotent-Replayed) and stores it once, also when sent at once', async () => {
    const author = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const postId = await newPost(author);
    const key = crypto.randomUUID();
    const first = await send(reader, postId, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(reader, postId, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().comment._id).toBe(first.json().comment._id);

    // Three replays in flight together: still one comment.
    const burstKey = crypto.randomUUID();
    const burst = await Promise.all([1, 2, 3].map(() => send(reader, postId, burstKey, 'At once')));
    expect(burst.map((response) => response.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(burst.map((response) => response.json().comment._id)).size).toBe(1);

    const { rows, count } = await stored(postId);
    expect(rows.map((row) => row.content)).toEqual(['Lovely colours', 'At once']);
    expect(count).toBe(2);
  });

  it('keeps keys apart per person, and a new key is a new comment', async () => {
    const author = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const postId = await newPost(author);
    const key = crypto.randomUUID();
    const mine = await send(reader, postId, key);
    const theirs = await send(other, postId, key);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().comment._id).not.toBe(mine.json().comment._id);
    expect((await send(reader, postId, crypto.randomUUID())).statusCode).toBe(201);
    expect((await send(reader, postId, undefined)).statusCode).toBe(201);
    expect((await stored(postId)).count).toBe(4);
  });

  it('forgets a refused comment’s key, so that the corrected comment may use it', async () => {
    const author = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const postId = await newPost(author);
    const key = crypto.randomUUID();
    expect((await send(reader, postId, key, '   ')).statusCode).toBe(400);
    const corrected = await send(reader, postId, key, 'Now with words');
    expect(corrected.statusCode).toBe(201);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect((await stored(postId)).rows.map((row) => row.content)).toEqual(['Now with words']);
  });

  it('remembers a key for 24 hours; a claim whose write never finished is taken over after a minute', async () => {
    const author = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const postId = await newPost(author);
    const key = crypto.randomUUID();
    await send(reader, postId, key, 'Yesterday');
    await ctx.database.db.execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours'
          where user_id = ${reader.user._id}::uuid and key = ${key}`,
    );
    const later = await send(reader, postId, key, 'Today');
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect((await stored(postId)).rows.map((row) => row.content)).toEqual(['Yesterday', 'Today']);

    // A claim with no comment yet (its process died): 409 for a minute, then the next try makes it.
    const stuck = crypto.randomUUID();
    await ctx.database.db.execute(
      sql`insert into idempotency_keys (user_id, scope, key) values (${reader.user._id}::uuid, 'comment', ${stuck})`,
    );
    const busy = await send(reader, postId, stuck, 'Stuck');
    expect(busy.statusCode).toBe(409);
    expect(errorOf(busy)).toBe(IDEMPOTENCY_ERRORS.busy);
    await ctx.database.db.execute(
      sql`update idempotency_keys set created_at = now() - interval '2 minutes' where key = ${stuck}`,
    );
    expect((await send(reader, postId, stuck, 'Unstuck')).statusCode).toBe(201);
    expect((await stored(postId)).rows.map((row) => row.content)).toEqual(['Yesterday', 'Today', 'Unstuck']);
  });

  it('refuses a key that is not 1 to 255 visible ASCII characters, with what to fix', async () => {
    const author = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const postId = await newPost(author);
    for (const key of ['x'.repeat(256), 'two words']) {
      const response = await send(reader, postId, key);
      expect(response.statusCode, key).toBe(400);
      expect(errorOf(response)).toBe(IDEMPOTENCY_ERRORS.key);
    }
    expect((await stored(postId)).count).toBe(0);
  });
});
