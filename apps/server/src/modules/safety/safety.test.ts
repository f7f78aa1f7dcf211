import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { ERRORS, SAFETY_ERRORS, SAFETY_LIMITS } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { createTestApp, errorOf, signUp, walkPages, type SignedUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const word = () => `zq${randomBytes(4).toString('hex')}`;

const get = (who: SignedUp | null, url: string) =>
  ctx.app.inject({ method: 'GET', url, headers: who ? auth(who) : {} });
const send = (who: SignedUp, method: 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: auth(who), ...(payload ? { payload } : {}) });

const block = (who: SignedUp, other: SignedUp) => send(who, 'POST', `/api/users/${other.user.username}/block`);
const mute = (who: SignedUp, other: SignedUp) => send(who, 'POST', `/api/users/${other.user.username}/mute`);
const follow = (who: SignedUp, other: SignedUp) => send(who, 'POST', `/api/users/follow/${other.user._id}`);

async function createPost(who: SignedUp, content: string): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content },
    headers: { ...auth(who), prefer: 'return=minimal' },
  });
  expect(response.statusCode).toBe(201);
  return response.json().post._id as string;
}

async function comment(who: SignedUp, postId: string, content: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comment`,
    headers: auth(who),
    payload: { commentData: { content } },
  });
}

/** The ids of the posts a list answers (status 200 checked). */
async function postIds(who: SignedUp | null, url: string): Promise<string[]> {
  const response = await get(who, url);
  expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(200);
  return (response.json().posts as { _id: string }[]).map((post) => post._id);
}

async function userRow(id: string) {
  const [row] = await queryRows<{ follower_count: number; following_count: number }>(
    ctx.database.db,
    sql`select follower_count, following_count from users where id = ${id}::uuid`,
  );
  return row!;
}

describe('blocking', () => {
  it('answers { blocked } idempotently, refuses yourself and an unknown user, and asks for a token', async () => {
    const [ana, bo] = [await signUp(ctx.app), await signUp(ctx.app)];
    for (let i = 0; i < 2; i += 1) {
      const answer = await block(ana, bo);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ blocked: true });
    }
    const profile = await get(ana, `/api/users/by-username/${bo.user.username}`);
    expect(profile.json().user.viewer).toMatchObject({ blocked: true, muted: false });
    for (let i = 0; i < 2; i += 1) {
      const answer = await send(ana, 'DELETE', `/api/users/${bo.user.username.toUpperCase()}/block`);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ blocked: false });
    }
    expect((await get(ana, `/api/users/by-username/${bo.user.username}`)).json().user.viewer.blocked).toBe(false);

    const self = await block(ana, ana);
    expect(self.statusCode).toBe(400);
    expect(errorOf(self)).toBe(SAFETY_ERRORS.cannotBlockSelf);
    const unknown = await send(ana, 'POST', '/api/users/nobody_here_at_all/block');
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe(ERRORS.userNotFound);
    expect((await ctx.app.inject({ method: 'POST', url: `/api/users/${bo.user.username}/block` })).statusCode).toBe(
      401,
    );
  });

  it('ends follows both ways with the counters right, and removes the notifications between the two', async () => {
    const [ana, bo, cy] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    await follow(ana, bo);
    await follow(bo, ana);
    await follow(cy, bo);
    const post = await createPost(ana, 'A study in blue');
    await send(bo, 'POST', `/api/posts/like/${post}`);
    expect((await get(ana, '/api/notifications')).json().notifications.length).toBeGreaterThan(0);

    expect((await block(ana, bo)).statusCode).toBe(200);
    expect(await userRow(ana.user._id)).toEqual({ follower_count: 0, following_count: 0 });
    expect(await userRow(bo.user._id)).toEqual({ follower_count: 1, following_count: 0 });
    const [pairs] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from follows where follower_id in (${ana.user._id}::uuid, ${bo.user._id}::uuid)
            and followee_id in (${ana.user._id}::uuid, ${bo.user._id}::uuid)`,
    );
    expect(pairs!.n).toBe(0);
    expect((await get(ana, '/api/notifications')).json().notifications).toEqual([]);
    // The blocked person is not told.
    const boHears = (await get(bo, '/api/notifications')).json().notifications as { actors: { _id: string }[] }[];
    expect(boHears.flatMap((n) => n.actors.map((actor) => actor._id))).toEqual([cy.user._id]);
  });

  describe('hides each of the pair from the other', () => {
    let ana: SignedUp, bo: SignedUp, cy: SignedUp;
    let tag: string, term: string;
    let boPost: string, anaPost: string, cyPost: string;

    beforeAll(async () => {
      [ana, bo, cy] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
      tag = word();
      term = word();
      boPost = await createPost(bo, `${term} by bo #${tag}`);
      anaPost = await createPost(ana, `${term} by ana #${tag}`);
      cyPost = await createPost(cy, `${term} by cy #${tag}`);
      await send(bo, 'POST', `/api/posts/like/${cyPost}`);
      await send(ana, 'POST', `/api/posts/like/${cyPost}`);
      expect((await comment(bo, cyPost, 'bo was here')).statusCode).toBe(201);
      await follow(ana, cy);
      await follow(bo, cy);
      await follow(cy, bo);
      await follow(cy, ana);
      expect((await block(ana, bo)).statusCode).toBe(200);
    });

    it('in Explore, Home, tag pages, search, profiles and single posts, both ways', async () => {
      for (const [viewer, other, theirs] of [
        [ana, bo, boPost],
        [bo, ana, anaPost],
      ] as const) {
        expect(await postIds(viewer, '/api/posts?limit=50')).not.toContain(theirs);
        expect(await postIds(viewer, `/api/tags/${tag}/posts`)).not.toContain(theirs);
        expect(await postIds(viewer, `/api/search?q=${term}&type=posts`)).not.toContain(theirs);
        expect(await postIds(viewer, `/api/search?q=%23${tag}&type=posts`)).not.toContain(theirs);
        expect((await get(viewer, `/api/posts/${theirs}`)).statusCode).toBe(404);
        expect((await get(viewer, `/api/comments/${theirs}`)).statusCode).toBe(404);
        const people = await get(viewer, `/api/search?q=${other.user.username}&type=users`);
        expect(people.json().users.map((user: { _id: string }) => user._id)).not.toContain(other.user._id);
        const mentionable = await get(viewer, `/api/users/mentionable?prefix=${other.user.username.slice(0, 20)}`);
        expect(mentionable.json().users.map((user: { _id: string }) => user._id)).not.toContain(other.user._id);
        // A third person's profile does not list them among its followers.
        const third = await get(viewer, `/api/users/${cy.user._id}`);
        expect(third.json().user.followers.map((user: { _id: string }) => user._id)).not.toContain(other.user._id);
        expect(third.json().user.following.map((user: { _id: string }) => user._id)).not.toContain(other.user._id);
      }
      // Others still see both.
      expect(await postIds(cy, `/api/tags/${tag}/posts`)).toEqual(expect.arrayContaining([boPost, anaPost]));
      expect(await postIds(null, `/api/search?q=${term}&type=posts`)).toEqual(
        expect.arrayContaining([boPost, anaPost, cyPost]),
      );
      // Home: the author one follows is there, the blocked one is not even when followed back later.
      expect(await postIds(ana, '/api/feed')).toContain(cyPost);
    });

    it('answers 404 to the blocked one asking for the blocker, and the profile with viewer.blocked to the blocker', async () => {
      for (const url of [
        `/api/users/by-username/${ana.user.username}`,
        `/api/users/${ana.user._id}`,
        `/api/posts/user/${ana.user.username}`,
        `/api/users/${ana.user.username}/pins`,
      ]) {
        const answer = await get(bo, url);
        expect(answer.statusCode).toBe(404);
        expect(errorOf(answer)).toBe(ERRORS.userNotFound);
      }
      const seen = await get(ana, `/api/users/by-username/${bo.user.username}`);
      expect(seen.statusCode).toBe(200);
      expect(seen.json().user.viewer).toEqual({ follows: false, followsYou: false, blocked: true, muted: false });
    });

    it("leaves the other out of a third person's post: likedBy, newest comments and the comment thread", async () => {
      const forAna = await get(ana, `/api/posts/${cyPost}`);
      expect(forAna.json().post.likes.likedBy.map((user: { _id: string }) => user._id)).toEqual([ana.user._id]);
      expect(forAna.json().post.likes.likeCount).toBe(2);
      expect(forAna.json().post.comments).toEqual([]);
      expect((await get(ana, `/api/comments/${cyPost}`)).json().comments).toEqual([]);
      // The same post in a list, after the cache holds it.
      const listed = (await get(ana, '/api/feed')).json().posts.find((post: { _id: string }) => post._id === cyPost);
      expect(listed.likes.likedBy.map((user: { _id: string }) => user._id)).toEqual([ana.user._id]);
      expect(listed.comments).toEqual([]);
      // Cy sees everyone.
      const forCy = await get(cy, `/api/posts/${cyPost}`);
      expect(forCy.json().post.likes.likedBy).toHaveLength(2);
      expect(forCy.json().post.comments).toHaveLength(1);
    });

    it("leaves the other out of a comment's voters, on the comment thread and in the post's newest comments", async () => {
      const post = await createPost(cy, 'voted on');
      const said = await comment(cy, post, 'vote for this');
      expect(said.statusCode).toBe(201);
      const commentId = (said.json().post.comments as { _id: string }[])[0]!._id;
      for (const who of [bo, cy]) {
        expect((await send(who, 'POST', `/api/comments/upvote/${post}/${commentId}`)).statusCode).toBe(201);
      }
      const voters = (c: { votes: { upvotedBy: { _id: string }[]; upvoteCount: number } }) => [
        c.votes.upvotedBy.map((user) => user._id),
        c.votes.upvoteCount,
      ];
      expect(voters((await get(ana, `/api/comments/${post}`)).json().comments[0])).toEqual([[cy.user._id], 2]);
      expect(voters((await get(ana, `/api/posts/${post}`)).json().post.comments[0])).toEqual([[cy.user._id], 2]);
      expect(voters((await get(cy, `/api/comments/${post}`)).json().comments[0])).toEqual([
        [cy.user._id, bo.user._id],
        2,
      ]);
    });

    it('leaves them out of suggestions', async () => {
      const suggested = async (viewer: SignedUp) =>
        (
          await walkPages(
            ctx.app,
            (cursor) => `/api/users/suggestions?limit=50${cursor ? `&cursor=${cursor}` : ''}`,
            'users',
            auth(viewer),
          )
        ).flat();
      expect((await suggested(ana)).map((user) => user._id)).not.toContain(bo.user._id);
      expect((await suggested(bo)).map((user) => user._id)).not.toContain(ana.user._id);
    });

    it('refuses likes, dislikes, comments, votes and bookmarks exactly as for a post that does not exist', async () => {
      const missing = '00000000-0000-4000-8000-000000000000';
      for (const [viewer, theirs] of [
        [ana, boPost],
        [bo, anaPost],
      ] as const) {
        for (const url of ['/api/posts/like/', '/api/posts/dislike/', '/api/users/bookmark/']) {
          const refused = await send(viewer, 'POST', `${url}${theirs}`);
          const absent = await send(viewer, 'POST', `${url}${missing}`);
          expect(refused.statusCode).toBe(404);
          expect(refused.body).toBe(absent.body);
        }
        const refused = await comment(viewer, theirs, 'hello');
        expect(refused.statusCode).toBe(404);
        expect(refused.body).toBe((await comment(viewer, missing, 'hello')).body);
      }
      // A vote on the other's comment on a third person's post: that comment is not there for them.
      const [commentRow] = await queryRows<{ id: string }>(
        ctx.database.db,
        sql`select id from comments where post_id = ${cyPost}::uuid and author_id = ${bo.user._id}::uuid`,
      );
      const vote = await send(ana, 'POST', `/api/comments/upvote/${cyPost}/${commentRow!.id}`);
      expect(vote.statusCode).toBe(404);
      expect(errorOf(vote)).toBe(ERRORS.commentNotFound);
      const [rows] = await queryRows<{ n: number }>(
        ctx.database.db,
        sql`select (select count(*) from post_reactions where post_id in (${boPost}::uuid, ${anaPost}::uuid))::int
                 + (select count(*) from comments where post_id in (${boPost}::uuid, ${anaPost}::uuid))::int
                 + (select count(*) from bookmarks where post_id in (${boPost}::uuid, ${anaPost}::uuid))::int
                 + (select count(*) from comment_votes where comment_id = ${commentRow!.id}::uuid)::int as n`,
      );
      expect(rows!.n).toBe(0);
    });

    it('refuses follows (403 to the blocker, 404 to the blocked) and mentions do not notify', async () => {
      const byBlocker = await follow(ana, bo);
      expect(byBlocker.statusCode).toBe(403);
      expect(errorOf(byBlocker)).toBe(SAFETY_ERRORS.blocked);
      const byBlocked = await follow(bo, ana);
      expect(byBlocked.statusCode).toBe(404);
      expect(errorOf(byBlocked)).toBe(ERRORS.userNotFound);

      await createPost(bo, `hey @${ana.user.username} look`);
      await createPost(ana, `hey @${bo.user.username} look`);
      expect((await comment(bo, cyPost, `@${ana.user.username} again`)).statusCode).toBe(201);
      for (const who of [ana, bo]) {
        const kinds = (await get(who, '/api/notifications')).json().notifications as { actors: { _id: string }[] }[];
        const other = who === ana ? bo : ana;
        expect(kinds.flatMap((n) => n.actors.map((actor) => actor._id))).not.toContain(other.user._id);
      }
    });
  });
});

