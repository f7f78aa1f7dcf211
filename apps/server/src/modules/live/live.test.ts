import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { users } from '../../db/schema.js';
import { LIVE, LIVE_CLOSE, type LiveServerFrame } from '@share-arts/contract';
import { createTestApp, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
let base: string;
// A heartbeat of a second: PGlite runs in the tests' own thread, and under load one of its calls can hold
// the event loop past a shorter beat, so a socket that had its pong queued was ended (code 1006).
const TIMINGS = { helloTimeoutMs: 400, heartbeatMs: 1000, countsBatchMs: 10 };

beforeAll(async () => {
  ctx = await createTestApp({ config: { live: TIMINGS } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address() as { port: number };
  base = `ws://127.0.0.1:${address.port}/api/live`;
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}`, prefer: 'return=minimal' });

/** A WebSocket client that keeps every frame and closing code, with waits for what a test expects. */
class Client {
  readonly frames: LiveServerFrame[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];
  readonly socket: WebSocket;

  constructor(url = base, options: WebSocket.ClientOptions = {}) {
    this.socket = new WebSocket(url, options);
    this.socket.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as LiveServerFrame);
      this.wake();
    });
    this.socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.wake();
    });
    this.socket.on('error', () => {});
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  async open() {
    if (this.socket.readyState === WebSocket.OPEN) return this;
    await new Promise((resolve, reject) => {
      this.socket.once('open', resolve);
      this.socket.once('error', reject);
    });
    return this;
  }

  send(frame: unknown) {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Waits until `test` holds (checked after every frame and on close), failing after `ms`. */
  async until<T>(test: () => T | undefined | null | false, what: string, ms = 5000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = test();
      if (value) return value;
      if (Date.now() > deadline) {
        throw new Error(
          `timed out waiting for ${what}; frames: ${JSON.stringify(this.frames)}; closed: ${JSON.stringify(this.closed)}`,
        );
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  frame<K extends LiveServerFrame['type']>(
    type: K,
    where: (frame: Extract<LiveServerFrame, { type: K }>) => boolean = () => true,
  ) {
    return this.until(
      () => this.frames.find((f): f is Extract<LiveServerFrame, { type: K }> => f.type === type && where(f as never)),
      `a ${type} frame`,
    );
  }

  closing() {
    return this.until(() => this.closed, 'the socket to close');
  }

  close() {
    this.socket.close();
  }
}

async function connect(who: SignedUp, extra: Record<string, unknown> = {}, url = base) {
  const client = await new Client(url).open();
  client.send({ type: 'hello', token: who.token, ...extra });
  await client.frame('ready');
  return client;
}

async function createPost(app: TestContext['app'], who: SignedUp, content = 'Ink study') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content },
    headers: auth(who),
  });
  expect(response.statusCode).toBe(201);
  return response.json().post._id as string;
}

const like = (who: SignedUp, postId: string, kind: 'like' | 'dislike' = 'like') =>
  ctx.app.inject({ method: 'POST', url: `/api/posts/${kind}/${postId}`, headers: auth(who) });

describe('the live stream', () => {
  it('answers a plain GET with 426 and a message', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/live' });
    expect(response.statusCode).toBe(426);
    expect(response.json()).toEqual({ errors: ['Open /api/live as a WebSocket (an Upgrade: websocket request).'] });
  });

  it('refuses a bad token, a missing hello and a frame that is not JSON, each with a reason', async () => {
    const bad = await new Client().open();
    bad.send({ type: 'hello', token: 'not-a-token' });
    expect(await bad.closing()).toEqual({ code: LIVE_CLOSE.unauthorised, reason: expect.stringContaining('token') });
    expect(bad.frames).toEqual([{ type: 'error', message: expect.any(String) }]);

    const silent = await new Client().open();
    expect((await silent.closing()).code).toBe(LIVE_CLOSE.helloTimeout);

    const garbage = await new Client().open();
    garbage.send('{nope');
    expect((await garbage.closing()).code).toBe(LIVE_CLOSE.badFrame);

    const first = await new Client().open();
    first.send({ type: 'watch', posts: [] });
    expect((await first.closing()).code).toBe(LIVE_CLOSE.unauthorised);
  });

  it('signs in only with a valid token of an existing account (every kind of bad token closes with 4001)', async () => {
    const who = await signUp(ctx.app);
    const gone = await signUp(ctx.app);
    await ctx.database.db.delete(users).where(eq(users.id, gone.user._id));
    const [header, payload, signature] = who.token.split('.') as [string, string, string];
    const json = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const sign = (key: string, exp: number) =>
      new SignJWT({ username: who.user.username, sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(who.user._id)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(key));
    const now = Math.floor(Date.now() / 1000);
    const bad = {
      garbage: 'not.a.token',
      algNone: `${json({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      wrongSecret: await sign('another-secret-that-is-long-enough-0123456789abcdef', now + 3600),
      tampered: `${header}.${json({ ...claims, sub: gone.user._id })}.${signature}`,
      expired: await sign(ctx.config.jwtSecret, now - 60),
      deleted: gone.token,
    };
    for (const [kind, token] of Object.entries(bad)) {
      const client = await new Client().open();
      client.send({ type: 'hello', token });
      const closed = await client.closing();
      expect(closed.code, kind).toBe(LIVE_CLOSE.unauthorised);
      expect(
        client.frames.some((f) => f.type === 'ready'),
        kind,
      ).toBe(false);
    }
    (await connect(who)).close();
  });

  it('tells the author of a post about a like and a comment as they happen, and never about their own', async () => {
    const author = await signUp(ctx.app);
    const fan = await signUp(ctx.app, { fullname: 'Theo Ng' });
    const postId = await createPost(ctx.app, author);
    const client = await connect(author, { posts: [postId] });
    expect(client.frames[0]).toEqual({
      type: 'ready',
      unreadCount: 0,
      counts: [{ postId, likeCount: 0, commentCount: 0 }],
      lastEventId: null,
    });

    await like(author, postId); // one's own like: a count change, no notification
    await client.frame('counts', (f) => f.likeCount === 1);
    await like(fan, postId, 'like').then(() => like(author, postId, 'dislike'));
    const liked = await client.frame('notification');
    expect(liked).toMatchObject({
      kind: 'like',
      actor: { _id: fan.user._id, firstName: 'Theo', lastName: 'Ng' },
      postId,
      commentId: null,
      text: `${fan.user.username} liked your post`,
      unreadCount: 1,
      replay: false,
    });
    // Two likes and a dislike in quick succession: the counts may come coalesced, but end right.
    await client.until(() => {
      const last = client.frames.findLast((f) => f.type === 'counts');
      return last && client.frames.indexOf(last) > client.frames.indexOf(liked) && last.likeCount === 1;
    }, 'the like count after the notification');

    const comment = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comment`,
      payload: { commentData: { content: 'Lovely' } },
      headers: auth(fan),
    });
    expect(comment.statusCode).toBe(201);
    await client.frame('notification', (f) => f.kind === 'comment' && f.unreadCount === 2);
    await client.frame('counts', (f) => f.commentCount === 1);
    expect(client.frames.filter((f) => f.type === 'notification')).toHaveLength(2);

    // Undoing the like takes its unread notification away; reading in another tab is seen here too.
    await like(fan, postId, 'dislike');
    await client.frame('unread', (f) => f.unreadCount === 1);
    const read = await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      payload: { all: true },
      headers: auth(author),
    });
    expect(read.json()).toEqual({ unreadCount: 0 });
    await client.frame('unread', (f) => f.unreadCount === 0);
    client.close();
  });

  it('tells the people a post or a comment mentions, with the sentence of each', async () => {
    const writer = await signUp(ctx.app);
    const mentioned = await signUp(ctx.app);
    const client = await connect(mentioned);
    const postId = await createPost(ctx.app, writer, `for @${mentioned.user.username}`);
    const inPost = await client.frame('notification');
    expect(inPost).toMatchObject({
      kind: 'mention',
      actor: { _id: writer.user._id },
      postId,
      commentId: null,
      text: `${writer.user.username} mentioned you in a post`,
      unreadCount: 1,
    });
    const comment = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comment`,
      payload: { commentData: { content: `see @${mentioned.user.username}` } },
      headers: auth(writer),
    });
    const inComment = await client.frame('notification', (f) => f.unreadCount === 2);
    expect(inComment).toMatchObject({
      kind: 'mention',
      postId,
      commentId: comment.json().comment._id,
      text: `${writer.user.username} mentioned you in a comment`,
    });
    // Deleting the comment, then the post, takes the mentions away: the unread count follows.
    await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/delete/${postId}/${comment.json().comment._id}`,
      headers: auth(writer),
    });
    await client.frame('unread', (f) => f.unreadCount === 1);
    await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${postId}`, headers: auth(writer) });
    await client.frame('unread', (f) => f.unreadCount === 0);
    client.close();
  });

  it('sends counts only for watched posts, and the current counts when a post is watched', async () => {
    const author = await signUp(ctx.app);
    const [watched, other] = [await createPost(ctx.app, author), await createPost(ctx.app, author)];
    const viewer = await signUp(ctx.app);
    await like(author, other);
    const client = await connect(viewer, { posts: [watched] });
    await like(author, other, 'dislike');
    await like(author, watched);
    await client.frame('counts', (f) => f.postId === watched && f.likeCount === 1);
    expect(client.frames.some((f) => f.type === 'counts' && f.postId === other)).toBe(false);

    client.send({ type: 'watch', posts: [watched, other] });
    await client.frame('counts', (f) => f.postId === other && f.likeCount === 0);
    client.send({ type: 'watch', posts: ['not-an-id'] });
    expect(await client.frame('error')).toEqual({
      type: 'error',
      message: `posts must be an array of at most ${LIVE.watchCap} post ids.`,
    });
    client.close();
  });

  it("sends no counts of a post the viewer may not see: a blocked pair's, asked for at hello or later", async () => {
    const [author, viewer, fan] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    const [seen, theirs] = [await createPost(ctx.app, fan), await createPost(ctx.app, author)];
    const blocked = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${viewer.user.username}/block`,
      headers: auth(author),
    });
    expect(blocked.statusCode).toBeLessThan(300);
    const client = await connect(viewer, { posts: [theirs, seen] });
    const ready = await client.frame('ready');
    expect((ready.counts as { postId: string }[]).map((c) => c.postId)).toEqual([seen]);
    client.send({ type: 'watch', posts: [seen, theirs] });
    await like(fan, theirs);
    await like(fan, seen);
    // Frames arrive in order: once the visible post's count is here, the other's would have been too.
    await client.frame('counts', (f) => f.postId === seen && f.likeCount === 1);
    expect(client.frames.some((f) => f.type === 'counts' && f.postId === theirs)).toBe(false);
    client.close();
  });

  it('stops the counts of a watched post once the viewer and its author are a blocked pair (issue 38, item 9)', async () => {
    const [author, viewer, fan] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    const [seen, theirs] = [await createPost(ctx.app, fan), await createPost(ctx.app, author)];
    const client = await connect(viewer, { posts: [theirs, seen] });
    await like(fan, theirs);
    await client.frame('counts', (f) => f.postId === theirs && f.likeCount === 1);
    const blocked = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${viewer.user.username}/block`,
      headers: auth(author),
    });
    expect(blocked.statusCode).toBeLessThan(300);
    // The block's event reaches the socket's process before the reactions' (events are handled in order).
    await like(fan, theirs, 'dislike');
    await like(fan, seen);
    await client.frame('counts', (f) => f.postId === seen && f.likeCount === 1);
    // A later batch: once its frame is here, any frame of the batch before it would have been too.
    await like(viewer, seen);
    await client.frame('counts', (f) => f.postId === seen && f.likeCount === 2);
    expect(client.frames.filter((f) => f.type === 'counts' && f.postId === theirs)).toHaveLength(1);
    client.close();
  });

  it('replays what a client missed when it reconnects with the last id it saw', async () => {
    const author = await signUp(ctx.app);
    const fans = await Promise.all([1, 2, 3].map(() => signUp(ctx.app)));
    const postId = await createPost(ctx.app, author);
    const first = await connect(author);
    await like(fans[0]!, postId);
    const seen = await first.frame('notification');
    // A tab that opens now learns where to resume from even before any notification reaches it.
    const fresh = await connect(author);
    expect(fresh.frames[0]).toMatchObject({ type: 'ready', lastEventId: seen.id });
    fresh.close();
    first.close();
    await first.closing();

    await like(fans[1]!, postId);
    await ctx.app.inject({ method: 'POST', url: `/api/users/follow/${author.user._id}`, headers: auth(fans[2]!) });

    const again = await connect(author, { lastEventId: seen.id });
    await again.until(
      () => again.frames.filter((f) => f.type === 'notification').length === 2,
      'two replayed notifications',
    );
    const replayed = again.frames.filter((f) => f.type === 'notification');
    expect(replayed.map((f) => [f.kind, f.actor._id, f.replay])).toEqual([
      ['like', fans[1]!.user._id, true],
      ['follow', fans[2]!.user._id, true],
    ]);
    // And it goes on live after the replay.
    await like(fans[2]!, postId);
    await again.frame('notification', (f) => !f.replay && f.actor._id === fans[2]!.user._id);
    again.close();

    const broken = await new Client().open();
    broken.send({ type: 'hello', token: author.token, lastEventId: 'garbage' });
    expect((await broken.closing()).code).toBe(LIVE_CLOSE.badFrame);
  });

  it('tells followers, and everyone else for Explore, about a new post', async () => {
    const author = await signUp(ctx.app);
    const follower = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    await ctx.app.inject({ method: 'POST', url: `/api/users/follow/${author.user._id}`, headers: auth(follower) });
    const [a, b] = [await connect(follower), await connect(stranger)];
    const postId = await createPost(ctx.app, author);
    expect(await a.frame('post', (f) => f.postId === postId)).toEqual({
      type: 'post',
      postId,
      authorId: author.user._id,
      following: true,
    });
    expect(await b.frame('post', (f) => f.postId === postId)).toMatchObject({ following: false });
    a.close();
    b.close();
  });

  it('sends no post frame between a blocked pair, either way (issue 23)', async () => {
    const [author, blocked, blocker, stranger] = [
      await signUp(ctx.app),
      await signUp(ctx.app),
      await signUp(ctx.app),
      await signUp(ctx.app),
    ];
    const block = (who: SignedUp, other: SignedUp) =>
      ctx.app.inject({ method: 'POST', url: `/api/users/${other.user.username}/block`, headers: auth(who) });
    expect((await block(author, blocked)).statusCode).toBe(200);
    expect((await block(blocker, author)).statusCode).toBe(200);
    const [b, c, s] = [await connect(blocked), await connect(blocker), await connect(stranger)];
    const postId = await createPost(ctx.app, author);
    // Frames of one event go out to every socket in one pass: once the stranger has it, so would they.
    await s.frame('post', (f) => f.postId === postId);
    expect([...b.frames, ...c.frames].filter((f) => f.type === 'post')).toEqual([]);
    for (const client of [b, c, s]) client.close();
  });

  it(`keeps at most ${LIVE.connectionsPerUser} connections per account, closing the oldest`, async () => {
    const me = await signUp(ctx.app);
    const clients: Client[] = [];
    for (let i = 0; i <= LIVE.connectionsPerUser; i++) clients.push(await connect(me));
    expect((await clients[0]!.closing()).code).toBe(LIVE_CLOSE.replaced);
    expect(clients.slice(1).every((c) => c.closed === null)).toBe(true);
    for (const c of clients) c.close();
  });

  it('closes the open sockets of an account when it is deleted, with 4001', async () => {
    const gone = await signUp(ctx.app);
    const stays = await signUp(ctx.app);
    const [mine, theirs] = [await connect(gone), await connect(stays)];
    await ctx.database.db.delete(users).where(eq(users.id, gone.user._id));
    expect(await mine.closing()).toEqual({
      code: LIVE_CLOSE.unauthorised,
      reason: 'The account of this token no longer exists: sign up or log in again.',
    });
    const postId = await createPost(ctx.app, stays);
    await theirs.frame('post', (f) => f.postId === postId);
    expect(mine.frames.filter((f) => f.type === 'post')).toEqual([]);
    theirs.close();
  });

  it('answers 429 to more sockets from one address waiting to sign in than the cap, and frees a place on hello', async () => {
    const cap = ctx.config.connections.liveUnauthenticatedPerAddress;
    const from = { localAddress: '127.0.0.21' };
    // Opened at once: opened one after another on a loaded machine, the first could reach their hello
    // timeout and leave before the last came, making room for the one that must be refused.
    const waiting = await Promise.all(Array.from({ length: cap }, () => new Client(base, from).open()));
    const refused = new Client(base, from);
    const status = await new Promise<number>((resolve) => {
      refused.socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      refused.socket.once('open', () => resolve(101)); // admitted: the check below says so at once
    });
    expect(status).toBe(429);
    // Another address is not affected.
    const other = await new Client(base, { localAddress: '127.0.0.22' }).open();
    other.close();

    const me = await signUp(ctx.app);
    waiting[0]!.send({ type: 'hello', token: me.token });
    await waiting[0]!.frame('ready');
    const next = await new Client(base, from).open();
    for (const client of [...waiting, next]) client.close();
  });

  it('closes a connection that stops answering pings', async () => {
    const me = await signUp(ctx.app);
    const deaf = await new Client(base, { autoPong: false }).open();
    deaf.send({ type: 'hello', token: me.token });
    await deaf.frame('ready');
    await deaf.closing();
    const lively = await connect(me);
    await new Promise((resolve) => setTimeout(resolve, TIMINGS.heartbeatMs * 3));
    expect(lively.closed).toBeNull();
    lively.close();
  });
});

