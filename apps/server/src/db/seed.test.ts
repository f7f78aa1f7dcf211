import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TEST_CREDENTIALS } from '@share-arts/contract';
import { follows, posts, users } from './schema.js';
import { seedSampleData } from './seed.js';
import { createTestApp, type TestContext } from '../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ seed: true });
});
afterAll(() => ctx.close());

describe('sample data', () => {
  it('has the 5 users and 4 posts of the spec, each with a stored picture, and counters that match', async () => {
    const userRows = await ctx.database.db.select().from(users);
    const postRows = await ctx.database.db.select().from(posts);
    const followRows = await ctx.database.db.select().from(follows);
    expect(userRows).toHaveLength(5);
    expect(postRows).toHaveLength(4);
    for (const url of [...userRows.map((u) => u.photoUrl), ...postRows.map((p) => p.picUrl)]) {
      expect(url).toMatch(/^\/media\/[0-9a-f-]+\.jpg$/);
      expect(existsSync(path.join(ctx.config.mediaDir, path.basename(url!)))).toBe(true);
    }
    for (const user of userRows) {
      expect(user.postCount).toBe(postRows.filter((p) => p.authorId === user.id).length);
      expect(user.followerCount).toBe(followRows.filter((f) => f.followeeId === user.id).length);
      expect(user.followingCount).toBe(followRows.filter((f) => f.followerId === user.id).length);
    }
  });

  it('lets the login page test account log in', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: TEST_CREDENTIALS });
    expect(response.statusCode).toBe(200);
    expect(
      response
        .json()
        .foundUser.following.map((u: { username: string }) => u.username)
        .sort(),
    ).toEqual(['sana', 'theo']);
    const photo = await ctx.app.inject({ method: 'GET', url: response.json().foundUser.userPhoto });
    expect(photo.statusCode).toBe(200);
  });

  it('loads only once', async () => {
    const again = await seedSampleData(ctx.database.db, { mediaDir: ctx.config.mediaDir, passwordHashCost: 1024 });
    expect(again).toBe(false);
    expect(await ctx.database.db.select().from(users)).toHaveLength(5);
  });
});
