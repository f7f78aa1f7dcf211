import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookmarks, follows, users } from '../../db/schema.js';
import { ERRORS } from '@share-arts/contract';
import sharp from 'sharp';
import { createTestApp, errorOf, multipart, signUp, walkPages, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const edit = (token: string, userData: unknown) =>
  ctx.app.inject({ method: 'POST', url: '/api/users/edit', payload: { userData }, headers: { authorization: token } });

describe('POST /api/users/edit', () => {
  it('changes the editable fields and answers 201 with the user', async () => {
    // The address is sent as it is: a new one is changed with POST /api/account/email (issue 38).
    const { token, user } = await signUp(ctx.app, { email: 'ada@example.com' });
    const response = await edit(token, {
      firstName: ' Ada ',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      bio: 'Engines and art',
      link: 'https://ada.example.com/work',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().user).toMatchObject({
      _id: user._id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      bio: 'Engines and art',
      link: 'https://ada.example.com/work',
    });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user._id));
    expect(row!.bio).toBe('Engines and art');
  });

  it('ignores every field that is not editable (no mass assignment)', async () => {
    const { token, user } = await signUp(ctx.app);
    const [before] = await ctx.database.db.select().from(users).where(eq(users.id, user._id));
    const response = await edit(token, {
      bio: 'only this changes',
      username: 'hijacked',
      _id: '00000000-0000-4000-8000-000000000000',
      id: '00000000-0000-4000-8000-000000000000',
      password: 'new-password-1',
      passwordHash: 'x',
      followerCount: 9999,
      followers: [{ _id: 'x' }],
      createdAt: '2000-01-01T00:00:00+00:00',
    });
    expect(response.statusCode).toBe(201);
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, user._id));
    expect(after).toEqual({ ...before, bio: 'only this changes', updatedAt: after!.updatedAt });
  });

  it.each(['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com', 'not a url'])(
    'refuses the link %s',
    async (link) => {
      const { token } = await signUp(ctx.app);
      const response = await edit(token, { link });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response)).toMatch(/^link must/);
    },
  );

  it('refuses an invalid email, an empty first name, an over-long bio and a foreign photo URL', async () => {
    const { token } = await signUp(ctx.app);
    expect(errorOf(await edit(token, { email: 'nope' }))).toBe('email must be a valid address, like ana@example.com.');
    expect(errorOf(await edit(token, { firstName: '  ' }))).toBe('firstName must not be empty.');
    expect(errorOf(await edit(token, { bio: 'b'.repeat(301) }))).toBe(
      'userData.bio must be at most 300 characters long.',
    );
    expect(errorOf(await edit(token, { userPhoto: 'https://evil.example.com/x.png' }))).toMatch(/^userPhoto must be/);
    // A name may not hide control characters or flip the direction of the text around it.
    expect(errorOf(await edit(token, { lastName: 'nimda\u202e' }))).toBe(
      'userData.lastName must not contain control characters, text-direction marks or invisible characters (zero-width spaces or joiners, fillers, tags).',
    );
    expect(errorOf(await edit(token, { firstName: 'Ana\u0007' }))).toBe(
      'userData.firstName must not contain control characters, text-direction marks or invisible characters (zero-width spaces or joiners, fillers, tags).',
    );
    expect(errorOf(await edit(token, { bio: 'bell\u0007' }))).toBe(
      'userData.bio must not contain control characters (line breaks and tabs are fine).',
    );
    const multiline = await edit(token, { bio: 'Painter.\n\tOil and ink.', firstName: 'Ana 🎨' });
    expect(multiline.json().user).toMatchObject({ bio: 'Painter.\n\tOil and ink.', firstName: 'Ana 🎨' });
  });

  it('shows email to its owner only', async () => {
    const { token } = await signUp(ctx.app, { email: 'private@example.com' });
    const own = await edit(token, {});
    expect(own.json().user.email).toBe('private@example.com');
  });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const follow = (token: string, id: string, action: 'follow' | 'unfollow' = 'follow') =>
  ctx.app.inject({ method: 'POST', url: `/api/users/${action}/${id}`, headers: auth(token) });

async function counts(id: string) {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, id));
  return row!;
}

