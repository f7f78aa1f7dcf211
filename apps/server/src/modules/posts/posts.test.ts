import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ERRORS, PAGE_LIMITS, POST_REACTION_CAP } from '@share-arts/contract';
import { posts, postReactions, users } from '../../db/schema.js';
import { queryRows } from '../../db/client.js';
import {
  createTestApp,
  errorOf,
  eventually,
  multipart,
  signUp,
  storedFiles,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { PICTURE_ERRORS } from './index.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const minimal = { prefer: 'return=minimal' };

async function createPost(who: SignedUp, content = 'A new painting #oil') {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content },
    headers: { ...auth(who), ...minimal },
  });
  expect(response.statusCode).toBe(201);
  return response.json().post as { _id: string; likes: { likeCount: number } };
}

const react = (who: SignedUp, kind: 'like' | 'dislike', postId: string) =>
  ctx.app.inject({ method: 'POST', url: `/api/posts/${kind}/${postId}`, headers: { ...auth(who), ...minimal } });

async function postRow(id: string) {
  const [row] = await ctx.database.db.select().from(posts).where(eq(posts.id, id));
  return row!;
}

describe('creating posts', () => {
  it('answers 201 with { posts, nextCursor, post }: the first page and the new post', async () => {
    const author = await signUp(ctx.app);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: '  Morning light  ' },
      headers: auth(author),
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.post).toMatchObject({
      content: 'Morning light',
      username: author.user.username,
      userId: author.user._id,
      name: 'Ana Maria Rivera',
      picture: null,
      postPic: '/media/defaults/default-post.jpg',
      likes: { likeCount: 0, dislikeCount: 0, likedBy: [], dislikedBy: [] },
      comments: [],
      commentCount: 0,
      viewer: { liked: false, disliked: false, bookmarked: false, followsAuthor: false, isAuthor: true },
    });
    expect(body.post.time).toMatch(/^\d\d:\d\d (AM|PM)$/);
    expect(body.posts[0]._id).toBe(body.post._id);
    expect(body).toHaveProperty('nextCursor');
    const [author_] = await ctx.database.db.select().from(users).where(eq(users.id, author.user._id));
    expect(author_!.postCount).toBe(1);
  });

  it('answers { post } alone with Prefer: return=minimal', async () => {
    const author = await signUp(ctx.app);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'minimal' },
      headers: { ...auth(author), ...minimal },
    });
    expect(Object.keys(response.json())).toEqual(['post']);
  });

  it.each([
    ['blank content', { content: '   ' }, ERRORS.postContentEmpty],
    ['2001 characters', { content: 'x'.repeat(2001) }, 'content must be at most 2000 characters long.'],
    ['no content', {}, 'content is required.'],
    ['a number', { content: 5 }, 'content must be a string.'],
  ])('refuses %s with a 400 that says what to fix', async (_label, payload, message) => {
    const author = await signUp(ctx.app);
    const response = await ctx.app.inject({ method: 'POST', url: '/api/posts', payload, headers: auth(author) });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe(message);
  });

  it('needs a token', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/posts', payload: { content: 'x' } });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a picture that does not exist or is not a UUID with 404', async () => {
    const author = await signUp(ctx.app);
    for (const mediaId of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/posts',
        payload: { content: 'x', mediaId },
        headers: auth(author),
      });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('reading posts', () => {
  it('GET /api/posts/{id} answers the post; unknown and malformed ids are 404', async () => {
    const author = await signUp(ctx.app);
    const post = await createPost(author);
    const found = await ctx.app.inject({ method: 'GET', url: `/api/posts/${post._id}` });
    expect(found.statusCode).toBe(200);
    expect(found.json().post._id).toBe(post._id);
    expect(found.json().post.viewer.isAuthor).toBe(false);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' or '1'='1"]) {
      const missing = await ctx.app.inject({ method: 'GET', url: `/api/posts/${encodeURIComponent(id)}` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ errors: [ERRORS.postNotFound] });
    }
  });

  it('GET /api/posts/user/{username} pages that user only; an unknown user is 404', async () => {
    const author = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    await createPost(author, 'one');
    await createPost(other, 'not mine');
    await createPost(author, 'two');
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/posts/user/${author.user.username.toUpperCase()}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().posts.map((p: { content: string }) => p.content)).toEqual(['two', 'one']);
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/posts/user/nobody_at_all_here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ errors: [ERRORS.userNotFound] });
    // Someone who has not posted yet has an empty page, not a 404.
    const newcomer = await signUp(ctx.app);
    const empty = await ctx.app.inject({ method: 'GET', url: `/api/posts/user/${newcomer.user.username}` });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ posts: [], nextCursor: null });
  });

  it.each([
    ['limit=0', 'query parameter limit must be at least 1.'],
    ['limit=-1', 'query parameter limit must be at least 1.'],
    ['limit=1000000000', `query parameter limit must be at most ${PAGE_LIMITS.max}.`],
    ['limit=abc', 'query parameter limit must be an integer.'],
    ['sort=random', 'query parameter sort must be one of: latest, trending, oldest.'],
    [
      'cursor=garbage',
      'cursor is not valid: pass the nextCursor of the previous page unchanged, or omit it for the first page.',
    ],
  ])('refuses ?%s with a clear 400', async (query, message) => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/posts?${query}` });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe(message);
  });
});

describe('paging', () => {
  it('walks every post once with keyset cursors, stable while new posts arrive', async () => {
    const author = await signUp(ctx.app);
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await createPost(author, `page post ${i}`))._id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/posts/user/${author.user.username}?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page: { posts: { _id: string }[]; nextCursor: string | null } = (
        await ctx.app.inject({ method: 'GET', url })
      ).json();
      expect(page.posts.length).toBeLessThanOrEqual(3);
      seen.push(...page.posts.map((p) => p._id));
      cursor = page.nextCursor;
      // A post written while paging lands on the first page, never in the middle of this walk.
      if (seen.length === 3) await createPost(author, 'arrived while paging');
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
  });

  it('sorts oldest first and trending by likes', async () => {
    const author = await signUp(ctx.app);
    const fans = await Promise.all([signUp(ctx.app), signUp(ctx.app)]);
    const a = await createPost(author, 'trend a');
    const b = await createPost(author, 'trend b');
    const c = await createPost(author, 'trend c');
    for (const fan of fans) expect((await react(fan, 'like', b._id)).statusCode).toBe(201);
    expect((await react(fans[0]!, 'like', c._id)).statusCode).toBe(201);
    const list = async (sort: string) =>
      (await ctx.app.inject({ method: 'GET', url: `/api/posts/user/${author.user.username}?sort=${sort}` }))
        .json()
        .posts.map((p: { _id: string }) => p._id);
    expect(await list('oldest')).toEqual([a._id, b._id, c._id]);
    expect(await list('trending')).toEqual([b._id, c._id, a._id]);
    expect(await list('latest')).toEqual([c._id, b._id, a._id]);
    const twoPages = (
      await ctx.app.inject({ method: 'GET', url: `/api/posts/user/${author.user.username}?sort=trending&limit=2` })
    ).json();
    const rest = (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/posts/user/${author.user.username}?sort=trending&limit=2&cursor=${twoPages.nextCursor}`,
      })
    ).json();
    expect(rest.posts.map((p: { _id: string }) => p._id)).toEqual([a._id]);
    expect(rest.nextCursor).toBeNull();
  });
});