describe('muting', () => {
  it('hides their posts from my lists and their comments from me only; the profile and each post stay', async () => {
    const [ana, mu, cy] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    const tag = word();
    const muPost = await createPost(mu, `muted words here #${tag}`);
    const cyPost = await createPost(cy, `cy's work #${tag}`);
    await follow(ana, mu);
    await comment(mu, cyPost, 'mu comments');
    for (let i = 0; i < 2; i += 1) {
      const answer = await mute(ana, mu);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ muted: true });
    }
    expect(await postIds(ana, '/api/posts?limit=50')).not.toContain(muPost);
    expect(await postIds(ana, '/api/feed')).not.toContain(muPost);
    expect(await postIds(ana, `/api/tags/${tag}/posts`)).toEqual([cyPost]);
    expect(await postIds(ana, `/api/search?q=%23${tag}&type=posts`)).toEqual([cyPost]);
    expect(await postIds(ana, `/api/posts/user/${mu.user.username}`)).toEqual([muPost]);
    expect((await get(ana, `/api/posts/${muPost}`)).statusCode).toBe(200);
    expect((await get(ana, `/api/posts/${cyPost}`)).json().post.comments).toEqual([]);
    expect((await get(ana, `/api/comments/${cyPost}`)).json().comments).toEqual([]);
    // Nothing else changes: still following, and others see it all.
    const profile = (await get(ana, `/api/users/by-username/${mu.user.username}`)).json().user;
    expect(profile.viewer).toMatchObject({ follows: true, muted: true, blocked: false });
    expect(await postIds(cy, `/api/tags/${tag}/posts`)).toHaveLength(2);
    expect((await get(cy, `/api/comments/${cyPost}`)).json().comments).toHaveLength(1);

    expect((await send(ana, 'DELETE', `/api/users/${mu.user.username}/mute`)).json()).toEqual({ muted: false });
    expect((await send(ana, 'DELETE', `/api/users/${mu.user.username}/mute`)).json()).toEqual({ muted: false });
    expect(await postIds(ana, `/api/tags/${tag}/posts`)).toHaveLength(2);
    expect(errorOf(await mute(ana, ana))).toBe(SAFETY_ERRORS.cannotMuteSelf);
    expect((await send(ana, 'POST', '/api/users/nobody_here_at_all/mute')).statusCode).toBe(404);
  });
});