describe('follow and unfollow', () => {
  it('updates both users in one go and answers { user, followUser }', async () => {
    const me = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const response = await follow(me.token, artist.user._id);
    expect(response.statusCode).toBe(200);
    const { user, followUser } = response.json();
    expect(user.following.map((u: { _id: string }) => u._id)).toEqual([artist.user._id]);
    expect(user.followingCount).toBe(1);
    expect(followUser.followers.map((u: { _id: string }) => u._id)).toEqual([me.user._id]);
    expect(followUser.followerCount).toBe(1);
    expect(followUser.viewer).toEqual({ follows: true, followsYou: false, blocked: false, muted: false });
    expect(followUser).not.toHaveProperty('email');

    const again = await follow(me.token, artist.user._id);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: [ERRORS.alreadyFollowing] });

    const unfollowed = await follow(me.token, artist.user._id, 'unfollow');
    expect(unfollowed.statusCode).toBe(200);
    expect(unfollowed.json().followUser.followerCount).toBe(0);
    const notFollowing = await follow(me.token, artist.user._id, 'unfollow');
    expect(notFollowing.json()).toEqual({ errors: [ERRORS.notFollowing] });
  });

  it('refuses following yourself, unknown and malformed ids', async () => {
    const me = await signUp(ctx.app);
    const self = await follow(me.token, me.user._id);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ errors: [ERRORS.cannotFollowSelf] });
    expect((await follow(me.token, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await follow(me.token, 'not-an-id')).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: `/api/users/follow/${me.user._id}` })).statusCode).toBe(401);
  });

  it('keeps counters equal to the rows under a concurrent follow/unfollow storm', async () => {
    const target = await signUp(ctx.app);
    const fans = await Promise.all(Array.from({ length: 6 }, () => signUp(ctx.app)));
    const answers = await Promise.all(
      fans.flatMap((fan) =>
        Array.from({ length: 5 }, (_, i) => follow(fan.token, target.user._id, i % 2 === 0 ? 'follow' : 'unfollow')),
      ),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200 && s !== 400)).toEqual([]);
    const rows = await ctx.database.db.select().from(follows).where(eq(follows.followeeId, target.user._id));
    expect((await counts(target.user._id)).followerCount).toBe(rows.length);
    for (const fan of fans) {
      const following = rows.filter((r) => r.followerId === fan.user._id).length;
      expect((await counts(fan.user._id)).followingCount).toBe(following);
    }
  });
});

describe('mutual follows', () => {
  it('never deadlock: six people following each other all at once all succeed, with exact counts', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => signUp(ctx.app)));
    const answers = await Promise.all(
      people.flatMap((me) =>
        people.filter((other) => other !== me).map((other) => follow(me.token, other.user._id, 'follow')),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    for (const person of people) {
      expect(await counts(person.user._id)).toMatchObject({ followerCount: 5, followingCount: 5 });
    }
  });
});