describe('the home feed', () => {
  it('has my posts and those of people I follow, not others', async () => {
    const me = await signUp(ctx.app);
    const followed = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    await createPost(followed, 'from followed');
    await createPost(stranger, 'from stranger');
    await createPost(me, 'from me');
    await ctx.app.inject({ method: 'POST', url: `/api/users/follow/${followed.user._id}`, headers: auth(me) });
    const feed = (await ctx.app.inject({ method: 'GET', url: '/api/feed', headers: auth(me) })).json();
    expect(feed.posts.map((p: { content: string }) => p.content)).toEqual(['from me', 'from followed']);
    expect(feed.posts.map((p: { viewer: { followsAuthor: boolean } }) => p.viewer.followsAuthor)).toEqual([
      false,
      true,
    ]);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/feed' })).statusCode).toBe(401);
  });
});

describe('editing and deleting', () => {
  it('edits only content and picture from postData (no mass assignment) and sets updatedAt', async () => {
    const author = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const post = await createPost(author, 'before');
    const before = await postRow(post._id);
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/edit/${post._id}`,
      headers: { ...auth(author), ...minimal },
      payload: {
        postData: {
          content: 'after',
          likes: { likeCount: 999 },
          likeCount: 999,
          username: other.user.username,
          authorId: other.user._id,
          userId: other.user._id,
          _id: '00000000-0000-4000-8000-000000000000',
          createdAt: '2000-01-01T00:00:00+00:00',
          comments: [{ content: 'injected' }],
        },
      },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().post.content).toBe('after');
    const after = await postRow(post._id);
    // The search words follow the content.
    // It is marked edited (issue 41): editedAt is the edit's time.
    expect(after).toEqual({
      ...before,
      content: 'after',
      searchVector: "'after':1",
      updatedAt: after.updatedAt,
      editedAt: after.updatedAt,
    });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
  });

  it("refuses another user's edit and delete with the spec's 400s, and changes nothing", async () => {
    const author = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const post = await createPost(author, 'mine');
    const edit = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/edit/${post._id}`,
      headers: auth(other),
      payload: { postData: { content: 'hijacked' } },
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json()).toEqual({ errors: [ERRORS.editPostNotOwner] });
    const remove = await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}`, headers: auth(other) });
    expect(remove.statusCode).toBe(400);
    expect(remove.json()).toEqual({ errors: [ERRORS.deletePostNotOwner] });
    expect((await postRow(post._id)).content).toBe('mine');
  });

  it('deletes the post with its reactions and bookmarks, keeping every counter exact', async () => {
    const author = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const post = await createPost(author);
    await react(fan, 'like', post._id);
    await ctx.app.inject({ method: 'POST', url: `/api/users/bookmark/${post._id}`, headers: auth(fan) });
    const response = await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}`, headers: auth(author) });
    expect(response.statusCode).toBe(201);
    expect(response.json().posts.some((p: { _id: string }) => p._id === post._id)).toBe(false);
    expect(await ctx.database.db.select().from(posts).where(eq(posts.id, post._id))).toEqual([]);
    expect(await ctx.database.db.select().from(postReactions).where(eq(postReactions.postId, post._id))).toEqual([]);
    const [fanRow] = await ctx.database.db.select().from(users).where(eq(users.id, fan.user._id));
    const [authorRow] = await ctx.database.db.select().from(users).where(eq(users.id, author.user._id));
    expect(fanRow!.bookmarkCount).toBe(0);
    expect(authorRow!.postCount).toBe(0);
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}`, headers: auth(author) })).statusCode,
    ).toBe(404);
  });
});

describe('likes and dislikes', () => {
  it('follows the rules of the spec, with its messages', async () => {
    const author = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const post = await createPost(author);

    const dislikeAtZero = await react(fan, 'dislike', post._id);
    expect(dislikeAtZero.statusCode).toBe(400);
    expect(dislikeAtZero.json()).toEqual({ errors: [ERRORS.likeBelowZero] });

    const liked = await react(fan, 'like', post._id);
    expect(liked.statusCode).toBe(201);
    expect(liked.json().post.likes).toMatchObject({
      likeCount: 1,
      likedBy: [{ _id: fan.user._id, username: fan.user.username }],
      dislikedBy: [],
    });
    expect(liked.json().post.viewer.liked).toBe(true);

    const again = await react(fan, 'like', post._id);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: [ERRORS.alreadyLiked] });

    const unliked = await react(fan, 'dislike', post._id);
    expect(unliked.statusCode).toBe(201);
    expect(unliked.json().post.likes).toMatchObject({
      likeCount: 0,
      dislikeCount: 1,
      likedBy: [],
      dislikedBy: [{ _id: fan.user._id }],
    });

    // likeCount is 0 again: the count rule answers first.
    expect(errorOf(await react(fan, 'dislike', post._id))).toBe(ERRORS.likeBelowZero);
    await react(author, 'like', post._id);
    expect(errorOf(await react(fan, 'dislike', post._id))).toBe(ERRORS.alreadyDisliked);

    const relike = await react(fan, 'like', post._id);
    expect(relike.json().post.likes).toMatchObject({ likeCount: 2, dislikeCount: 0, dislikedBy: [] });
  });

  it('404s an unknown post and 401s without a token', async () => {
    const fan = await signUp(ctx.app);
    expect((await react(fan, 'like', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/posts/like/x' })).statusCode).toBe(401);
  });

  it('keeps the viewer in likedBy even past the cap', async () => {
    const author = await signUp(ctx.app);
    const post = await createPost(author);
    const first = await signUp(ctx.app);
    await react(first, 'like', post._id);
    const others = await Promise.all(Array.from({ length: POST_REACTION_CAP + 1 }, () => signUp(ctx.app)));
    for (const other of others) await react(other, 'like', post._id);
    const seen = (await ctx.app.inject({ method: 'GET', url: `/api/posts/${post._id}`, headers: auth(first) })).json()
      .post;
    expect(seen.likes.likeCount).toBe(POST_REACTION_CAP + 2);
    expect(seen.likes.likedBy).toHaveLength(POST_REACTION_CAP);
    expect(seen.likes.likedBy[0]._id).toBe(first.user._id);
  });

  it('stays exact under a storm of concurrent likes and dislikes', async () => {
    const author = await signUp(ctx.app);
    const post = await createPost(author);
    const fans = await Promise.all(Array.from({ length: 8 }, () => signUp(ctx.app)));
    const requests = fans.flatMap((fan) =>
      Array.from({ length: 6 }, (_, i) => react(fan, i % 2 === 0 ? 'like' : 'dislike', post._id)),
    );
    const statuses = (await Promise.all(requests)).map((r) => r.statusCode);
    expect(statuses.every((s) => s === 201 || s === 400)).toBe(true);
    const [counts] = await queryRows<{ likes: number; dislikes: number }>(
      ctx.database.db,
      sql`select count(*) filter (where kind = 'like')::int as likes, count(*) filter (where kind = 'dislike')::int as dislikes
          from post_reactions where post_id = ${post._id}`,
    );
    const row = await postRow(post._id);
    expect(row.likeCount).toBe(counts!.likes);
    expect(row.dislikeCount).toBe(counts!.dislikes);

    // 100 identical likes from one user change the count by exactly one.
    const solo = await signUp(ctx.app);
    const before = (await postRow(post._id)).likeCount;
    const results = await Promise.all(Array.from({ length: 100 }, () => react(solo, 'like', post._id)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect((await postRow(post._id)).likeCount).toBe(before + 1);
  });
});

describe('GET /api/posts/liked', () => {
  it('lists the posts I like, most recently liked first', async () => {
    const author = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const a = await createPost(author, 'liked a');
    const b = await createPost(author, 'liked b');
    await react(fan, 'like', b._id);
    await react(fan, 'like', a._id);
    const liked = (await ctx.app.inject({ method: 'GET', url: '/api/posts/liked', headers: auth(fan) })).json();
    expect(liked.posts.map((p: { _id: string }) => p._id)).toEqual([a._id, b._id]);
    await react(fan, 'dislike', a._id);
    const after = (await ctx.app.inject({ method: 'GET', url: '/api/posts/liked', headers: auth(fan) })).json();
    expect(after.posts.map((p: { _id: string }) => p._id)).toEqual([b._id]);
  });
});

describe('posts with pictures', () => {
  async function upload(who: SignedUp) {
    const data = await sharp({ create: { width: 700, height: 400, channels: 3, background: '#446688' } })
      .jpeg()
      .toBuffer();
    const { payload, contentType } = multipart([
      { name: 'alt', data: 'A blue field' },
      { name: 'file', data, filename: 'field.jpg', contentType: 'image/jpeg' },
    ]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/media',
      payload,
      headers: { 'content-type': contentType, authorization: who.token },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().media as { _id: string; url: string; originalUrl: string };
  }
  const filesOf = async (mediaId: string) => (await storedFiles(ctx)).filter((f) => f.startsWith(mediaId));

  it("lists never show a stale copy: edits, alt text, the author's new name and reactions show at once", async () => {
    const author = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const picture = await upload(author);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'Before', mediaId: picture._id },
      headers: { ...auth(author), ...minimal },
    });
    const postId = created.json().post._id as string;
    const listed = async (who: SignedUp | null = null) => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/posts/user/${author.user.username}`,
        headers: who ? auth(who) : {},
      });
      return response.json().posts.find((post: { _id: string }) => post._id === postId);
    };
    expect(await listed()).toMatchObject({ content: 'Before', likes: { likeCount: 0, likedBy: [] } });
    await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/edit/${postId}`,
      payload: { postData: { content: 'After' } },
      headers: { ...auth(author), ...minimal },
    });
    expect((await listed()).content).toBe('After');

    await react(fan, 'like', postId);
    const seenByFan = await listed(fan);
    expect(seenByFan.likes).toEqual({
      likeCount: 1,
      dislikeCount: 0,
      likedBy: [{ _id: fan.user._id, username: fan.user.username }],
      dislikedBy: [],
    });
    expect(seenByFan.viewer).toMatchObject({ liked: true, isAuthor: false });
    expect((await listed(author)).viewer).toMatchObject({ liked: false, isAuthor: true });
    await react(fan, 'dislike', postId);
    expect((await listed(fan)).likes).toMatchObject({ likeCount: 0, likedBy: [], dislikedBy: [{ _id: fan.user._id }] });

    await ctx.app.inject({
      method: 'POST',
      url: `/api/media/${picture._id}/alt`,
      payload: { alt: 'A calm blue field' },
      headers: auth(author),
    });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      payload: { userData: { firstName: 'Renamed' } },
      headers: auth(author),
    });
    await eventually(async () => {
      const post = await listed();
      expect(post.picture.alt).toBe('A calm blue field');
      expect(post.name).toMatch(/^Renamed /);
    });
  });

  it('shows the picture, refuses it on a second post, and deletes its files with the post', async () => {
    const author = await signUp(ctx.app);
    const picture = await upload(author);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'With a picture', mediaId: picture._id },
      headers: { ...auth(author), ...minimal },
    });
    expect(created.statusCode).toBe(201);
    const post = created.json().post;
    expect(post.postPic).toBe(picture.url);
    expect(post.picture).toMatchObject({ _id: picture._id, alt: 'A blue field', width: 700, height: 400 });

    const reused = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'Same picture', mediaId: picture._id },
      headers: auth(author),
    });
    expect(reused.statusCode).toBe(400);
    expect(errorOf(reused)).toBe(ERRORS.pictureInUse);

    const other = await signUp(ctx.app);
    const stolen = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'Not mine', mediaId: picture._id },
      headers: auth(other),
    });
    expect(stolen.statusCode).toBe(400);
    expect(errorOf(stolen)).toBe(PICTURE_ERRORS.notOwned(picture._id));

    expect((await filesOf(picture._id)).length).toBeGreaterThan(2);
    await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}`, headers: auth(author) });
    expect(await filesOf(picture._id)).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: picture.originalUrl })).statusCode).toBe(404);
  });

  it('replacing or removing the picture in an edit keeps the old files for the author, served to nobody', async () => {
    const author = await signUp(ctx.app);
    const first = await upload(author);
    const second = await upload(author);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'Picture one', mediaId: first._id },
      headers: { ...auth(author), ...minimal },
    });
    const postId = created.json().post._id;
    const edit = (mediaId: string | null) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/posts/edit/${postId}`,
        payload: { postData: { mediaId } },
        headers: { ...auth(author), ...minimal },
      });
    // The post's history keeps them (issue 41, post-history.test.ts): their files stay, /media/ serves them to nobody.
    expect((await edit(second._id)).json().post.picture._id).toBe(second._id);
    expect((await filesOf(first._id)).length).toBeGreaterThan(0);
    expect((await ctx.app.inject({ method: 'GET', url: first.url })).statusCode).toBe(404);
    const removed = await edit(null);
    expect(removed.json().post).toMatchObject({ picture: null, postPic: '/media/defaults/default-post.jpg' });
    expect((await filesOf(second._id)).length).toBeGreaterThan(0);
    expect((await ctx.app.inject({ method: 'GET', url: second.url })).statusCode).toBe(404);
  });
});
