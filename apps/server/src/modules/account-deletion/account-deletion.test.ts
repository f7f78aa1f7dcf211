import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ACCOUNT_DELETION, ACCOUNT_DELETION_ERRORS } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { ACCOUNT_GONE } from '../../plugins/auth.js';
import { createTestApp, errorOf, signUp, storedFiles, type SignedUp, type TestContext } from '../../test/helpers.js';
import { createComment, createPost, uploadPicture } from '../../security/fixtures.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });

async function call(who: SignedUp, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const response = await ctx.app.inject({
    method,
    url,
    headers: { ...auth(who), prefer: 'return=minimal' },
    ...(payload ? { payload } : {}),
  });
  expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBeLessThan(300);
  return response;
}

const deleteAccount = (who: SignedUp, payload: object) =>
  ctx.app.inject({ method: 'POST', url: '/api/account/delete', headers: auth(who), payload });

/** Every counter of posts, comments, users and tags that differs from a recount of the rows it counts. */
async function driftedCounters() {
  return queryRows<{ kind: string; id: string }>(
    ctx.database.db,
    sql`select 'post' as kind, p.id::text as id from posts p
        where p.like_count <> (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'like')
           or p.dislike_count <> (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'dislike')
           or p.comment_count <> (select count(*) from comments c where c.post_id = p.id and c.moderation_state is null)
        union all
        select 'comment', c.id::text from comments c
        where c.upvote_count <> (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'up')
           or c.downvote_count <> (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'down')
        union all
        select 'user', u.id::text from users u
        where u.follower_count <> (select count(*) from follows f where f.followee_id = u.id)
           or u.following_count <> (select count(*) from follows f where f.follower_id = u.id)
           or u.bookmark_count <> (select count(*) from bookmarks b where b.user_id = u.id)
           or u.post_count <> (select count(*) from posts p where p.author_id = u.id)
        union all
        select 'tag', t.tag from tags t
        where t.post_count <> (select count(*) from posts p where t.tag = any (p.tags) and p.moderation_state is null)`,
  );
}

/**
 * The tables with a row that still names the account: every column of every table is searched as text
 * (foreign keys, uuid columns without one such as reports.target_id, JSON), the audit log left aside.
 */
async function tablesNaming(userId: string): Promise<string[]> {
  const tables = await queryRows<{ table_name: string }>(
    ctx.database.db,
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'moderation_actions'`,
  );
  const naming: string[] = [];
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from ${sql.identifier(table_name)} t where t::text like ${`%${userId}%`}`,
    );
    if (row!.n > 0) naming.push(table_name);
  }
  return naming;
}

/** The foreign keys to users.id (table.column), as the database lists them: each must hold no row of the account. */
async function userForeignKeys() {
  return queryRows<{ table_name: string; column_name: string }>(
    ctx.database.db,
    sql`select kcu.table_name, kcu.column_name
        from information_schema.referential_constraints rc
        join information_schema.key_column_usage kcu on kcu.constraint_name = rc.constraint_name
        join information_schema.constraint_column_usage ccu on ccu.constraint_name = rc.unique_constraint_name
        where ccu.table_name = 'users' and ccu.column_name = 'id' and kcu.table_schema = 'public'`,
  );
}

/** The media files stored (in the folder, or the bucket with MEDIA_STORE=s3). */
const mediaFiles = () => storedFiles(ctx);

