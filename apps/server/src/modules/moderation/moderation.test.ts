import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { MODERATION_MESSAGES, type ModerationTarget } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import {
  createTestApp,
  errorOf,
  eventually,
  openMigratedPglite,
  signUp,
  storedFiles,
  uniqueUsername,
  uploadPicture,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { mkdtemp, rm } from 'node:fs/promises';
import WebSocket from 'ws';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../app.js';
import { runAdminCommand } from './admin-cli.js';
import { grantRole } from './index.js';

let ctx: TestContext;
let admin: SignedUp;
let moderator: SignedUp;
const ADMIN = uniqueUsername('boss');

beforeAll(async () => {
  // ADMIN_USERNAME: the first sign-up with that name is admin.
  ctx = await createTestApp({ config: { adminUsername: ADMIN } });
  admin = await signUp(ctx.app, { username: ADMIN });
  moderator = await signUp(ctx.app);
  const named = await put(admin, `/api/admin/users/${moderator.user.username}/role`, { role: 'moderator' });
  expect(named.statusCode).toBe(200);
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const post = (who: SignedUp | null, url: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url, payload, headers: who ? auth(who) : {} });
const put = (who: SignedUp, url: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url, payload, headers: auth(who) });
const get = (who: SignedUp | null, url: string) =>
  ctx.app.inject({ method: 'GET', url, headers: who ? auth(who) : {} });

async function createPost(who: SignedUp, content = `A work ${Math.random()}`): Promise<string> {
  const response = await post(who, '/api/posts', { content });
  expect(response.statusCode).toBe(201);
  return response.json().post._id as string;
}
async function createComment(who: SignedUp, postId: string): Promise<string> {
  const response = await post(who, `/api/posts/${postId}/comment`, { commentData: { content: 'a comment' } });
  expect(response.statusCode).toBe(201);
  const comments = response.json().post?.comments ?? response.json().comments;
  return (comments as { _id: string; userId: string }[]).find((c) => c.userId === who.user._id)!._id;
}
const report = (who: SignedUp, targetType: string, targetId: string, reason = 'spam', note?: string) =>
  post(who, '/api/reports', { targetType, targetId, reason, ...(note === undefined ? {} : { note }) });
const act = (who: SignedUp, body: Record<string, unknown>) => post(who, '/api/moderation/actions', body);

/** The report-resolved notifications of `who`, with their outcome text. */
async function reportNotices(who: SignedUp) {
  const response = await get(who, '/api/notifications');
  expect(response.statusCode).toBe(200);
  return (response.json().notifications as { kind: string; report?: { outcome: string; text: string } }[]).filter(
    (n) => n.kind === 'report-resolved',
  );
}

/** The messages of an error and its causes (Drizzle wraps the driver's). */
async function failure(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    const messages: string[] = [];
    for (let e = error as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
      messages.push(String(e.message));
    }
    return messages.join(' / ');
  }
  return 'no error';
}