describe('the lists of people blocked and muted', () => {
  it('page the most recent first', async () => {
    const ana = await signUp(ctx.app);
    const others = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    for (const other of others) {
      await block(ana, other);
      await mute(ana, other);
    }
    for (const list of ['blocks', 'mutes']) {
      const pages = await walkPages(
        ctx.app,
        (cursor) => `/api/users/me/${list}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        'users',
        auth(ana),
      );
      expect(pages.map((page) => page.length)).toEqual([2, 1]);
      expect(new Set(pages.flat().map((user) => user._id))).toEqual(new Set(others.map((o) => o.user._id)));
      expect(pages[0]![0]).toMatchObject({ username: expect.any(String), userPhoto: expect.any(String) });
    }
    expect((await get(ana, '/api/users/me/blocks?cursor=garbage')).statusCode).toBe(400);
  });

  it('keep Explore pages full when a viewer blocks a prolific artist', async () => {
    const [ana, prolific, other] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    for (let i = 0; i < 4; i += 1) await createPost(other, `other ${i}`);
    for (let i = 0; i < 8; i += 1) await createPost(prolific, `prolific ${i}`);
    await block(ana, prolific);
    const first = await get(ana, '/api/posts?limit=4');
    expect(first.json().posts).toHaveLength(4);
    expect(first.json().posts.map((post: { userId: string }) => post.userId)).not.toContain(prolific.user._id);
  });
});

describe('muted words', () => {
  it('leave posts out of lists (whole words, any case, and #tags) and mark the single post', async () => {
    const [ana, cy] = [await signUp(ctx.app), await signUp(ctx.app)];
    const [term, tag, other] = [word(), word(), word()];
    const hit = await createPost(cy, `A ${term.toUpperCase()}, in oil #${other}`);
    const partial = await createPost(cy, `${term}s are not the word #${other}`);
    const tagged = await createPost(cy, `plain #${tag} #${other}`);
    const own = await createPost(ana, `my own ${term} #${other}`);
    await follow(ana, cy);

    const added = await send(ana, 'POST', '/api/users/me/muted-words', { word: `  ${term} ` });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({ word: term, createdAt: expect.any(String) });
    expect((await send(ana, 'POST', '/api/users/me/muted-words', { word: `#${tag.toUpperCase()}` })).statusCode).toBe(
      201,
    );

    for (const url of [
      '/api/posts?limit=50',
      '/api/feed?limit=50',
      `/api/tags/${other}/posts`,
      `/api/search?q=%23${other}&type=posts`,
    ]) {
      const ids = await postIds(ana, url);
      expect(ids, url).toEqual(expect.arrayContaining([partial, own]));
      expect(ids, url).not.toContain(hit);
      expect(ids, url).not.toContain(tagged);
    }
    expect(await postIds(ana, `/api/search?q=${term}&type=posts`)).not.toContain(hit);
    expect(await postIds(cy, `/api/tags/${other}/posts`)).toHaveLength(4);

    const single = await get(ana, `/api/posts/${hit}`);
    expect(single.statusCode).toBe(200);
    expect(single.json().post.viewer.mutedWord).toBe(term);
    expect((await get(ana, `/api/posts/${tagged}`)).json().post.viewer.mutedWord).toBe(`#${tag.toUpperCase()}`);
    expect((await get(ana, `/api/posts/${partial}`)).json().post.viewer.mutedWord).toBeNull();
    expect((await get(cy, `/api/posts/${hit}`)).json().post.viewer.mutedWord).toBeNull();

    const listed = await get(ana, '/api/users/me/muted-words');
    expect(listed.json().words.map((w: { word: string }) => w.word)).toEqual([`#${tag.toUpperCase()}`, term]);

    expect((await send(ana, 'DELETE', `/api/users/me/muted-words/${term.toUpperCase()}`)).statusCode).toBe(204);
    expect((await send(ana, 'DELETE', `/api/users/me/muted-words/${encodeURIComponent(`#${tag}`)}`)).statusCode).toBe(
      204,
    );
    const gone = await send(ana, 'DELETE', `/api/users/me/muted-words/${term}`);
    expect(gone.statusCode).toBe(404);
    expect(errorOf(gone)).toBe(SAFETY_ERRORS.mutedWordNotFound);
    expect(await postIds(ana, `/api/tags/${other}/posts`)).toHaveLength(4);
  });

  it('refuses an empty word, one too long, a duplicate in any case (409) and more than the cap', async () => {
    const ana = await signUp(ctx.app);
    const add = (value: unknown) => send(ana, 'POST', '/api/users/me/muted-words', { word: value });
    for (const empty of ['', '   ', '#']) {
      const refused = await add(empty);
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused)).toBe(SAFETY_ERRORS.mutedWordEmpty);
    }
    const long = await add('x'.repeat(SAFETY_LIMITS.mutedWordMax + 1));
    expect(long.statusCode).toBe(400);
    expect(errorOf(long)).toBe(SAFETY_ERRORS.mutedWordTooLong);
    expect((await add('x'.repeat(SAFETY_LIMITS.mutedWordMax))).statusCode).toBe(201);
    expect((await add(42)).statusCode).toBe(400);
    expect((await add('Dragon')).statusCode).toBe(201);
    const twice = await add('dRAGON');
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice)).toBe(SAFETY_ERRORS.mutedWordDuplicate);

    await queryRows(
      ctx.database.db,
      sql`insert into muted_words (user_id, word)
          select ${ana.user._id}::uuid, 'filler' || i from generate_series(1, ${SAFETY_LIMITS.mutedWordsMax - 2}) i`,
    );
    const full = await add('one more');
    expect(full.statusCode).toBe(400);
    expect(errorOf(full)).toBe(SAFETY_ERRORS.tooManyMutedWords);
    expect((await get(ana, '/api/users/me/muted-words')).json().words).toHaveLength(SAFETY_LIMITS.mutedWordsMax);
  });
});
