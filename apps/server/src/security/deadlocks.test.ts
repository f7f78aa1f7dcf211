// Deleting a post updates its bookmarkers' and its author's rows while follows update user rows too: on
// PostgreSQL both must lock user rows in the same (id) order, or they deadlock and answer 500s.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, signUp, type TestContext } from '../test/helpers.js';
import { createPost } from './fixtures.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ config: { logLevel: 'error' } });
});
afterAll(() => ctx.close());

it('deleting a post while its bookmarkers follow and unfollow each other never answers 5xx', async () => {
  const statuses: Record<number, number> = {};
  const users = await Promise.all(Array.from({ length: 30 }, () => signUp(ctx.app)));
  const as = (token: string) => ({ authorization: token });
  for (let round = 0; round < 15; round++) {
    const author = users[round % 30]!;
    const postId = await createPost(ctx.app, author);
    for (const u of users) {
      await ctx.app.inject({ method: 'POST', url: `/api/users/bookmark/${postId}`, headers: as(u.token) });
    }
    const requests = [ctx.app.inject({ method: 'DELETE', url: `/api/posts/${postId}`, headers: as(author.token) })];
    for (let i = 0; i < 10; i++) {
      const [x, y] = [users[(i * 7 + round) % 30]!, users[(i * 11 + round + 3) % 30]!];
      if (x === y) continue;
      for (const op of ['follow', 'unfollow']) {
        requests.push(ctx.app.inject({ method: 'POST', url: `/api/users/${op}/${y.user._id}`, headers: as(x.token) }));
      }
    }
    for (const r of await Promise.all(requests)) statuses[r.statusCode] = (statuses[r.statusCode] ?? 0) + 1;
  }
  console.log(statuses);
  expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([]);
}, 300_000);