describe('bookmarks', () => {
  async function newPost(token: string) {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'bookmark me' },
      headers: { ...auth(token), prefer: 'return=minimal' },
    });
    return response.json().post._id as string;
  }

  it('adds and removes with the spec messages, and lists them newest first', async () => {
    const author = await signUp(ctx.app);
    const me = await signUp(ctx.app);
    const first = await newPost(author.token);
    const second = await newPost(author.token);
    const add = (id: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/users/bookmark/${id}`, headers: auth(me.token) });
    const remove = (id: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/users/remove-bookmark/${id}`, headers: auth(me.token) });

    expect((await add(first)).statusCode).toBe(200);
    const added = await add(second);
    expect(added.statusCode).toBe(200);
    expect(added.json().bookmarks.map((p: { _id: string }) => p._id)).toEqual([second, first]);
    expect(added.json().bookmarks[0].viewer.bookmarked).toBe(true);
    expect((await add(first)).json()).toEqual({ errors: [ERRORS.alreadyBookmarked] });
    expect((await counts(me.user._id)).bookmarkCount).toBe(2);

    const listed = await ctx.app.inject({ method: 'GET', url: '/api/users/bookmark?limit=1', headers: auth(me.token) });
    expect(listed.json().bookmarks.map((p: { _id: string }) => p._id)).toEqual([second]);
    expect(listed.json().nextCursor).toEqual(expect.any(String));

    expect((await remove(first)).statusCode).toBe(200);
    expect((await remove(first)).json()).toEqual({ errors: [ERRORS.notBookmarked] });
    expect((await counts(me.user._id)).bookmarkCount).toBe(1);
    expect((await add('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await add('nope')).statusCode).toBe(404);
  });

  it('keeps the count exact under concurrent toggles', async () => {
    const author = await signUp(ctx.app);
    const me = await signUp(ctx.app);
    const postId = await newPost(author.token);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: `/api/users/${i % 2 === 0 ? 'bookmark' : 'remove-bookmark'}/${postId}`,
          headers: auth(me.token),
        }),
      ),
    );
    const rows = await ctx.database.db.select().from(bookmarks).where(eq(bookmarks.userId, me.user._id));
    expect((await counts(me.user._id)).bookmarkCount).toBe(rows.length);
  });

  it('keeps every count exact when the post is deleted while people bookmark it', async () => {
    const author = await signUp(ctx.app);
    const readers = await Promise.all(Array.from({ length: 8 }, () => signUp(ctx.app)));
    const postId = await newPost(author.token);
    const bookmark = (token: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/users/bookmark/${postId}`, headers: auth(token) });
    const answers = await Promise.all([
      ...readers.slice(0, 4).map((reader) => bookmark(reader.token)),
      ctx.app.inject({ method: 'DELETE', url: `/api/posts/${postId}`, headers: auth(author.token) }),
      ...readers.slice(4).map((reader) => bookmark(reader.token)),
    ]);
    // Each bookmark came before the delete (200) or after it (404); nothing failed.
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200 && s !== 201 && s !== 404)).toEqual([]);
    for (const reader of readers) expect((await counts(reader.user._id)).bookmarkCount).toBe(0);
  });
});

describe('reading users', () => {
  it('GET /api/users/{id} and /by-username/{username}; unknown ids 404; email for its owner only', async () => {
    const me = await signUp(ctx.app, { email: 'me@example.com' });
    const other = await signUp(ctx.app);
    const byId = await ctx.app.inject({ method: 'GET', url: `/api/users/${me.user._id}`, headers: auth(other.token) });
    expect(byId.statusCode).toBe(200);
    expect(byId.json().user.username).toBe(me.user.username);
    expect(byId.json().user).not.toHaveProperty('email');
    const own = await ctx.app.inject({ method: 'GET', url: `/api/users/${me.user._id}`, headers: auth(me.token) });
    expect(own.json().user.email).toBe('me@example.com');
    const byName = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/by-username/${me.user.username.toUpperCase()}`,
    });
    expect(byName.json().user._id).toBe(me.user._id);
    for (const url of [
      '/api/users/00000000-0000-4000-8000-000000000000',
      '/api/users/x',
      '/api/users/by-username/nobody_here',
    ]) {
      const missing = await ctx.app.inject({ method: 'GET', url });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ errors: [ERRORS.userNotFound] });
    }
  });

  it('GET /api/users pages every user once, without emails', async () => {
    for (let i = 0; i < 3; i++) await signUp(ctx.app);
    const pages = await walkPages<{ _id: string; email?: string }>(
      ctx.app,
      (cursor) => `/api/users?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      'users',
    );
    const seen = new Set(pages.flat().map((user) => user._id));
    expect(seen.size).toBe(pages.flat().length);
    expect(pages.every((page) => page.length <= 4)).toBe(true);
    expect(pages.flat().some((user) => 'email' in user)).toBe(false);
    const all = await ctx.database.db.select().from(users);
    expect(seen.size).toBe(all.length);
    expect(pages.length).toBeGreaterThan(1);
  });
});

describe('GET /api/users/{id}/followers', () => {
  it('pages the followers newest first, leaves out a blocked pair, and is 404 for one who blocked the viewer', async () => {
    const artist = await signUp(ctx.app);
    const fans = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    for (const fan of fans) {
      const followed = await ctx.app.inject({
        method: 'POST',
        url: `/api/users/follow/${artist.user._id}`,
        headers: auth(fan.token),
      });
      expect(followed.statusCode).toBe(200);
    }
    const followers = (viewer?: string) =>
      walkPages<{ username: string; remote?: unknown }>(
        ctx.app,
        (cursor) => `/api/users/${artist.user._id}/followers?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        'followers',
        viewer ? auth(viewer) : {},
      );
    const newestFirst = fans.map((fan) => fan.user.username).reverse();
    const pages = await followers();
    expect(pages.map((page) => page.map((person) => person.username))).toEqual([
      newestFirst.slice(0, 2),
      newestFirst.slice(2),
    ]);
    expect(pages.flat().some((person) => 'remote' in person)).toBe(false);
    const profile = await ctx.app.inject({ method: 'GET', url: `/api/users/${artist.user._id}` });
    expect(profile.json().user.followerCount).toBe(pages.flat().length);

    // The newest fan blocks the oldest: neither sees the other among the artist's followers.
    const blocked = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${fans[0]!.user.username}/block`,
      headers: auth(fans[2]!.token),
    });
    expect(blocked.statusCode, blocked.body).toBeLessThan(300);
    expect((await followers(fans[0]!.token)).flat().map((person) => person.username)).toEqual(newestFirst.slice(1));
    expect((await followers(fans[2]!.token)).flat().map((person) => person.username)).toEqual(newestFirst.slice(0, 2));
    // The artist blocks a fan: to them, the artist and the list are not there.
    await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${fans[1]!.user.username}/block`,
      headers: auth(artist.token),
    });
    for (const [url, headers] of [
      [`/api/users/${artist.user._id}/followers`, auth(fans[1]!.token)],
      ['/api/users/00000000-0000-4000-8000-000000000000/followers', {}],
      ['/api/users/x/followers', {}],
    ] as const) {
      const missing = await ctx.app.inject({ method: 'GET', url, headers });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json()).toEqual({ errors: [ERRORS.userNotFound] });
    }
  });
});