describe('deleting an account', () => {
  let gone: SignedUp;
  let artist: SignedUp;
  let fan: SignedUp;
  let friend: SignedUp;
  let goneMedia: string[] = [];
  let artistPost = '';
  let auditBefore = 0;

  beforeAll(async () => {
    [gone, artist, fan, friend] = [
      await signUp(ctx.app),
      await signUp(ctx.app),
      await signUp(ctx.app),
      await signUp(ctx.app),
    ];
    const blocked = await signUp(ctx.app);

    // Its works: two posts with pictures and a tag, an avatar, an upload never posted, a pin.
    const pictures = [await uploadPicture(ctx.app, gone), await uploadPicture(ctx.app, gone)];
    const avatar = await uploadPicture(ctx.app, gone, 'avatar');
    const unposted = await uploadPicture(ctx.app, gone);
    goneMedia = [...pictures, avatar, unposted];
    await call(gone, 'POST', '/api/users/edit', { userData: { userPhoto: avatar } });
    const ownPost = (
      await call(gone, 'POST', '/api/posts', { content: 'Sea at dusk #seascape', mediaIds: pictures })
    ).json().post._id as string;
    const secondPost = await createPost(ctx.app, gone, 'Studies #seascape @' + artist.user.username);
    await call(gone, 'POST', `/api/posts/${ownPost}/pin`);

    // Others around it, with their own rows that must stay.
    artistPost = await createPost(ctx.app, artist, 'Harbour #seascape');
    await uploadPicture(ctx.app, artist);
    const friendPost = await createPost(ctx.app, friend, 'Still life');
    const artistComment = await createComment(ctx.app, artist, artistPost);
    const friendComment = await createComment(ctx.app, friend, artistPost);

    // Its actions on others' rows.
    await call(gone, 'POST', `/api/posts/like/${artistPost}`);
    await call(gone, 'POST', `/api/posts/like/${friendPost}`);
    await call(artist, 'POST', `/api/posts/like/${friendPost}`);
    await createComment(ctx.app, gone, artistPost);
    await createComment(ctx.app, gone, friendPost);
    await call(gone, 'POST', `/api/comments/upvote/${artistPost}/${artistComment}`);
    await call(gone, 'POST', `/api/comments/downvote/${artistPost}/${friendComment}`);
    await call(gone, 'POST', `/api/users/bookmark/${artistPost}`);
    await call(gone, 'POST', `/api/users/follow/${artist.user._id}`);
    await call(gone, 'POST', '/api/tags/seascape/follow');
    await call(gone, 'POST', `/api/users/${blocked.user.username}/block`);
    await call(gone, 'POST', `/api/users/${friend.user.username}/mute`);
    await call(gone, 'POST', '/api/users/me/muted-words', { word: 'spoiler' });
    await call(gone, 'POST', '/api/reports', { targetType: 'post', targetId: friendPost, reason: 'spam' });

    // Others' actions on its rows.
    await call(fan, 'POST', `/api/users/follow/${gone.user._id}`);
    await call(friend, 'POST', `/api/users/follow/${gone.user._id}`);
    await call(artist, 'POST', `/api/posts/like/${ownPost}`);
    await createComment(ctx.app, artist, ownPost);
    await call(fan, 'POST', `/api/users/bookmark/${ownPost}`);
    await call(fan, 'POST', `/api/users/bookmark/${secondPost}`);
    await call(fan, 'POST', '/api/reports', { targetType: 'user', targetId: gone.user._id, reason: 'spam' });
    await call(friend, 'POST', '/api/reports', { targetType: 'post', targetId: secondPost, reason: 'other' });

    // A moderator's action on its post: the audit log names the account and must keep its entry.
    await ctx.database.db.execute(sql`update users set role = 'moderator' where id = ${friend.user._id}::uuid`);
    await call(friend, 'POST', '/api/moderation/actions', {
      targetType: 'post',
      targetId: secondPost,
      action: 'hide',
      reason: 'A test of the audit log',
    });
    const [audit] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from moderation_actions`,
    );
    auditBefore = audit!.n;

    // The account is busy: rows name it in most tables, and its pictures are on disk.
    expect((await tablesNaming(gone.user._id)).length).toBeGreaterThanOrEqual(12);
    const files = await mediaFiles();
    for (const id of goneMedia) expect(files.some((file) => file.startsWith(id))).toBe(true);
  });

  it('asks for the password: empty is a 400, a wrong one a 401, and nothing changes', async () => {
    const before = await tablesNaming(gone.user._id);
    const empty = await deleteAccount(gone, { password: '' });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty)).toBe(ACCOUNT_DELETION_ERRORS.passwordRequired);
    const wrong = await deleteAccount(gone, { password: 'not my password' });
    expect(wrong.statusCode).toBe(401);
    expect(errorOf(wrong)).toBe(ACCOUNT_DELETION_ERRORS.wrongPassword);
    const missing = await deleteAccount(gone, {});
    expect(missing.statusCode).toBe(400);
    expect(await tablesNaming(gone.user._id)).toEqual(before);
    expect((await call(gone, 'GET', '/api/feed')).statusCode).toBe(200);
  });

  it('deletes everything the account owns, and no row names it afterwards', async () => {
    const foreignKeys = await userForeignKeys();
    expect(foreignKeys.length).toBeGreaterThanOrEqual(15);

    const response = await deleteAccount(gone, { password: gone.password });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { deleted: boolean; heldUntil: string };
    expect(body.deleted).toBe(true);
    const heldDays = (Date.parse(body.heldUntil) - Date.now()) / 86_400_000;
    expect(heldDays).toBeGreaterThan(ACCOUNT_DELETION.heldUsernameDays - 1);
    expect(heldDays).toBeLessThanOrEqual(ACCOUNT_DELETION.heldUsernameDays);

    for (const { table_name, column_name } of foreignKeys) {
      const [row] = await queryRows<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from ${sql.identifier(table_name)}
            where ${sql.identifier(column_name)} = ${gone.user._id}::uuid`,
      );
      expect(row!.n, `${table_name}.${column_name}`).toBe(0);
    }
    expect(await tablesNaming(gone.user._id)).toEqual([]);
    // The audit log keeps what moderators did, as written (its rows take no change).
    const [audit] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from moderation_actions where target_user_id = ${gone.user._id}::uuid`,
    );
    expect(audit!.n).toBe(1);
    const [all] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from moderation_actions`,
    );
    expect(all!.n).toBe(auditBefore);
  });

  it('leaves none of its files in the media folder, and the others’ files in place', async () => {
    const files = await mediaFiles();
    for (const id of goneMedia) expect(files.filter((file) => file.startsWith(id))).toEqual([]);
    const kept = await queryRows<{ original_file: string }>(ctx.database.db, sql`select original_file from media`);
    expect(kept.length).toBeGreaterThan(0);
    for (const { original_file } of kept) expect(files).toContain(original_file);
  });

  it("leaves every counter of others' posts, comments, profiles and tags equal to a recount", async () => {
    expect(await driftedCounters()).toEqual([]);
    const post = (await call(artist, 'GET', `/api/posts/${artistPost}`)).json().post;
    expect(post.likes.likeCount).toBe(0);
    expect(post.commentCount ?? post.comments.length).toBe(2);
    const [artistRow] = await queryRows<{ follower_count: number }>(
      ctx.database.db,
      sql`select follower_count from users where id = ${artist.user._id}::uuid`,
    );
    expect(artistRow!.follower_count).toBe(0);
    const [fanRow] = await queryRows<{ following_count: number; bookmark_count: number }>(
      ctx.database.db,
      sql`select following_count, bookmark_count from users where id = ${fan.user._id}::uuid`,
    );
    expect(fanRow).toEqual({ following_count: 0, bookmark_count: 0 });
  });

  it('answers its tokens with 404', async () => {
    const verify = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { encodedToken: gone.token },
    });
    expect(verify.statusCode).toBe(404);
    const feed = await ctx.app.inject({ method: 'GET', url: '/api/feed', headers: auth(gone) });
    expect(feed.statusCode).toBe(404);
    expect(errorOf(feed)).toBe(ACCOUNT_GONE);
    const again = await deleteAccount(gone, { password: gone.password });
    expect(again.statusCode).toBe(404);
  });

  it('holds its username back from sign-ups, in any letter case, until the hold ends', async () => {
    const name = gone.user.username.toUpperCase();
    const signup = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { fullname: 'New Person', email: 'new@example.com', username: name, password: 'a new long password' },
      });
    const held = await signup();
    expect(held.statusCode).toBe(422);
    expect(errorOf(held)).toBe(ACCOUNT_DELETION_ERRORS.usernameHeld);
    // 30 days later (the hold's end moved to the past, as time would).
    await ctx.database.db.execute(
      sql`update held_usernames set until = now() - interval '1 second' where username = lower(${name})`,
    );
    expect((await signup()).statusCode).toBe(201);
  });
});

describe('wrong passwords when deleting', () => {
  it('count with failed log-ins: past the limit the address must wait (429)', async () => {
    const limited = await createTestApp({ config: { rateLimits: true } });
    try {
      const who = await signUp(limited.app);
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/account/delete',
          headers: auth(who),
          payload: { password: 'a wrong guess' },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1) statuses.push((await attempt()).statusCode);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses[10]).toBe(429);
      // The log-in of the same account from the same address is refused too: one budget of guesses.
      const login = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: who.user.username, password: 'another wrong guess' },
      });
      expect(login.statusCode).toBe(429);
      const [row] = await queryRows<{ n: number }>(
        limited.database.db,
        sql`select count(*)::int as n from users where id = ${who.user._id}::uuid`,
      );
      expect(row!.n).toBe(1);
    } finally {
      await limited.close();
    }
  });
});
