import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ERRORS, TAG_LIMITS } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { createTestApp, errorOf, signUp, walkPages, type SignedUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const auth = (who?: SignedUp): Record<string, string> => (who ? { authorization: `Bearer ${who.token}` } : {});
const call = (who: SignedUp | undefined, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({
    method,
    url,
    headers: { ...auth(who), prefer: 'return=minimal' },
    ...(payload ? { payload } : {}),
  });
/** A tag no other test uses (the database is shared by the file's tests). */
const freshTag = (stem = 'tag') => `${stem}${randomBytes(4).toString('hex')}`;

async function post(author: SignedUp, content: string): Promise<string> {
  const response = await call(author, 'POST', '/api/posts', { content });
  expect(response.statusCode).toBe(201);
  return response.json().post._id;
}
const ids = (body: { posts: { _id: string }[] }) => body.posts.map((p) => p._id);

describe('a tag', () => {
  it('counts its posts case-insensitively, in any script, and 0 for an unused tag (no 404)', async () => {
    const artist = await signUp(ctx.app);
    const tag = freshTag('Öl');
    await post(artist, `#${tag} first`);
    await post(artist, `second #${tag.toUpperCase()} and #${tag}`);
    const third = await post(artist, `third #${tag.toLowerCase()}`);

    const state = await call(undefined, 'GET', `/api/tags/${encodeURIComponent(tag.toUpperCase())}`);
    expect(state.statusCode).toBe(200);
    expect(state.json()).toEqual({ tag: tag.toLowerCase(), postCount: 3, following: false });

    // Edits and deletes keep the count exact.
    await call(artist, 'POST', `/api/posts/edit/${third}`, { postData: { content: 'no tag any more' } });
    expect((await call(undefined, 'GET', `/api/tags/${encodeURIComponent(tag)}`)).json().postCount).toBe(2);

    const japanese = freshTag('油絵');
    const other = await post(artist, `#${japanese}`);
    expect((await call(undefined, 'GET', `/api/tags/${encodeURIComponent(japanese)}`)).json().postCount).toBe(1);
    await call(artist, 'DELETE', `/api/posts/${other}`);
    expect((await call(undefined, 'GET', `/api/tags/${encodeURIComponent(japanese)}`)).json()).toEqual({
      tag: japanese,
      postCount: 0,
      following: false,
    });
    expect((await call(undefined, 'GET', `/api/tags/${freshTag()}`)).json().postCount).toBe(0);
  });

  it('refuses what is no tag with a 400 naming the rule, on every tag route', async () => {
    const viewer = await signUp(ctx.app);
    for (const bad of ['%23art', 'two%20words', 'a-b', 'x'.repeat(TAG_LIMITS.maxLength + 1), '%F0%9F%8E%A8']) {
      for (const [method, path] of [
        ['GET', ''],
        ['GET', '/posts'],
        ['POST', '/follow'],
        ['DELETE', '/follow'],
      ] as const) {
        const response = await call(viewer, method, `/api/tags/${bad}${path}`);
        expect(response.statusCode, `${method} ${bad}${path}`).toBe(400);
        expect(errorOf(response)).toBe(ERRORS.invalidTag);
      }
    }
  });

  it('pages its posts in the three sorts, like GET /api/posts, and leaves out posts that only mention it', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const tag = freshTag();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await post(artist, `work ${i} #${tag}`));
    await post(artist, `not tagged: ${tag} #${tag}x`);
    await call(fan, 'POST', `/api/posts/like/${made[1]}`);

    const walk = async (sort: string) =>
      (
        await walkPages(
          ctx.app,
          (cursor) => `/api/tags/${tag}/posts?sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          'posts',
        )
      ).map((page) => page.map((p) => p._id));

    const latest = await walk('latest');
    expect(latest.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(latest.flat()).toEqual([...made].reverse());
    expect((await walk('oldest')).flat()).toEqual(made);
    const trending = (await walk('trending')).flat();
    expect(trending[0]).toBe(made[1]);
    expect(new Set(trending)).toEqual(new Set(made));

    // The default sort is latest; a bad cursor or sort is a 400, a limit past the cap too.
    expect(ids((await call(undefined, 'GET', `/api/tags/${tag}/posts`)).json())).toEqual([...made].reverse());
    expect((await call(undefined, 'GET', `/api/tags/${tag}/posts?cursor=nope`)).statusCode).toBe(400);
    expect((await call(undefined, 'GET', `/api/tags/${tag}/posts?sort=random`)).statusCode).toBe(400);
    expect((await call(undefined, 'GET', `/api/tags/${tag}/posts?limit=51`)).statusCode).toBe(400);
    // A signed-in viewer's flags are filled in.
    const seen = (await call(fan, 'GET', `/api/tags/${tag}/posts?sort=trending&limit=1`)).json().posts[0];
    expect(seen.viewer.liked).toBe(true);
  });
});

describe('following tags', () => {
  it('follow and unfollow are idempotent and answer the tag state; the list pages newest first', async () => {
    const me = await signUp(ctx.app);
    const [a, b, c] = [freshTag('a'), freshTag('b'), freshTag('c')];
    await post(me, `#${b}`);
    for (const tag of [a, b, c]) {
      const first = await call(me, 'POST', `/api/tags/${tag.toUpperCase()}/follow`);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ tag, postCount: tag === b ? 1 : 0, following: true });
      expect((await call(me, 'POST', `/api/tags/${tag}/follow`)).json().following).toBe(true);
    }
    expect((await call(me, 'GET', `/api/tags/${b}`)).json()).toEqual({ tag: b, postCount: 1, following: true });
    // Someone else sees their own state.
    expect((await call(await signUp(ctx.app), 'GET', `/api/tags/${b}`)).json().following).toBe(false);

    const pages = await walkPages(
      ctx.app,
      (cursor) => `/api/users/me/tags?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      'tags',
      auth(me),
    );
    expect(pages.map((page) => page.length)).toEqual([2, 1]);
    expect(pages.flat()).toEqual([
      { tag: c, postCount: 0, following: true },
      { tag: b, postCount: 1, following: true },
      { tag: a, postCount: 0, following: true },
    ]);

    for (let i = 0; i < 2; i++) {
      const off = await call(me, 'DELETE', `/api/tags/${b}/follow`);
      expect(off.statusCode).toBe(200);
      expect(off.json()).toEqual({ tag: b, postCount: 1, following: false });
    }
    const left = (await call(me, 'GET', '/api/users/me/tags')).json();
    expect(left).toEqual({
      tags: [
        { tag: c, postCount: 0, following: true },
        { tag: a, postCount: 0, following: true },
      ],
      nextCursor: null,
    });
  });

  it(`is capped at ${TAG_LIMITS.followMax} tags with a clear 400; a tag already followed still answers`, async () => {
    const me = await signUp(ctx.app);
    const prefix = freshTag('cap');
    await queryRows(
      ctx.database.db,
      sql`insert into tag_follows (user_id, tag)
          select ${me.user._id}::uuid, ${prefix} || n from generate_series(1, ${TAG_LIMITS.followMax - 1}) n returning tag`,
    );
    expect((await call(me, 'POST', `/api/tags/${prefix}last/follow`)).statusCode).toBe(200);
    const refused = await call(me, 'POST', `/api/tags/${freshTag()}/follow`);
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toBe(ERRORS.tooManyFollowedTags);
    expect((await call(me, 'POST', `/api/tags/${prefix}1/follow`)).statusCode).toBe(200);
    await call(me, 'DELETE', `/api/tags/${prefix}1/follow`);
    expect((await call(me, 'POST', `/api/tags/${freshTag()}/follow`)).statusCode).toBe(200);
  });

  it('needs a token to follow and to list followed tags', async () => {
    const tag = freshTag();
    expect((await call(undefined, 'POST', `/api/tags/${tag}/follow`)).statusCode).toBe(401);
    expect((await call(undefined, 'DELETE', `/api/tags/${tag}/follow`)).statusCode).toBe(401);
    expect((await call(undefined, 'GET', '/api/users/me/tags')).statusCode).toBe(401);
  });

  it("bring the tag's posts to Home, once, with the reason only for authors I do not follow", async () => {
    const me = await signUp(ctx.app);
    const followed = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    const tag = freshTag();
    await call(me, 'POST', `/api/users/follow/${followed.user._id}`);
    await call(me, 'POST', `/api/tags/${tag}/follow`);

    const byStranger = await post(stranger, `a stranger's #other #${tag}`);
    const untagged = await post(stranger, 'not for me');
    const byFollowed = await post(followed, `#${tag} by someone I follow`);
    const mine = await post(me, `my own #${tag}`);

    const pages = await walkPages(
      ctx.app,
      (cursor) => `/api/feed?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      'posts',
      auth(me),
    );
    const home = pages.flat() as unknown as { _id: string; reason?: { tag: string } }[];
    expect(home.map((p) => p._id)).toEqual([mine, byFollowed, byStranger]);
    expect(home.map((p) => p.reason)).toEqual([undefined, undefined, { tag }]);
    expect(home.map((p) => p._id)).not.toContain(untagged);

    // Oldest and trending keep the same posts.
    const oldest = ids((await call(me, 'GET', '/api/feed?sort=oldest')).json());
    expect(oldest).toEqual([byStranger, byFollowed, mine]);
    expect(new Set(ids((await call(me, 'GET', '/api/feed?sort=trending')).json()))).toEqual(new Set(oldest));

    // Following the author: the post stays, once, without the reason. Unfollowing the tag: it goes.
    await call(me, 'POST', `/api/users/follow/${stranger.user._id}`);
    const after = (await call(me, 'GET', '/api/feed')).json().posts as { _id: string; reason?: unknown }[];
    expect(after.map((p) => p._id)).toEqual([mine, byFollowed, untagged, byStranger]);
    expect(after.every((p) => p.reason === undefined)).toBe(true);
    await call(me, 'POST', `/api/users/unfollow/${stranger.user._id}`);
    await call(me, 'DELETE', `/api/tags/${tag}/follow`);
    expect(ids((await call(me, 'GET', '/api/feed')).json())).toEqual([mine, byFollowed]);
    // Explore never carries a reason.
    const explore = (await call(me, 'GET', '/api/posts?limit=50')).json().posts as { reason?: unknown }[];
    expect(explore.every((p) => p.reason === undefined)).toBe(true);
  });
});

describe('mentions', () => {
  const mentions = async (who: SignedUp) =>
    ((await call(who, 'GET', '/api/notifications')).json().notifications as { kind: string }[]).filter(
      (n) => n.kind === 'mention',
    );

  it('notify each person mentioned in a post once, never the writer, and unknown names are ignored', async () => {
    const writer = await signUp(ctx.app);
    const ana = await signUp(ctx.app);
    const theo = await signUp(ctx.app);
    const postId = await post(
      writer,
      `for @${ana.user.username.toUpperCase()} and @${ana.user.username}, @${writer.user.username}, @nobody_${freshTag()}; mail x@${theo.user.username}`,
    );
    const [got, ...more] = await mentions(ana);
    expect(more).toEqual([]);
    expect(got).toMatchObject({
      kind: 'mention',
      actors: [{ _id: writer.user._id }],
      post: { _id: postId },
      comment: null,
      read: false,
    });
    expect(await mentions(writer)).toEqual([]);
    // An email address is no mention.
    expect(await mentions(theo)).toEqual([]);
  });

  it('an edit notifies only the people it adds, and never twice', async () => {
    const writer = await signUp(ctx.app);
    const ana = await signUp(ctx.app);
    const theo = await signUp(ctx.app);
    const postId = await post(writer, `hello @${ana.user.username}`);
    const edit = (content: string) => call(writer, 'POST', `/api/posts/edit/${postId}`, { postData: { content } });
    await edit(`hello @${ana.user.username} (edited)`);
    await edit(`hello @${theo.user.username}`);
    await edit(`hello @${ana.user.username} and @${theo.user.username}`);
    expect(await mentions(ana)).toHaveLength(1);
    expect(await mentions(theo)).toHaveLength(1);
  });

  it('in a comment carry the post and the comment, once, also across edits', async () => {
    const author = await signUp(ctx.app);
    const commenter = await signUp(ctx.app);
    const ana = await signUp(ctx.app);
    const postId = await post(author, 'a post');
    const written = await call(commenter, 'POST', `/api/posts/${postId}/comment`, {
      commentData: { content: `look @${ana.user.username} @${commenter.user.username}` },
    });
    const commentId = written.json().comment._id;
    await call(commenter, 'POST', `/api/comments/edit/${postId}/${commentId}`, {
      content: `look @${ana.user.username}!`,
    });
    const [got, ...more] = await mentions(ana);
    expect(more).toEqual([]);
    expect(got).toMatchObject({ post: { _id: postId }, comment: { _id: commentId } });
    expect(await mentions(commenter)).toEqual([]);
    // The post's author gets the comment notification as before, not a mention.
    expect(await mentions(author)).toEqual([]);
  });

  it(`notify at most ${TAG_LIMITS.mentionsPerText} people per text`, async () => {
    const writer = await signUp(ctx.app);
    const people = await Promise.all(Array.from({ length: TAG_LIMITS.mentionsPerText + 1 }, () => signUp(ctx.app)));
    await post(writer, people.map((p) => `@${p.user.username}`).join(' '));
    const notified = await Promise.all(people.map(async (p) => (await mentions(p)).length));
    expect(notified.slice(0, TAG_LIMITS.mentionsPerText)).toEqual(Array(TAG_LIMITS.mentionsPerText).fill(1));
    expect(notified.at(-1)).toBe(0);
  });
});

describe('suggestions', () => {
  it('suggest tags by prefix, the most used first, case-insensitively; nonsense finds none', async () => {
    const artist = await signUp(ctx.app);
    const stem = freshTag('sug');
    await post(artist, `#${stem}_rare`);
    await post(artist, `#${stem}_common #${stem}_mid`);
    await post(artist, `#${stem}_common #${stem}_mid`);
    await post(artist, `#${stem}_common`);
    const suggest = async (query: string) => (await call(undefined, 'GET', `/api/tags?${query}`)).json();
    expect(await suggest(`prefix=${stem.toUpperCase()}`)).toEqual({
      tags: [
        { tag: `${stem}_common`, postCount: 3 },
        { tag: `${stem}_mid`, postCount: 2 },
        { tag: `${stem}_rare`, postCount: 1 },
      ],
    });
    expect((await suggest(`prefix=%23${stem}&limit=1`)).tags).toEqual([{ tag: `${stem}_common`, postCount: 3 }]);
    expect((await suggest('prefix=a%20b')).tags).toEqual([]);
    expect((await suggest('')).tags.length).toBeGreaterThan(0);
    expect((await call(undefined, 'GET', `/api/tags?limit=${TAG_LIMITS.suggestMax + 1}`)).statusCode).toBe(400);
  });

  it('suggest people to mention by username prefix, the people I follow first', async () => {
    const stem = `m${randomBytes(3).toString('hex')}`;
    const me = await signUp(ctx.app, { username: `${stem}_me` });
    const [zed, amy, bob] = await Promise.all(
      ['zed', 'amy', 'bob'].map((name) => signUp(ctx.app, { username: `${stem}_${name}` })),
    );
    await call(me, 'POST', `/api/users/follow/${zed!.user._id}`);
    const names = async (who: SignedUp | undefined, query: string) =>
      ((await call(who, 'GET', `/api/users/mentionable?${query}`)).json().users as { username: string }[]).map(
        (u) => u.username,
      );
    expect(await names(me, `prefix=${stem.toUpperCase()}`)).toEqual([zed, amy, bob].map((u) => u!.user.username));
    expect(await names(me, `prefix=%40${stem}&limit=2`)).toEqual([zed!.user.username, amy!.user.username]);
    // Signed out: anyone, by username (myself included).
    expect(await names(undefined, `prefix=${stem}`)).toEqual([amy, bob, me, zed].map((u) => u!.user.username));
    expect(await names(me, 'prefix=no%20such')).toEqual([]);
  });
});

describe('search', () => {
  it('lists tags among the results and finds an artist’s works by their name', async () => {
    const stem = `art${randomBytes(3).toString('hex')}`;
    const artist = await signUp(ctx.app, { username: `${stem}ist`, fullname: 'Hokusai Katsushika' });
    const work = await post(artist, 'The Great Wave, no words in common with the name');
    const tagged = await post(artist, `#${stem}wave`);
    const found = (await call(undefined, 'GET', `/api/search?q=${stem}`)).json();
    expect(found.users.map((u: { _id: string }) => u._id)).toContain(artist.user._id);
    expect(found.tags).toEqual([{ tag: `${stem}wave`, postCount: 1 }]);
    expect(ids(found).slice(0, 2).sort()).toEqual([work, tagged].sort());
    const onlyPosts = (await call(undefined, 'GET', `/api/search?q=${stem}&type=posts`)).json();
    expect(ids(onlyPosts)).toEqual(expect.arrayContaining([work, tagged]));
    expect((await call(undefined, 'GET', `/api/search?q=%23${stem}w`)).json().tags).toEqual([
      { tag: `${stem}wave`, postCount: 1 },
    ]);
  });
});
