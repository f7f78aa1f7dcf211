import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ACCOUNT_GONE } from '../../plugins/auth.js';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const feed = (who: SignedUp) =>
  ctx.app.inject({ method: 'GET', url: '/api/feed', headers: { authorization: who.token } });

/** The account check hears of a deletion by NOTIFY, a moment after the deleting transaction commits. */
async function untilGone(who: SignedUp) {
  let response = await feed(who);
  for (let attempt = 0; response.statusCode === 200 && attempt < 80; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    response = await feed(who);
  }
  return response;
}

describe('a deleted account', () => {
  it('is refused on its next requests, though it was remembered as existing', async () => {
    const me = await signUp(ctx.app);
    expect((await feed(me)).statusCode).toBe(200); // remembered now
    await ctx.database.db.execute(sql`delete from users where id = ${me.user._id}::uuid`);

    const response = await untilGone(me);
    expect(response.statusCode).toBe(404);
    expect(errorOf(response)).toBe(ACCOUNT_GONE);
    const write = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { authorization: me.token },
      payload: { content: 'written by a deleted account' },
    });
    expect(write.statusCode).toBe(404);
    const [{ count }] = (
      (await ctx.database.db.execute(
        sql`select count(*)::int as count from posts where content = 'written by a deleted account'`,
      )) as unknown as { rows: { count: number }[] }
    ).rows as [{ count: number }];
    expect(count).toBe(0);
  });

  it('leaves every other account signed in', async () => {
    const [gone, stays] = await Promise.all([signUp(ctx.app), signUp(ctx.app)]);
    expect((await feed(stays)).statusCode).toBe(200);
    expect((await feed(gone)).statusCode).toBe(200);
    await ctx.database.db.execute(sql`delete from users where id = ${gone.user._id}::uuid`);
    expect((await untilGone(gone)).statusCode).toBe(404);
    expect((await feed(stays)).statusCode).toBe(200);
  });
});
