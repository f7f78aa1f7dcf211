import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TEST_CREDENTIALS } from '@share-arts/contract';
import { follows, media, posts, users } from './schema.js';
import { seedSampleData } from './seed.js';
import { createTestApp, type TestContext } from '../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ seed: true });
});
afterAll(() => ctx.close());

describe('sample data', () => {
  it('has the 5 users and 4 posts of the spec, each picture processed and stored, and counters that match', async () => {
    const userRows = await ctx.database.db.select().from(users);
    const postRows = await ctx.database.db.select().from(posts);
    const followRows = await ctx.database.db.select().from(follows);
    const mediaRows = await ctx.database.db.select().from(media);
    expect(userRows).toHaveLength(5);
    expect(postRows).toHaveLength(4);
    expect(mediaRows).toHaveLength(9);
    for (const user of userRows) {
      const avatar = mediaRows.find((m) => m.id === user.photoMediaId)!;
      expect(avatar).toMatchObject({ ownerId: user.id, purpose: 'avatar' });
      expect(user.photoUrl).toMatch(/^\/media\/\S+\.jpg$/);
      expect(user.postCount).toBe(postRows.filter((p) => p.authorId === user.id).length);
      expect(user.followerCount).toBe(followRows.filter((f) => f.followeeId === user.id).length);
      expect(user.followingCount).toBe(followRows.filter((f) => f.followerId === user.id).length);
    }
    for (const post of postRows) {
      const picture = mediaRows.find((m) => m.id === post.mediaId)!;
      expect(picture).toMatchObject({ ownerId: post.authorId, purpose: 'post' });
      expect(picture.alt.length).toBeGreaterThan(10);
    }
    for (const row of mediaRows) {
      for (const file of [row.originalFile, ...row.variants.map((v) => v.file)]) {
        expect(existsSync(path.join(ctx.config.mediaDir, file))).toBe(true);
      }
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
