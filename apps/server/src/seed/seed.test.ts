import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { TEST_CREDENTIALS } from '@share-arts/contract';
import {
  appMeta,
  commentVotes,
  comments,
  follows,
  media,
  postMedia,
  postReactions,
  posts,
  users,
} from '../db/schema.js';
import { seedSampleData, sampleSources } from './seed.js';
import { prepareSampleMedia } from './sample-media.js';
import { ART_SIZES, drawArt, type ArtKind } from './art.js';
import { createTestApp, signUp, type TestContext } from '../test/helpers.js';

let ctx: TestContext;
let twin: TestContext;
let loadMs = 0;
beforeAll(async () => {
  // Fills the prepared pictures once on a machine that has not built (about a minute on two cores).
  await prepareSampleMedia(sampleSources());
  // The media folder's own behaviour: the local driver whatever MEDIA_STORE the suite runs with.
  ctx = await createTestApp({ config: { mediaStore: { kind: 'local' } } });
  const started = performance.now();
  await seedSampleData(ctx.database.db, { mediaDir: ctx.config.mediaDir, passwordHashCost: 1024 });
  loadMs = performance.now() - started;
  twin = await createTestApp({ seed: true, config: { mediaStore: { kind: 'local' } } });
}, 600_000);
afterAll(async () => {
  await ctx?.close();
  await twin?.close();
});

/** What a client sees of a seeded database, without ids, clock times or file names. */
async function snapshot(context: TestContext) {
  const { db } = context.database;
  const [userRows, postRows, mediaRows, likeRows, commentRows, voteRows, followRows] = await Promise.all([
    db.select().from(users),
    db.select().from(posts),
    db.select().from(media),
    db.select().from(postReactions),
    db.select().from(comments),
    db.select().from(commentVotes),
    db.select().from(follows),
  ]);
  const name = new Map(userRows.map((u) => [u.id, u.username]));
  const postKey = new Map(postRows.map((p) => [p.id, `${name.get(p.authorId)}: ${p.content}`]));
  const commentKey = new Map(commentRows.map((c) => [c.id, `${postKey.get(c.postId)} / ${c.content}`]));
  const fileHash = async (file: string) =>
    hash('sha256', await readFile(path.join(context.config.mediaDir, file)), 'hex');
  const pictures = await Promise.all(
    mediaRows.map(async (m) => ({
      owner: name.get(m.ownerId),
      purpose: m.purpose,
      size: [m.width, m.height],
      placeholder: m.placeholder,
      alt: m.alt,
      original: await fileHash(m.originalFile),
      variants: await Promise.all(m.variants.map(async (v) => [v.width, v.format, await fileHash(v.file)])),
    })),
  );
  const sorted = <T>(list: T[]) => list.map((x) => JSON.stringify(x)).sort();
  return {
    users: sorted(userRows.map((u) => [u.username, u.bio, u.postCount, u.followerCount, u.followingCount])),
    posts: sorted(postRows.map((p) => [postKey.get(p.id), p.tags, p.likeCount, p.commentCount, p.createdAt.getTime()])),
    pictures: sorted(pictures),
    likes: sorted(likeRows.map((l) => [postKey.get(l.postId), name.get(l.userId), l.kind])),
    comments: sorted(commentRows.map((c) => [commentKey.get(c.id), name.get(c.authorId!), c.upvoteCount])),
    votes: sorted(voteRows.map((v) => [commentKey.get(v.commentId), name.get(v.userId), v.kind])),
    follows: sorted(followRows.map((f) => [name.get(f.followerId), name.get(f.followeeId)])),
  };
}