describe('GET /api/users/suggestions', () => {
  it('suggests people I do not follow, friends of friends first, never me', async () => {
    const me = await signUp(ctx.app);
    const friend = await signUp(ctx.app);
    const friendOfFriend = await signUp(ctx.app);
    await follow(me.token, friend.user._id);
    await follow(friend.token, friendOfFriend.user._id);
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/suggestions?limit=50',
      headers: auth(me.token),
    });
    expect(response.statusCode).toBe(200);
    const ids = response.json().users.map((u: { _id: string }) => u._id);
    expect(ids[0]).toBe(friendOfFriend.user._id);
    expect(ids).not.toContain(me.user._id);
    expect(ids).not.toContain(friend.user._id);
    const unauthenticated = await ctx.app.inject({ method: 'GET', url: '/api/users/suggestions' });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('pages without repeating anyone', async () => {
    const me = await signUp(ctx.app);
    const pages = await walkPages(
      ctx.app,
      (cursor) => `/api/users/suggestions?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      'users',
      auth(me.token),
    );
    const seen = new Set(pages.flat().map((user) => user._id));
    expect(seen.size).toBe(pages.flat().length);
    const all = await ctx.database.db.select().from(users);
    expect(seen.size).toBe(all.length - 1);
  });
});

describe('profile photo', () => {
  const picture = () =>
    sharp({ create: { width: 300, height: 200, channels: 3, background: '#d6806a' } })
      .jpeg()
      .toBuffer();

  async function uploadAvatar(token: string, purpose = 'avatar') {
    const { payload, contentType } = multipart([
      { name: 'purpose', data: purpose },
      { name: 'file', data: await picture(), filename: 'me.jpg', contentType: 'image/jpeg' },
    ]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/media',
      payload,
      headers: { 'content-type': contentType, authorization: token },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().media as { _id: string; url: string; sources: { srcset: string }[] };
  }

  it('takes an uploaded avatar by URL or id, shows a square variant, and deletes the replaced one', async () => {
    const me = await signUp(ctx.app);
    const first = await uploadAvatar(me.token);
    const set = await edit(me.token, { userPhoto: first.url });
    expect(set.statusCode).toBe(201);
    const photo: string = set.json().user.userPhoto;
    expect(photo).toMatch(new RegExp(`^/media/${first._id}-\\d+\\.jpg$`));
    const served = await ctx.app.inject({ method: 'GET', url: photo });
    expect(served.statusCode).toBe(200);
    const { width, height } = await sharp(served.rawPayload).metadata();
    expect(width).toBe(height);

    const second = await uploadAvatar(me.token);
    expect((await edit(me.token, { userPhoto: second._id })).statusCode).toBe(201);
    expect((await ctx.app.inject({ method: 'GET', url: photo })).statusCode).toBe(404);

    const removed = await edit(me.token, { userPhoto: '' });
    expect(removed.json().user.userPhoto).toBe('/media/defaults/default-avatar.png');
  });

  it("refuses someone else's picture, a post picture and a foreign URL", async () => {
    const me = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const theirs = await uploadAvatar(other.token);
    expect((await edit(me.token, { userPhoto: theirs._id })).statusCode).toBe(403);
    const postPicture = await uploadAvatar(me.token, 'post');
    const wrongPurpose = await edit(me.token, { userPhoto: postPicture._id });
    expect(wrongPurpose.statusCode).toBe(400);
    expect(errorOf(wrongPurpose)).toMatch(/purpose=avatar/);
    expect(errorOf(await edit(me.token, { userPhoto: 'https://example.com/me.png' }))).toMatch(/^userPhoto must be/);
  });
});