const auditCount = async () =>
  (await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from moderation_actions`))[0]!.n;

describe('roles', () => {
  it('ADMIN_USERNAME makes its first sign-up admin, shown in the own profile; others are users', async () => {
    const me = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { encodedToken: admin.token },
    });
    expect(me.json().user.role).toBe('admin');
    const mod = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { encodedToken: moderator.token },
    });
    expect(mod.json().user.role).toBe('moderator');
    const someone = await signUp(ctx.app);
    expect((someone.user as { role?: string }).role ?? 'user').toBe('user');
  });

  it('ADMIN_USERNAME makes an existing account admin at start; the roles command names anyone', async () => {
    const existing = await signUp(ctx.app);
    // A second server start on the same database, with ADMIN_USERNAME naming the existing account.
    const restarted = await buildApp(
      { ...ctx.config, adminUsername: existing.user.username.toUpperCase() },
      ctx.database,
    );
    await restarted.close();
    const roleOf = async (who: SignedUp) =>
      (await ctx.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { encodedToken: who.token } })).json()
        .user.role;
    expect(await roleOf(existing)).toBe('admin');

    const other = await signUp(ctx.app);
    const granted = await grantRole(ctx.database.db, other.user.username.toUpperCase(), 'moderator');
    expect(granted).toEqual({ username: other.user.username, previous: 'user' });
    expect(await roleOf(other)).toBe('moderator');
    expect(await grantRole(ctx.database.db, 'nobody-here', 'admin')).toBeUndefined();
    await expect(grantRole(ctx.database.db, other.user.username, 'king' as never)).rejects.toThrow(/role must be/);
    await grantRole(ctx.database.db, other.user.username, 'user');
    expect(await roleOf(other)).toBe('user');
  });

  it('npm run admin -- grant works on the database the server uses (DATABASE_URL, or PGlite under DATA_DIR)', async () => {
    const lines: string[] = [];
    const print = (line: string) => lines.push(line);
    expect(await runAdminCommand(['grant', 'someone'], {}, print)).toBe(2);
    expect(lines.pop()).toMatch(/^Usage: npm run admin -- grant <username> <user\|moderator\|admin>/);
    expect(await runAdminCommand(['grant', 'someone', 'king'], {}, print)).toBe(2);

    let env: NodeJS.ProcessEnv;
    let username: string;
    let cleanup = async () => {};
    if (ctx.database.kind === 'postgres') {
      env = { DATABASE_URL: ctx.database.url! };
      username = (await signUp(ctx.app)).user.username;
    } else {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-admin-'));
      cleanup = () => rm(dataDir, { recursive: true, force: true });
      const database = await openMigratedPglite(path.join(dataDir, 'db'));
      username = 'firstone';
      await database.db.execute(
        sql`insert into users (username, first_name, email, password_hash) values (${username}, 'F', 'f@example.com', 'x')`,
      );
      await database.close();
      env = { DATA_DIR: dataDir };
    }
    try {
      expect(await runAdminCommand(['grant', username.toUpperCase(), 'admin'], env, print)).toBe(0);
      expect(lines.pop()).toBe(`${username} is now admin (was user).`);
      expect(await runAdminCommand(['grant', 'nobody-here', 'admin'], env, print)).toBe(1);
      expect(lines.pop()).toMatch(/There is no account "nobody-here"/);
    } finally {
      await cleanup();
    }
  }, 120_000);

  it('a role cannot be given through the profile', async () => {
    const someone = await signUp(ctx.app);
    const edit = await post(someone, '/api/users/edit', { userData: { bio: 'hi', role: 'admin' }, role: 'admin' });
    expect(edit.statusCode).toBeLessThan(500);
    const [row] = await queryRows<{ role: string }>(
      ctx.database.db,
      sql`select role from users where id = ${someone.user._id}::uuid`,
    );
    expect(row!.role).toBe('user');
    expect((await get(someone, '/api/moderation/reports')).statusCode).toBe(403);
  });

  it('only admins change roles; not their own, never an admin', async () => {
    const someone = await signUp(ctx.app);
    const byModerator = await put(moderator, `/api/admin/users/${someone.user.username}/role`, { role: 'moderator' });
    expect(byModerator.statusCode).toBe(403);
    expect(errorOf(byModerator)).toBe(MODERATION_MESSAGES.adminsOnly);
    const own = await put(admin, `/api/admin/users/${admin.user.username}/role`, { role: 'user' });
    expect(own.statusCode).toBe(400);
    expect(errorOf(own)).toBe(MODERATION_MESSAGES.ownRole);
    const other = await signUp(ctx.app);
    await grantRole(ctx.database.db, other.user.username, 'admin');
    const demote = await put(admin, `/api/admin/users/${other.user.username}/role`, { role: 'user' });
    expect(demote.statusCode).toBe(400);
    expect((await put(admin, '/api/admin/users/no-such-person/role', { role: 'user' })).statusCode).toBe(404);
    expect((await put(admin, `/api/admin/users/${someone.user.username}/role`, { role: 'admin' })).statusCode).toBe(
      400,
    );
  });
});

describe('reports', () => {
  it('thanks the reporter, and refuses a second open report with 409', async () => {
    const [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(artist);
    const first = await report(reader, 'post', postId, 'stolen-art', 'This is my drawing.');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      report: {
        targetType: 'post',
        targetId: postId,
        reason: 'stolen-art',
        note: 'This is my drawing.',
        status: 'open',
      },
      message: MODERATION_MESSAGES.reportThanks,
    });
    const again = await report(reader, 'post', postId, 'spam');
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toBe(MODERATION_MESSAGES.alreadyReported);
    // A person by username, a comment by id.
    const user = await report(reader, 'user', artist.user.username.toUpperCase(), 'harassment');
    expect(user.statusCode).toBe(201);
    expect(user.json().report.targetId).toBe(artist.user.username);
    const commentId = await createComment(artist, postId);
    expect((await report(reader, 'comment', commentId, 'hate')).statusCode).toBe(201);
  });

  it('refuses missing, invisible and own targets, bad reasons and anonymous reporters', async () => {
    const [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(artist);
    for (const [type, id] of [
      ['post', '00000000-0000-4000-8000-000000000000'],
      ['post', 'not-an-id'],
      ['comment', '00000000-0000-4000-8000-000000000000'],
      ['user', 'no-such-person'],
    ] as const) {
      const missing = await report(reader, type, id);
      expect(missing.statusCode, `${type} ${id}`).toBe(404);
      expect(errorOf(missing)).toBe(MODERATION_MESSAGES.reportTargetNotFound(type));
    }
    const own = await report(artist, 'post', postId);
    expect(own.statusCode).toBe(400);
    expect(errorOf(own)).toBe(MODERATION_MESSAGES.reportYourself);
    expect((await report(artist, 'user', artist.user.username)).statusCode).toBe(400);
    expect((await report(reader, 'post', postId, 'boring')).statusCode).toBe(400);
    expect((await report(reader, 'post', postId, 'spam', 'x'.repeat(1001))).statusCode).toBe(400);
    expect(
      (await post(null, '/api/reports', { targetType: 'post', targetId: postId, reason: 'spam' })).statusCode,
    ).toBe(401);
    // A post hidden by a moderator is invisible to others: it cannot be reported (404, as if none).
    expect(
      (await act(moderator, { targetType: 'post', targetId: postId, action: 'hide', reason: 'r' })).statusCode,
    ).toBe(200);
    expect((await report(reader, 'post', postId)).statusCode).toBe(404);
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from reports where reporter_id = ${reader.user._id}::uuid`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });
});