describe('sample data', () => {
  it(`loads a community of 12 artists and 80 posts, in under 10 s`, async () => {
    console.log(`sample data loaded in ${(loadMs / 1000).toFixed(2)} s`);
    expect(loadMs).toBeLessThan(10_000);
    const { db } = ctx.database;
    const everyone = await db.select().from(users);
    const postRows = await db.select().from(posts);
    const mediaRows = await db.select().from(media);
    const followRows = await db.select().from(follows);
    // The 12 artists, and the sample moderator (issue 23), who posts nothing.
    const userRows = everyone.filter((u) => u.role === 'user');
    expect(everyone.filter((u) => u.role !== 'user').map((u) => [u.username, u.role, u.postCount])).toEqual([
      ['moderator', 'moderator', 0],
    ]);
    expect(userRows.map((u) => u.username)).toEqual(expect.arrayContaining(['mira', 'theo', 'sana', 'jules', 'kai']));
    expect(userRows).toHaveLength(12);
    expect(postRows.length).toBeGreaterThanOrEqual(60);
    expect(postRows.length).toBeLessThanOrEqual(100);
    const listed = await db.select().from(postMedia);
    expect(mediaRows).toHaveLength(userRows.length + listed.length);
    // Every post shows at least one picture, each of them its author's.
    expect(new Set(listed.map((row) => row.postId)).size).toBe(postRows.length);
    for (const row of listed) {
      const post = postRows.find((p) => p.id === row.postId)!;
      expect(mediaRows.find((m) => m.id === row.mediaId)).toMatchObject({ ownerId: post.authorId, purpose: 'post' });
    }
    for (const user of userRows) {
      expect(mediaRows.find((m) => m.id === user.photoMediaId)).toMatchObject({ ownerId: user.id, purpose: 'avatar' });
      expect(user.photoUrl).toMatch(/^\/media\/\S+\.jpg$/);
      expect(user.postCount).toBe(postRows.filter((p) => p.authorId === user.id).length);
      expect(user.postCount).toBeGreaterThan(0);
      expect(user.followerCount).toBe(followRows.filter((f) => f.followeeId === user.id).length);
      expect(user.followingCount).toBe(followRows.filter((f) => f.followerId === user.id).length);
    }
    // Every picture went through the upload pipeline: variants on disk and a placeholder.
    for (const row of mediaRows) {
      expect(row.placeholder.length).toBeGreaterThan(10);
      expect(row.variants.map((v) => v.format)).toEqual(expect.arrayContaining(['avif', 'jpeg']));
      for (const file of [row.originalFile, ...row.variants.map((v) => v.file)]) {
        expect(existsSync(path.join(ctx.config.mediaDir, file))).toBe(true);
      }
    }
    // Over the past weeks, with hashtags.
    const ages = postRows.map((p) => (Date.now() - p.createdAt.getTime()) / 86_400_000);
    expect(Math.max(...ages)).toBeGreaterThan(21);
    expect(postRows.filter((p) => p.tags.length > 0).length).toBe(postRows.length);
  });

  it('has pictures in every shape: portrait, landscape, square, a tall comic strip and pixel art', async () => {
    const postMedia = (await ctx.database.db.select().from(media)).filter((m) => m.purpose === 'post');
    const shapes = postMedia.map(({ width, height, originalMime }) => ({ ratio: height / width, originalMime }));
    expect(shapes.filter((s) => s.ratio > 1.1 && s.ratio < 2).length).toBeGreaterThanOrEqual(5); // portrait
    expect(shapes.filter((s) => s.ratio < 0.9).length).toBeGreaterThanOrEqual(5); // landscape
    expect(shapes.filter((s) => s.ratio === 1).length).toBeGreaterThanOrEqual(5); // square
    expect(shapes.filter((s) => s.ratio >= 2.5).length).toBeGreaterThanOrEqual(3); // comic strip
    expect(shapes.filter((s) => s.originalMime === 'image/png').length).toBeGreaterThanOrEqual(3); // pixel art
    const posts = await ctx.database.db.select().from(media);
    expect(new Set(posts.map((m) => m.placeholder)).size).toBe(posts.length);
  });

  it("has a series of 2 to 5 pictures by every artist, some of them in the test account's feed", async () => {
    const listed = await ctx.database.db.select().from(postMedia);
    const perPost = new Map<string, number[]>();
    for (const row of listed) perPost.set(row.postId, [...(perPost.get(row.postId) ?? []), row.position]);
    const series = [...perPost.values()].filter((positions) => positions.length > 1);
    expect(series.length).toBeGreaterThanOrEqual(12);
    for (const positions of series) {
      expect(positions.length).toBeLessThanOrEqual(5);
      expect(positions.sort((a, b) => a - b)).toEqual(positions.map((_, i) => i));
    }
    const login = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: TEST_CREDENTIALS });
    const feed = await ctx.app.inject({
      method: 'GET',
      url: '/api/feed?limit=50',
      headers: { authorization: login.json().encodedToken },
    });
    const carousels = feed.json().posts.filter((post: { media: unknown[] }) => post.media.length > 1);
    expect(carousels.length).toBeGreaterThanOrEqual(3);
    for (const post of carousels) {
      // Each picture has its own alt text.
      const alts = post.media.map((picture: { alt: string }) => picture.alt);
      expect(new Set(alts).size).toBe(alts.length);
    }
  });

  it('has likes, comments with votes, and counters that match them', async () => {
    const { db } = ctx.database;
    const postRows = await db.select().from(posts);
    const likeRows = await db.select().from(postReactions);
    const commentRows = await db.select().from(comments);
    const voteRows = await db.select().from(commentVotes);
    expect(postRows.filter((p) => p.likeCount >= 5).length).toBeGreaterThanOrEqual(5);
    expect(postRows.filter((p) => p.commentCount >= 2).length).toBeGreaterThanOrEqual(5);
    expect(voteRows.length).toBeGreaterThan(20);
    for (const post of postRows) {
      expect(post.likeCount).toBe(likeRows.filter((l) => l.postId === post.id && l.kind === 'like').length);
      expect(post.commentCount).toBe(commentRows.filter((c) => c.postId === post.id).length);
      expect(likeRows.some((l) => l.postId === post.id && l.userId === post.authorId)).toBe(false);
    }
    for (const comment of commentRows) {
      const votes = voteRows.filter((v) => v.commentId === comment.id);
      expect(comment.upvoteCount).toBe(votes.filter((v) => v.kind === 'up').length);
      expect(comment.downvoteCount).toBe(votes.filter((v) => v.kind === 'down').length);
    }
    // One post leads Trending on its own.
    const [first, second] = postRows.map((p) => p.likeCount).sort((a, b) => b - a);
    expect(first).toBeGreaterThan(second!);
  });

  it('lets the login page test account log in, following theo and sana', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: TEST_CREDENTIALS });
    expect(response.statusCode).toBe(200);
    const following = response.json().foundUser.following.map((u: { username: string }) => u.username);
    expect(following.sort()).toEqual(['sana', 'theo']);
    const photo = await ctx.app.inject({ method: 'GET', url: response.json().foundUser.userPhoto });
    expect(photo.statusCode).toBe(200);
    const feed = await ctx.app.inject({
      method: 'GET',
      url: '/api/feed',
      headers: { authorization: response.json().encodedToken },
    });
    expect(feed.json().posts.length).toBeGreaterThanOrEqual(10);
  });

  it('is deterministic: a second database gets the same rows and the same files', async () => {
    const [a, b] = await Promise.all([snapshot(ctx), snapshot(twin)]);
    // Post times are relative to the moment of loading.
    const withoutTimes = (s: typeof a) => ({
      ...s,
      posts: s.posts.map((p) => JSON.stringify(JSON.parse(p).slice(0, 4))),
    });
    expect(withoutTimes(b)).toEqual(withoutTimes(a));
    expect(a.pictures.length).toBeGreaterThan(60);
  });

  it('draws the same picture from the same seed, and another from another seed', async () => {
    for (const kind of Object.keys(ART_SIZES) as ArtKind[]) {
      const [one, two, other] = await Promise.all([drawArt(kind, 7), drawArt(kind, 7), drawArt(kind, 8)]);
      expect(one.equals(two), kind).toBe(true);
      expect(one.equals(other), kind).toBe(false);
    }
  });

  it('loads only once, and only into an empty database', async () => {
    const again = await seedSampleData(ctx.database.db, { mediaDir: ctx.config.mediaDir, passwordHashCost: 1024 });
    expect(again).toBe(false);
    expect(await ctx.database.db.select().from(users)).toHaveLength(13);

    const used = await createTestApp({ config: { mediaStore: { kind: 'local' } } });
    try {
      await signUp(used.app);
      const loaded = await seedSampleData(used.database.db, { mediaDir: used.config.mediaDir, passwordHashCost: 1024 });
      expect(loaded).toBe(false);
      expect(await used.database.db.select().from(users)).toHaveLength(1);
      expect(await used.database.db.select().from(posts)).toHaveLength(0);
      expect(await used.database.db.select().from(appMeta)).toHaveLength(0);
    } finally {
      await used.close();
    }
  });
});