// Two server processes on one PostgreSQL: a like handled by this one reaches a socket on the other.
describe.runIf(process.env.DATABASE_URL)('the live stream across server processes', () => {
  let child: ChildProcess;
  let otherBase: string;

  beforeAll(async () => {
    const serverRoot = path.resolve(import.meta.dirname, '../../..');
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/test/serve.ts'], {
      cwd: serverRoot,
      env: { ...process.env, DATABASE_URL: ctx.database.url, JWT_SECRET: ctx.config.jwtSecret, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk) => {
        out += String(chunk);
        const match = /listening on (\d+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the second server exited with ${code}`)));
    });
    otherBase = `ws://127.0.0.1:${port}/api/live`;
  });
  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('delivers a notification and new counts to a socket on the other process', async () => {
    const author = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const postId = await createPost(ctx.app, author);
    const elsewhere = await connect(author, { posts: [postId] }, otherBase);
    await like(fan, postId);
    expect(await elsewhere.frame('notification')).toMatchObject({ kind: 'like', postId, unreadCount: 1 });
    await elsewhere.frame('counts', (f) => f.postId === postId && f.likeCount === 1);
    elsewhere.close();
  });

  it("keeps the other process's cached posts fresh: a like here shows in its lists' likedBy", async () => {
    const author = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const postId = await createPost(ctx.app, author);
    const httpBase = otherBase.replace('ws://', 'http://').replace('/api/live', '');
    const likedBy = async () => {
      const page = (await (await fetch(`${httpBase}/api/posts/user/${author.user.username}`)).json()) as {
        posts: { _id: string; likes: { likedBy: { _id: string }[] } }[];
      };
      return page.posts.find((post) => post._id === postId)!.likes.likedBy.map((user) => user._id);
    };
    expect(await likedBy()).toEqual([]); // now cached over there
    await like(fan, postId);
    for (let attempt = 0; (await likedBy()).length === 0 && attempt < 40; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await likedBy()).toEqual([fan.user._id]);
  });

  it("keeps the other process's cached searches fresh: a post written here is found over there", async () => {
    const author = await signUp(ctx.app);
    const word = `heron${Date.now().toString(36)}`;
    const httpBase = otherBase.replace('ws://', 'http://').replace('/api/live', '');
    const found = async () => {
      const page = (await (await fetch(`${httpBase}/api/search?type=posts&q=${word}`)).json()) as {
        posts: { _id: string }[];
      };
      return page.posts.map((post) => post._id);
    };
    expect(await found()).toEqual([]); // now cached over there
    const postId = await createPost(ctx.app, author, `A ${word} at dawn`);
    for (let attempt = 0; (await found()).length === 0 && attempt < 40; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await found()).toEqual([postId]);
  });

  it('refuses over there an account deleted here, though that process remembered it as existing', async () => {
    const me = await signUp(ctx.app);
    const httpBase = otherBase.replace('ws://', 'http://').replace('/api/live', '');
    const feed = () => fetch(`${httpBase}/api/feed`, { headers: { authorization: me.token } });
    expect((await feed()).status).toBe(200); // remembered over there
    await ctx.database.db.delete(users).where(eq(users.id, me.user._id));
    let status = (await feed()).status;
    for (let attempt = 0; status === 200 && attempt < 40; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await feed()).status;
    }
    expect(status).toBe(404);
  });
});