describe('reports after a block (issue 38, item 14)', () => {
  it("someone who blocked a person can still report that person's post and comment; the one they blocked cannot report theirs", async () => {
    const [harasser, harassed] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(harasser);
    const commentId = await createComment(harasser, postId);
    const victimsPost = await createPost(harassed);
    expect((await post(harassed, `/api/users/${harasser.user.username}/block`, {})).statusCode).toBe(200);

    const onPost = await report(harassed, 'post', postId, 'harassment');
    expect(onPost.statusCode, onPost.body).toBe(201);
    expect(onPost.json().message).toBe(MODERATION_MESSAGES.reportThanks);
    expect((await report(harassed, 'comment', commentId, 'harassment')).statusCode).toBe(201);
    // The post stays out of their sight all the same.
    expect((await get(harassed, `/api/posts/${postId}`)).statusCode).toBe(404);
    // The blocked person sees nothing of the other's, and reports nothing of it.
    const back = await report(harasser, 'post', victimsPost, 'spam');
    expect(back.statusCode).toBe(404);
    expect(errorOf(back)).toBe(MODERATION_MESSAGES.reportTargetNotFound('post'));

    const rows = await queryRows<{ target_type: string; target_id: string }>(
      ctx.database.db,
      sql`select target_type, target_id::text from reports where reporter_id = ${harassed.user._id}::uuid order by target_type`,
    );
    expect(rows).toEqual([
      { target_type: 'comment', target_id: commentId },
      { target_type: 'post', target_id: postId },
    ]);
  });
});

describe('the moderation queue', () => {
  it('groups open reports by target, oldest first, with the content, its author and history; keyset paged', async () => {
    const artist = await signUp(ctx.app);
    const reporters = [await signUp(ctx.app), await signUp(ctx.app)];
    const first = await createPost(artist, 'first reported work');
    const second = await createPost(artist, 'second reported work');
    for (const who of reporters) expect((await report(who, 'post', first, 'spam', 'note')).statusCode).toBe(201);
    expect((await report(reporters[0]!, 'post', second, 'hate')).statusCode).toBe(201);

    const targets: { targetId: string; reportCount: number }[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(moderator, `/api/moderation/reports${cursor ? `?cursor=${cursor}` : ''}`);
      expect(page.statusCode).toBe(200);
      targets.push(...page.json().targets);
      cursor = page.json().nextCursor;
    } while (cursor);
    const ids = targets.map((t) => t.targetId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    const entry = targets.find((t) => t.targetId === first) as unknown as ModerationTarget;
    expect(entry).toMatchObject({
      targetType: 'post',
      reportCount: 2,
      content: { text: 'first reported work', postId: first, moderation: null },
      author: { username: artist.user.username, role: 'user', postCount: 2, accountAgeDays: 0, suspendedUntil: null },
    });
    expect(entry.reports.map((r: { reporter: { _id: string } | null }) => r.reporter?._id)).toEqual(
      reporters.map((r) => r.user._id),
    );
    expect((await get(reporters[0]!, '/api/moderation/reports')).statusCode).toBe(403);
    expect((await get(null, '/api/moderation/reports')).statusCode).toBe(401);
  });

  it("shows a reported work's process pictures in the artist's order, apart from its pictures (issue 41)", async () => {
    const artist = await signUp(ctx.app);
    const reporter = await signUp(ctx.app);
    const small = { width: 320, height: 240 };
    const final = await uploadPicture(ctx.app, artist, 'final', small);
    const sketch = await uploadPicture(ctx.app, artist, 'sketch', small);
    const lines = await uploadPicture(ctx.app, artist, 'lines', small);
    const made = await post(artist, '/api/posts', {
      content: 'A work with its process',
      mediaIds: [final._id],
      processMediaIds: [lines._id, sketch._id],
    });
    expect(made.statusCode, made.body).toBe(201);
    const work = made.json().post as { _id: string; process: { url: string }[] };
    expect((await report(reporter, 'post', work._id, 'stolen-art')).statusCode).toBe(201);

    let target: ModerationTarget | undefined;
    let cursor: string | null = null;
    do {
      const page = await get(moderator, `/api/moderation/reports${cursor ? `?cursor=${cursor}` : ''}`);
      target ??= (page.json().targets as ModerationTarget[]).find((t) => t.targetId === work._id);
      cursor = page.json().nextCursor;
    } while (cursor && !target);
    expect(target?.content?.pictures).toHaveLength(1);
    const shown = target!.content!.processPictures;
    expect(shown).toHaveLength(2);
    // Each a URL of that process picture's own files (its id names them), in the artist's order.
    const fileOf = async (id: string) =>
      (
        await queryRows<{ variants: { file: string }[] }>(
          ctx.database.db,
          sql`select variants from media where id = ${id}::uuid`,
        )
      )[0]!.variants.map((variant) => variant.file);
    expect((await fileOf(lines._id)).some((file) => shown[0]!.endsWith(file))).toBe(true);
    expect((await fileOf(sketch._id)).some((file) => shown[1]!.endsWith(file))).toBe(true);
    // Every picture URL answers (the moderator sees them as the post page shows them).
    for (const url of shown) expect((await get(null, url)).statusCode).toBe(200);
  });
});

describe('moderation actions', () => {
  it('dismiss resolves the reports and changes nothing; the reporter is told', async () => {
    const [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(artist);
    await report(reader, 'post', postId);
    const before = await auditCount();
    const answer = await act(moderator, { targetType: 'post', targetId: postId, action: 'dismiss', reason: 'Fine.' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      resolvedReports: 1,
      entry: { action: 'dismiss', actor: { username: moderator.user.username }, reason: 'Fine.', until: null },
    });
    expect(await auditCount()).toBe(before + 1);
    expect((await get(null, `/api/posts/${postId}`)).statusCode).toBe(200);
    const notices = await reportNotices(reader);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.report).toMatchObject({ outcome: 'dismiss', text: MODERATION_MESSAGES.outcome.dismiss });
    // The report is resolved: the reporter may report it again.
    expect((await report(reader, 'post', postId)).statusCode).toBe(201);
  });

  it('hide: the author sees it hidden and why, nobody else sees it anywhere', async () => {
    const [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(artist, 'hidden soon #moderationtag');
    await report(reader, 'post', postId, 'hate');
    // Cached first, so the action must drop the cached post.
    expect((await get(reader, `/api/posts/${postId}`)).statusCode).toBe(200);
    const answer = await act(moderator, {
      targetType: 'post',
      targetId: postId,
      action: 'hide',
      reason: 'Slur in text',
    });
    expect(answer.statusCode).toBe(200);

    const own = await get(artist, `/api/posts/${postId}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().post.moderation).toEqual({ state: 'hidden', reason: 'Slur in text' });
    for (const who of [reader, null]) {
      expect((await get(who, `/api/posts/${postId}`)).statusCode).toBe(404);
      expect((await get(who, `/api/comments/${postId}`)).statusCode).toBe(404);
      const lists = [`/api/posts/user/${artist.user.username}`, '/api/posts?limit=50', '/api/tags/moderationtag/posts'];
      for (const url of lists) {
        const ids = ((await get(who, url)).json().posts as { _id: string }[]).map((p) => p._id);
        expect(ids, url).not.toContain(postId);
      }
    }
    // Nobody may like, save or comment on what they cannot see.
    expect((await post(reader, `/api/posts/like/${postId}`, {})).statusCode).toBe(404);
    expect((await post(reader, `/api/users/bookmark/${postId}`, {})).statusCode).toBe(404);
    expect((await post(reader, `/api/posts/${postId}/comment`, { commentData: { content: 'hi' } })).statusCode).toBe(
      404,
    );
    const [counts] = await queryRows<{ like_count: number; comment_count: number }>(
      ctx.database.db,
      sql`select like_count, comment_count from posts where id = ${postId}::uuid`,
    );
    expect(counts).toEqual({ like_count: 0, comment_count: 0 });
    const others = await get(reader, `/api/posts/${await createPost(artist)}`);
    expect(others.json().post.moderation).toBeNull();
    expect((await reportNotices(reader))[0]!.report).toMatchObject({ outcome: 'hide' });
  });

  it('remove: gone for everyone, the author too, but kept in the database', async () => {
    const [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(artist);
    await report(reader, 'post', postId);
    expect(
      (await act(moderator, { targetType: 'post', targetId: postId, action: 'remove', reason: 'Spam' })).statusCode,
    ).toBe(200);
    for (const who of [artist, reader, null]) expect((await get(who, `/api/posts/${postId}`)).statusCode).toBe(404);
    const [row] = await queryRows<{ moderation_state: string }>(
      ctx.database.db,
      sql`select moderation_state from posts where id = ${postId}::uuid`,
    );
    expect(row!.moderation_state).toBe('removed');
    expect((await reportNotices(reader))[0]!.report).toMatchObject({ outcome: 'remove' });
  });

  it("a hidden or removed work leaves its tags' counts, which then match the tag page's grid", async () => {
    const artist = await signUp(ctx.app);
    const tag = `moderated${Math.random().toString(36).slice(2, 10)}`;
    const [kept, hidden, removed] = [
      await createPost(artist, `kept #${tag}`),
      await createPost(artist, `hidden #${tag}`),
      await createPost(artist, `removed #${tag} #${tag}x`),
    ];
    const countOf = async (name: string) => (await get(null, `/api/tags/${name}`)).json().postCount as number;
    expect(await countOf(tag)).toBe(3);
    expect(
      (await act(moderator, { targetType: 'post', targetId: hidden, action: 'hide', reason: 'r' })).statusCode,
    ).toBe(200);
    expect(await countOf(tag)).toBe(2);
    expect(
      (await act(moderator, { targetType: 'post', targetId: removed, action: 'remove', reason: 'r' })).statusCode,
    ).toBe(200);
    expect([await countOf(tag), await countOf(`${tag}x`)]).toEqual([1, 0]);
    const grid = await get(null, `/api/tags/${tag}/posts`);
    expect(grid.json().posts.map((work: { _id: string }) => work._id)).toEqual([kept]);
    // Editing or deleting a hidden work does not count it twice, or below zero.
    await ctx.app.inject({
      method: 'DELETE',
      url: `/api/posts/${hidden}`,
      headers: auth(artist),
    });
    expect(await countOf(tag)).toBe(1);
  });

  it('hides and removes comments', async () => {
    const [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(artist);
    const commentId = await createComment(reader, postId);
    await report(artist, 'comment', commentId, 'harassment');
    expect((await get(artist, `/api/posts/${postId}`)).json().post.comments).toHaveLength(1);
    expect(
      (await act(moderator, { targetType: 'comment', targetId: commentId, action: 'hide', reason: 'Rude' })).statusCode,
    ).toBe(200);
    expect((await get(artist, `/api/posts/${postId}`)).json().post.comments).toHaveLength(0);
    const ids = (who: SignedUp) =>
      get(who, `/api/comments/${postId}`).then((r) => (r.json().comments as { _id: string }[]).map((c) => c._id));
    expect(await ids(artist)).toEqual([]);
    expect(await ids(reader)).toEqual([commentId]);
    expect(
      (await act(moderator, { targetType: 'comment', targetId: commentId, action: 'remove', reason: 'Rude' }))
        .statusCode,
    ).toBe(200);
    expect(await ids(reader)).toEqual([]);
  });

  it("a hidden or removed comment leaves its post's comment count once, and its deletion does not count again", async () => {
    const [artist, rude, ruder, kind] = [
      await signUp(ctx.app),
      await signUp(ctx.app),
      await signUp(ctx.app),
      await signUp(ctx.app),
    ];
    const postId = await createPost(artist);
    const [hidden, removed, kept] = [
      await createComment(rude, postId),
      await createComment(ruder, postId),
      await createComment(kind, postId),
    ];
    const count = async () => (await get(artist, `/api/posts/${postId}`)).json().post.commentCount as number;
    expect(await count()).toBe(3);
    for (const [commentId, action] of [
      [hidden, 'hide'],
      [removed, 'remove'],
      [hidden, 'remove'],
    ] as const) {
      await report(artist, 'comment', commentId, 'harassment');
      expect(
        (await act(moderator, { targetType: 'comment', targetId: commentId, action, reason: 'Rude' })).statusCode,
      ).toBe(200);
    }
    // Hidden, then removed: one comment, counted out once.
    expect(await count()).toBe(1);
    const remove = (who: SignedUp, commentId: string) => post(who, `/api/comments/delete/${postId}/${commentId}`, {});
    expect((await remove(ruder, removed)).statusCode).toBe(201);
    expect((await remove(kind, kept)).statusCode).toBe(201);
    expect(await count()).toBe(0);
    const [row] = await queryRows<{ comment_count: number }>(
      ctx.database.db,
      sql`select comment_count from posts where id = ${postId}::uuid`,
    );
    expect(row).toEqual({ comment_count: 0 });
  });

  it('mark-sensitive sets the content warning "sensitive" when there is none', async () => {
    const [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(artist);
    await report(reader, 'post', postId, 'other', 'gore');
    expect((await get(reader, `/api/posts/${postId}`)).statusCode).toBe(200);
    const answer = await act(moderator, {
      targetType: 'post',
      targetId: postId,
      action: 'mark-sensitive',
      reason: 'Graphic',
    });
    expect(answer.statusCode).toBe(200);
    const [row] = await queryRows<{ content_warning: string | null }>(
      ctx.database.db,
      sql`select content_warning from posts where id = ${postId}::uuid`,
    );
    expect(row!.content_warning).toBe('sensitive');
    const shown = (await get(reader, `/api/posts/${postId}`)).json().post;
    if ('contentWarning' in shown) expect(shown.contentWarning).toBe('sensitive');
    expect((await reportNotices(reader))[0]!.report).toMatchObject({ outcome: 'mark-sensitive' });
  });

  it('refuses what does not apply, a bad until, missing targets and non-moderators', async () => {
    const [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(artist);
    const cases: [Record<string, unknown>, number][] = [
      [{ targetType: 'user', targetId: artist.user.username, action: 'hide', reason: 'r' }, 400],
      [{ targetType: 'post', targetId: postId, action: 'hide', reason: 'r', until: '2999-01-01T00:00:00Z' }, 400],
      [
        {
          targetType: 'user',
          targetId: artist.user.username,
          action: 'suspend',
          reason: 'r',
          until: '2001-01-01T00:00:00Z',
        },
        400,
      ],
      [{ targetType: 'user', targetId: artist.user.username, action: 'suspend', reason: 'r', until: 'tomorrow' }, 400],
      [{ targetType: 'post', targetId: postId, action: 'hide', reason: '' }, 400],
      [{ targetType: 'post', targetId: postId, action: 'ban', reason: 'r' }, 400],
      [{ targetType: 'user', targetId: admin.user.username, action: 'suspend', reason: 'r' }, 400],
      [{ targetType: 'post', targetId: '00000000-0000-4000-8000-000000000000', action: 'hide', reason: 'r' }, 404],
    ];
    const before = await auditCount();
    for (const [body, status] of cases) {
      expect((await act(moderator, body)).statusCode, JSON.stringify(body)).toBe(status);
    }
    const refused = await act(reader, { targetType: 'post', targetId: postId, action: 'remove', reason: 'r' });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toBe(MODERATION_MESSAGES.moderatorsOnly);
    expect(await auditCount()).toBe(before);
    expect((await get(reader, `/api/posts/${postId}`)).statusCode).toBe(200);
  });
});

describe('notifications of what moderation took away (issue 38, item 7)', () => {
  it('keep the notification but quote neither a removed post, a hidden comment, nor a suspended author', async () => {
    const [writer, mentioned, troll] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    const removedPost = await createPost(writer, `A secret for @${mentioned.user.username}`);
    const keptPost = await createPost(writer, `Hello @${mentioned.user.username}`);
    const trollPost = await createPost(troll, `Look here @${mentioned.user.username}`);
    const commented = await post(troll, `/api/posts/${keptPost}/comment`, {
      commentData: { content: `Rude words for @${mentioned.user.username}` },
    });
    expect(commented.statusCode).toBe(201);
    const quoted = async () => {
      const response = await get(mentioned, '/api/notifications');
      expect(response.statusCode).toBe(200);
      return (
        response.json().notifications as {
          post: { _id: string; content: string } | null;
          comment: { content: string } | null;
        }[]
      ).map((n) => [n.post?._id, n.post?.content ?? null, n.comment?.content ?? null]);
    };
    expect(await quoted()).toEqual(
      expect.arrayContaining([
        [removedPost, `A secret for @${mentioned.user.username}`, null],
        [keptPost, `Hello @${mentioned.user.username}`, `Rude words for @${mentioned.user.username}`],
        [trollPost, `Look here @${mentioned.user.username}`, null],
      ]),
    );

    const commentId = (await get(mentioned, `/api/posts/${keptPost}`))
      .json()
      .post.comments.find((c: { userId: string }) => c.userId === troll.user._id)._id as string;
    for (const body of [
      { targetType: 'post', targetId: removedPost, action: 'remove', reason: 'Leaks' },
      { targetType: 'comment', targetId: commentId, action: 'hide', reason: 'Rude' },
    ]) {
      expect((await act(moderator, body)).statusCode).toBe(200);
    }
    const afterActions = await quoted();
    expect(afterActions).toContainEqual([removedPost, '', null]);
    expect(afterActions).toContainEqual([keptPost, `Hello @${mentioned.user.username}`, '']);
    expect(afterActions).toContainEqual([trollPost, `Look here @${mentioned.user.username}`, null]);

    expect(
      (await act(moderator, { targetType: 'user', targetId: troll.user.username, action: 'suspend', reason: 'Spam' }))
        .statusCode,
    ).toBe(200);
    expect(await quoted()).toContainEqual([trollPost, '', null]);
  });
});

describe("a removed post's picture files (issue 38, item 6)", () => {
  it("answer 404 with no-store at once on every process, are logged for a CDN purge, and come back when the post is its author's again", async () => {
    const artist = await signUp(ctx.app);
    const picture = (await uploadPicture(ctx.app, artist, 'A study')) as Awaited<ReturnType<typeof uploadPicture>> & {
      originalUrl: string;
    };
    const created = await post(artist, '/api/posts', { content: 'A study in orange', mediaIds: [picture._id] });
    expect(created.statusCode).toBe(201);
    const postId = created.json().post._id as string;
    // Every file the storage holds of the picture: the JPEG and AVIF variants and the original.
    const urls = (await storedFiles(ctx))
      .filter((name) => name.startsWith(`${picture._id}-`))
      .map((name) => `/media/${name}`);
    expect(urls).toContain(picture.originalUrl);
    expect(urls.some((url) => url.endsWith('.avif'))).toBe(true);
    expect(urls.filter((url) => url.endsWith('.jpg')).length).toBeGreaterThan(1);

    // A second server process on the same database, with its own memory of the files it served.
    const other = await buildApp(ctx.config, ctx.database);
    await other.ready();
    try {
      const answers = async (app: typeof other, status: number) => {
        for (const url of [...urls, `${picture.originalUrl}?download`]) {
          const response = await app.inject({ method: 'GET', url });
          const expected = url.endsWith('?download') && status === 200 ? 403 : status;
          expect(response.statusCode, url).toBe(expected);
          if (status === 200 && expected === 200) {
            expect(response.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
          }
          if (status === 404) {
            expect(response.headers['cache-control'], url).toBe('no-store');
            expect(response.json(), url).toEqual({ errors: ['No such media file.'] });
          }
        }
      };
      // Served (and so remembered) by both processes while the post is live.
      await answers(ctx.app, 200);
      await answers(other, 200);

      const info = vi.spyOn(ctx.app.log, 'info');
      const removed = await act(moderator, {
        targetType: 'post',
        targetId: postId,
        action: 'remove',
        reason: 'Stolen',
      });
      expect(removed.statusCode).toBe(200);
      // At once in the process that removed it; the other learns it from the post's event.
      await answers(ctx.app, 404);
      await eventually(() => answers(other, 404), 5_000);
      // One log line names every URL to purge from a CDN in front of /media.
      const logged = info.mock.calls.find(([details]) => (details as { postId?: string }).postId === postId);
      info.mockRestore();
      expect(logged, 'the purge list is logged').toBeDefined();
      expect([...(logged![0] as { urls: string[] }).urls].sort()).toEqual(urls);
      // The files are kept: a moderator may give the work back to its author (hide), and its export has them.
      expect((await storedFiles(ctx)).filter((name) => name.startsWith(`${picture._id}-`))).toHaveLength(urls.length);

      const hidden = await act(moderator, {
        targetType: 'post',
        targetId: postId,
        action: 'hide',
        reason: 'Credit it',
      });
      expect(hidden.statusCode).toBe(200);
      await answers(ctx.app, 200);
      await eventually(() => answers(other, 200), 5_000);
    } finally {
      await other.close();
    }
  });
});

describe('suspension', () => {
  it('takes the account out of the lists of who liked a post and voted on a comment, cached or not (issue 38, item 8)', async () => {
    const [troll, artist, fan] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(artist);
    const commentId = await createComment(fan, postId);
    for (const who of [troll, fan]) {
      expect((await post(who, `/api/posts/like/${postId}`, {})).statusCode).toBeLessThan(300);
      expect((await post(who, `/api/comments/upvote/${postId}/${commentId}`, {})).statusCode).toBeLessThan(300);
    }
    const names = async (viewer: SignedUp | null) => {
      const read = (await get(viewer, `/api/posts/${postId}`)).json().post;
      const comment = read.comments.find((c: { _id: string }) => c._id === commentId);
      return {
        likedBy: (read.likes.likedBy as { username: string }[]).map((u) => u.username).sort(),
        upvotedBy: (comment.votes.upvotedBy as { username: string }[]).map((u) => u.username).sort(),
        likeCount: read.likes.likeCount as number,
      };
    };
    // Read once, so the post is cached with the troll in its lists.
    expect((await names(null)).likedBy).toContain(troll.user.username);
    expect((await names(artist)).upvotedBy).toContain(troll.user.username);

    const answer = await act(moderator, {
      targetType: 'user',
      targetId: troll.user.username,
      action: 'suspend',
      reason: 'Spam',
    });
    expect(answer.statusCode).toBe(200);
    // The cached post is dropped when the suspension's event arrives (at once in one process).
    for (const viewer of [null, artist, fan]) {
      await eventually(async () => {
        const seen = await names(viewer);
        expect(seen.likedBy).toEqual([fan.user.username]);
        expect(seen.upvotedBy).toEqual([fan.user.username]);
        // The counts are left as they were.
        expect(seen.likeCount).toBe(2);
      }, 5_000);
    }
  });

  it('ends the tokens at once, refuses sign-in, hides the content, and tells the reporter', async () => {
    const [troll, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const postId = await createPost(troll, 'troll post');
    const onReaders = await createPost(reader);
    await createComment(troll, onReaders);
    await report(reader, 'user', troll.user.username, 'harassment');
    // Remembered as an active account, and its post cached.
    expect((await get(troll, '/api/feed')).statusCode).toBe(200);
    expect((await get(reader, `/api/posts/${onReaders}`)).json().post.comments).toHaveLength(1);

    const answer = await act(moderator, {
      targetType: 'user',
      targetId: troll.user.username,
      action: 'suspend',
      reason: 'Harassment',
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ resolvedReports: 1, entry: { action: 'suspend', until: null } });

    // The very next request with the old token.
    const next = await get(troll, '/api/feed');
    expect(next.statusCode).toBe(403);
    expect(errorOf(next)).toBe(MODERATION_MESSAGES.suspended);
    expect((await post(troll, '/api/posts', { content: 'still here' })).statusCode).toBe(403);
    // On the routes anyone may read, the token reads as signed out: its own works are not shown to it.
    const ownWorks = await get(troll, `/api/posts/user/${troll.user.username}`);
    expect(ownWorks.statusCode).toBe(200);
    expect(ownWorks.json().posts).toEqual([]);
    expect((await get(troll, `/api/posts/${postId}`)).statusCode).toBe(404);
    const verify = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { encodedToken: troll.token },
    });
    expect(verify.statusCode).toBe(403);
    const login = await post(null, '/api/auth/login', { username: troll.user.username, password: troll.password });
    expect(login.statusCode).toBe(403);
    expect(errorOf(login)).toBe(MODERATION_MESSAGES.suspended);
    // A wrong password is still only a wrong password.
    expect((await post(null, '/api/auth/login', { username: troll.user.username, password: 'wrong' })).statusCode).toBe(
      401,
    );

    expect((await get(reader, `/api/posts/${postId}`)).statusCode).toBe(404);
    expect((await get(null, `/api/posts/user/${troll.user.username}`)).json().posts).toEqual([]);
    const comments = await get(reader, `/api/comments/${onReaders}`);
    expect(comments.json().comments).toEqual([]);
    // The cached post drops the comment when the event arrives (at once in one process).
    let shown = 1;
    for (let i = 0; i < 40 && shown > 0; i++) {
      shown = (await get(reader, `/api/posts/${onReaders}`)).json().post.comments.length;
      if (shown > 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(shown).toBe(0);
    expect((await reportNotices(reader))[0]!.report).toMatchObject({ outcome: 'suspend' });
  });

  it("closes the account's open live sockets", async () => {
    const troll = await signUp(ctx.app);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as { port: number };
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/live`);
    await new Promise((resolve) => socket.once('open', resolve));
    const ready = new Promise((resolve) =>
      socket.on('message', (data) => JSON.parse(String(data)).type === 'ready' && resolve(true)),
    );
    socket.send(JSON.stringify({ type: 'hello', token: troll.token }));
    await ready;
    const closed = new Promise<[number, string]>((resolve) =>
      socket.once('close', (code, reason) => resolve([code, String(reason)])),
    );
    const answer = await act(moderator, {
      targetType: 'user',
      targetId: troll.user.username,
      action: 'suspend',
      reason: 'r',
    });
    expect(answer.statusCode).toBe(200);
    expect(await closed).toEqual([4001, MODERATION_MESSAGES.suspended]);
  });

  it('for a time ends on its own', async () => {
    const brief = await signUp(ctx.app);
    const postId = await createPost(brief);
    const until = new Date(Date.now() + 60_000).toISOString();
    const answer = await act(moderator, {
      targetType: 'post',
      targetId: postId,
      action: 'suspend',
      reason: 'Cool off',
      until,
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().entry.targetUserId).toBe(brief.user._id);
    const refused = await get(brief, '/api/feed');
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatch(/^This account is suspended until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.$/);
    const login = await post(null, '/api/auth/login', { username: brief.user.username, password: brief.password });
    expect(errorOf(login)).toMatch(/^This account is suspended until /);
    // Time passes (the end moved into the past, as the clock would).
    await ctx.database.db.execute(
      sql`update users set suspended_until = now() - interval '1 second' where id = ${brief.user._id}::uuid`,
    );
    expect((await get(brief, '/api/feed')).statusCode).toBe(200);
    expect(
      (await post(null, '/api/auth/login', { username: brief.user.username, password: brief.password })).statusCode,
    ).toBe(200);
    expect((await get(null, `/api/posts/${postId}`)).statusCode).toBe(200);
  });
});

describe('the audit log', () => {
  it('is for admins, newest first, paged, and cannot be changed even through SQL', async () => {
    expect((await get(moderator, '/api/moderation/audit')).statusCode).toBe(403);
    const page = await get(admin, '/api/moderation/audit?limit=3');
    expect(page.statusCode).toBe(200);
    const { entries, nextCursor } = page.json();
    expect(entries).toHaveLength(3);
    expect(nextCursor).toEqual(expect.any(String));
    const times = entries.map((e: { createdAt: string }) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const more = await get(admin, `/api/moderation/audit?limit=3&cursor=${nextCursor}`);
    expect(more.json().entries[0]._id).not.toBe(entries[2]._id);
    expect(
      entries.some((e: { action: string }) =>
        ['role', 'suspend', 'remove', 'hide', 'dismiss', 'mark-sensitive'].includes(e.action),
      ),
    ).toBe(true);

    const count = await auditCount();
    expect(await failure(ctx.database.db.execute(sql`update moderation_actions set reason = 'rewritten'`))).toMatch(
      /append-only audit log: UPDATE/,
    );
    expect(await failure(ctx.database.db.execute(sql`delete from moderation_actions`))).toMatch(/append-only.*DELETE/);
    expect(await failure(ctx.database.db.execute(sql`truncate moderation_actions`))).toMatch(/append-only.*TRUNCATE/);
    expect(await auditCount()).toBe(count);
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from moderation_actions where reason = 'rewritten'`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });
});
