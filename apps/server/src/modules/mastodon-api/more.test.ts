import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { queryRows } from '../../db/client.js';
import { createTestApp, eventually, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * masto-more's routes of the Mastodon client API (issue 45) against the real database, through the web login token
 * (which counts as every scope): instance, markers, notifications, filters (muted words), reports, tags, search,
 * preferences, blocks and mutes, the features answered as absent, and the streaming socket.
 */
let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: SignedUp | null, method: Method, url: string, payload?: object) =>
  ctx.app.inject({
    method,
    url,
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
    ...(payload ? { payload } : {}),
  });
const ok = async (who: SignedUp | null, method: Method, url: string, payload?: object) => {
  const response = await call(who, method, url, payload);
  expect([200, 201], `${method} ${url}: ${response.body.slice(0, 300)}`).toContain(response.statusCode);
  return response.json();
};

/** A work through the web app's own route. */
async function newWork(author: SignedUp, content: string): Promise<string> {
  const response = await call(author, 'POST', '/api/posts', { content });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post._id as string;
}

describe('instance', () => {
  it('answers v1 and v2 with a Mastodon-compatible version, our limits and counts', async () => {
    await signUp(ctx.app);
    const v1 = await ok(null, 'GET', '/api/v1/instance');
    expect(v1.version).toMatch(/^4\.3\.0 \(compatible; Share Arts \d+\.\d+\.\d+\)$/);
    expect(v1.uri).toBe(new URL(v1.urls.streaming_api.replace(/^ws/, 'http')).host);
    expect(v1.configuration.statuses).toEqual({
      max_characters: 2000,
      max_media_attachments: 20,
      characters_reserved_per_url: 23,
    });
    expect(v1.configuration.media_attachments.image_size_limit).toBe(20 * 1024 * 1024);
    expect(v1.configuration.media_attachments.supported_mime_types).toContain('image/webp');
    expect(v1.stats.user_count).toBeGreaterThan(0);
    expect(v1.urls.streaming_api).toMatch(/^ws/);
    const v2 = await ok(null, 'GET', '/api/v2/instance');
    expect(v2).toMatchObject({
      title: 'Share Arts',
      registrations: { enabled: true, approval_required: false },
      api_versions: { mastodon: 2 },
      rules: [],
    });
    expect(v2.configuration.statuses.max_media_attachments).toBe(20);
    expect(v2.thumbnail.url).toMatch(/^http/);
    expect(await ok(null, 'GET', '/api/v1/instance/peers')).toEqual([]);
    expect(await ok(null, 'GET', '/api/v1/custom_emojis')).toEqual([]);
    expect(await ok(null, 'GET', '/api/v1/instance/rules')).toEqual([]);
    const activity = await ok(null, 'GET', '/api/v1/instance/activity');
    expect(activity).toHaveLength(12);
    expect(Object.keys(activity[0]).sort()).toEqual(['logins', 'registrations', 'statuses', 'week']);
    expect(Number(activity[0].registrations)).toBeGreaterThan(0);
  });
});

describe('markers', () => {
  it('keeps where a person stopped reading, counting versions, and refuses a save without an id', async () => {
    const ana = await signUp(ctx.app);
    expect(await ok(ana, 'GET', '/api/v1/markers?timeline[]=home&timeline[]=notifications')).toEqual({});
    const first = await ok(ana, 'POST', '/api/v1/markers', { home: { last_read_id: 'abc' } });
    expect(first.home).toMatchObject({ last_read_id: 'abc', version: 1 });
    // A form, as Rails' nested names.
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/markers',
      headers: { authorization: `Bearer ${ana.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'home[last_read_id]=def&notifications[last_read_id]=n1',
    });
    expect(form.statusCode, form.body).toBe(200);
    const both = await ok(ana, 'GET', '/api/v1/markers?timeline[]=home&timeline[]=notifications');
    expect(both.home).toMatchObject({ last_read_id: 'def', version: 2 });
    expect(both.notifications).toMatchObject({ last_read_id: 'n1', version: 1 });
    const bad = await call(ana, 'POST', '/api/v1/markers', { home: {} });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatch(/^Validation failed/);
    expect((await call(null, 'GET', '/api/v1/markers')).statusCode).toBe(401);
  });
});

describe('notifications', () => {
  it('maps likes, comments and follows to favourite, mention and follow, pages, dismisses and clears', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const postId = await newWork(artist, 'A heron at dawn');
    await ok(fan, 'POST', `/api/posts/like/${postId}`);
    const comment = await call(fan, 'POST', `/api/posts/${postId}/comment`, { commentData: { content: 'Lovely' } });
    expect(comment.statusCode, comment.body).toBe(201);
    await ok(fan, 'POST', `/api/users/follow/${artist.user._id}`);

    const list = await call(artist, 'GET', '/api/v1/notifications');
    expect(list.statusCode, list.body).toBe(200);
    const notifications = list.json();
    expect(notifications.map((n: { type: string }) => n.type)).toEqual(['follow', 'mention', 'favourite']);
    const [follow, mention, favourite] = notifications;
    expect(follow.account).toMatchObject({ id: fan.user._id, acct: fan.user.username });
    expect(follow.status).toBeUndefined();
    expect(mention.status).toMatchObject({ content: expect.stringContaining('Lovely'), in_reply_to_id: postId });
    expect(favourite.status).toMatchObject({ id: postId, favourites_count: 1 });

    // types[] and exclude_types[]; paging by max_id with a Link header.
    expect(
      (await ok(artist, 'GET', '/api/v1/notifications?types[]=favourite')).map((n: { type: string }) => n.type),
    ).toEqual(['favourite']);
    expect(
      (await ok(artist, 'GET', '/api/v1/notifications?exclude_types[]=follow&exclude_types[]=mention')).length,
    ).toBe(1);
    const paged = await call(artist, 'GET', '/api/v1/notifications?limit=1');
    expect(paged.json()).toHaveLength(1);
    expect(paged.headers.link).toContain(`max_id=${follow.id}`);
    const older = await ok(artist, 'GET', `/api/v1/notifications?max_id=${follow.id}`);
    expect(older.map((n: { id: string }) => n.id)).toEqual([mention.id, favourite.id]);
    const newer = await ok(artist, 'GET', `/api/v1/notifications?min_id=${favourite.id}&limit=1`);
    expect(newer.map((n: { id: string }) => n.id)).toEqual([mention.id]);
    expect((await call(artist, 'GET', '/api/v1/notifications?types[]=nonsense')).statusCode).toBe(422);

    expect(await ok(artist, 'GET', '/api/v1/notifications/unread_count')).toEqual({ count: 3 });
    // The notifications marker on the middle one marks it and the older one read.
    await ok(artist, 'POST', '/api/v1/markers', { notifications: { last_read_id: mention.id } });
    expect(await ok(artist, 'GET', '/api/v1/notifications/unread_count')).toEqual({ count: 1 });
    expect((await ok(artist, 'GET', '/api/notifications/unread-count')).unreadCount).toBe(1);
    expect(await ok(artist, 'GET', `/api/v1/notifications/${mention.id}`)).toMatchObject({
      id: mention.id,
      type: 'mention',
    });
    // Someone else's notification is not found.
    expect((await call(fan, 'GET', `/api/v1/notifications/${mention.id}`)).statusCode).toBe(404);
    expect((await call(fan, 'POST', `/api/v1/notifications/${mention.id}/dismiss`)).statusCode).toBe(404);

    await ok(artist, 'POST', `/api/v1/notifications/${mention.id}/dismiss`);
    expect((await ok(artist, 'GET', '/api/v1/notifications')).map((n: { id: string }) => n.id)).toEqual([
      follow.id,
      favourite.id,
    ]);
    // The web app's bell agrees (the follow is still unread).
    expect((await ok(artist, 'GET', '/api/notifications/unread-count')).unreadCount).toBe(1);
    await ok(artist, 'POST', '/api/v1/notifications/clear');
    expect(await ok(artist, 'GET', '/api/v1/notifications')).toEqual([]);
    expect((await call(null, 'GET', '/api/v1/notifications')).statusCode).toBe(401);
  });

  it('leaves out someone the person blocked', async () => {
    const artist = await signUp(ctx.app);
    const troll = await signUp(ctx.app);
    const postId = await newWork(artist, 'Quiet study');
    await ok(troll, 'POST', `/api/posts/like/${postId}`);
    expect(await ok(artist, 'GET', '/api/v1/notifications')).toHaveLength(1);
    const blocked = await call(artist, 'POST', `/api/users/${troll.user.username}/block`);
    expect(blocked.statusCode, blocked.body).toBeLessThan(300);
    expect(await ok(artist, 'GET', '/api/v1/notifications')).toEqual([]);
  });
});

describe('filters are muted words', () => {
  it('shows the list as one v2 filter, adds and removes its keywords, and each word as a v1 filter', async () => {
    const ana = await signUp(ctx.app);
    expect(await ok(ana, 'GET', '/api/v2/filters')).toEqual([]);
    const created = await ok(ana, 'POST', '/api/v2/filters', {
      title: 'Spoilers',
      context: ['home', 'notifications'],
      filter_action: 'warn',
      keywords_attributes: [{ keyword: 'spoiler' }, { keyword: '#finale', whole_word: false }],
    });
    // What is kept is said honestly: one list, hidden in home and public.
    expect(created).toMatchObject({
      id: 'muted-words',
      title: 'Muted words',
      context: ['home', 'public'],
      filter_action: 'hide',
    });
    expect(created.keywords.map((k: { keyword: string }) => k.keyword).sort()).toEqual(['#finale', 'spoiler']);
    expect(
      (await ok(ana, 'GET', '/api/users/me/muted-words')).words.map((w: { word: string }) => w.word).sort(),
    ).toEqual(['#finale', 'spoiler']);
    const updated = await ok(ana, 'PUT', '/api/v2/filters/muted-words', {
      keywords_attributes: [{ id: 'spoiler', _destroy: true }, { keyword: 'leak' }],
    });
    expect(updated.keywords.map((k: { keyword: string }) => k.keyword).sort()).toEqual(['#finale', 'leak']);
    const keyword = await ok(ana, 'POST', '/api/v2/filters/muted-words/keywords', { keyword: 'plot' });
    expect(keyword).toEqual({ id: 'plot', keyword: 'plot', whole_word: true });
    expect(await ok(ana, 'DELETE', '/api/v2/filters/keywords/plot')).toEqual({});

    const v1 = await ok(ana, 'GET', '/api/v1/filters');
    expect(v1.map((f: { phrase: string }) => f.phrase).sort()).toEqual(['#finale', 'leak']);
    const added = await ok(ana, 'POST', '/api/v1/filters', { phrase: 'gore', context: ['home'] });
    expect(added).toMatchObject({ id: 'gore', phrase: 'gore', irreversible: true, whole_word: true });
    expect(await ok(ana, 'DELETE', '/api/v1/filters/gore')).toEqual({});
    expect((await call(ana, 'GET', '/api/v1/filters/gore')).statusCode).toBe(404);
    expect((await call(ana, 'POST', '/api/v1/filters', { context: ['home'] })).statusCode).toBe(422);

    expect(await ok(ana, 'DELETE', '/api/v2/filters/muted-words')).toEqual({});
    expect(await ok(ana, 'GET', '/api/v2/filters')).toEqual([]);
    expect((await call(ana, 'GET', '/api/v2/filters/other')).statusCode).toBe(404);
  });
});

describe('reports', () => {
  it('reports a work, or the account, into the moderation queue', async () => {
    const artist = await signUp(ctx.app);
    const reporter = await signUp(ctx.app);
    const postId = await newWork(artist, 'Spammy spam');
    const report = await ok(reporter, 'POST', '/api/v1/reports', {
      account_id: artist.user._id,
      status_ids: [postId],
      comment: 'Selling things',
      category: 'spam',
    });
    expect(report).toMatchObject({
      action_taken: false,
      category: 'spam',
      comment: 'Selling things',
      status_ids: [postId],
      target_account: { id: artist.user._id },
    });
    const rows = await queryRows<{ target_type: string; target_id: string; reason: string; note: string }>(
      ctx.database.db,
      sql`select target_type, target_id::text, reason, note from reports where reporter_id = ${reporter.user._id}::uuid`,
    );
    expect(rows).toEqual([{ target_type: 'post', target_id: postId, reason: 'spam', note: 'Selling things' }]);
    // A second report of the same work is no error; the account alone.
    await ok(reporter, 'POST', '/api/v1/reports', { account_id: artist.user._id, status_ids: [postId] });
    const account = await ok(reporter, 'POST', '/api/v1/reports', {
      account_id: artist.user._id,
      category: 'violation',
    });
    expect(account).toMatchObject({ category: 'violation', status_ids: null });
    expect((await call(reporter, 'POST', '/api/v1/reports', {})).statusCode).toBe(422);
    expect(
      (await call(reporter, 'POST', '/api/v1/reports', { account_id: artist.user._id, category: 'nonsense' }))
        .statusCode,
    ).toBe(422);
    expect(
      (await call(reporter, 'POST', '/api/v1/reports', { account_id: '00000000-0000-4000-8000-000000000000' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('tags', () => {
  it('shows a tag, follows and unfollows it, and lists the followed ones', async () => {
    const ana = await signUp(ctx.app);
    const tag = await ok(ana, 'GET', '/api/v1/tags/Watercolour');
    expect(tag).toMatchObject({ name: 'watercolour', following: false, history: [] });
    expect(tag.url).toMatch(/\/tags\/watercolour$/);
    expect(await ok(ana, 'POST', '/api/v1/tags/watercolour/follow')).toMatchObject({ following: true });
    expect((await ok(ana, 'GET', '/api/v1/followed_tags')).map((t: { name: string }) => t.name)).toEqual([
      'watercolour',
    ]);
    expect(await ok(ana, 'POST', '/api/v1/tags/watercolour/unfollow')).toMatchObject({ following: false });
    expect(await ok(ana, 'GET', '/api/v1/followed_tags')).toEqual([]);
    expect((await call(ana, 'GET', '/api/v1/tags/not%20a%20tag!')).statusCode).toBe(404);
  });
});

describe('search', () => {
  it('finds accounts, statuses and hashtags, one type at a time or all', async () => {
    const painter = await signUp(ctx.app, { fullname: 'Zephyrine Quill' });
    await newWork(painter, 'Zephyrine draws #zephyrtag clouds');
    const viewer = await signUp(ctx.app);
    const all = await ok(viewer, 'GET', `/api/v2/search?q=${painter.user.username}`);
    expect(all.accounts.map((a: { id: string }) => a.id)).toContain(painter.user._id);
    const statuses = await ok(viewer, 'GET', '/api/v2/search?q=zephyrine&type=statuses');
    expect(statuses.accounts).toEqual([]);
    expect(statuses.statuses[0].content).toContain('Zephyrine draws');
    const tags = await ok(viewer, 'GET', '/api/v2/search?q=zephyrt&type=hashtags');
    expect(tags.hashtags.map((t: { name: string }) => t.name)).toEqual(['zephyrtag']);
    const accounts = await ok(viewer, 'GET', `/api/v1/accounts/search?q=${painter.user.username}`);
    expect(accounts[0].id).toBe(painter.user._id);
    // resolve=true with a handle here finds the account through the lookup.
    const resolved = await ok(
      viewer,
      'GET',
      `/api/v2/search?q=@${painter.user.username}@localhost&resolve=true&type=accounts`,
    );
    expect(resolved.accounts[0]?.id).toBe(painter.user._id);
    expect((await call(viewer, 'GET', '/api/v2/search?q=')).statusCode).toBe(422);
    expect((await call(viewer, 'GET', '/api/v2/search?q=x&type=lists')).statusCode).toBe(422);
    expect((await call(viewer, 'GET', '/api/v2/search?q=x&offset=-1')).statusCode).toBe(422);
  });
});

describe('preferences, blocks and mutes', () => {
  it('answers the preferences and lists the people blocked and muted', async () => {
    const ana = await signUp(ctx.app);
    const bob = await signUp(ctx.app);
    const cy = await signUp(ctx.app);
    expect(await ok(ana, 'GET', '/api/v1/preferences')).toMatchObject({
      'posting:default:visibility': 'public',
      'posting:default:sensitive': false,
      'reading:expand:spoilers': false,
    });
    expect((await call(ana, 'POST', `/api/users/${bob.user.username}/block`)).statusCode).toBeLessThan(300);
    expect((await call(ana, 'POST', `/api/users/${cy.user.username}/mute`)).statusCode).toBeLessThan(300);
    expect((await ok(ana, 'GET', '/api/v1/blocks')).map((a: { id: string }) => a.id)).toEqual([bob.user._id]);
    expect((await ok(ana, 'GET', '/api/v1/mutes')).map((a: { id: string }) => a.id)).toEqual([cy.user._id]);
  });
});

describe('features this server does not have', () => {
  it('answers as a Mastodon server without them: empty lists, 404 for a record', async () => {
    const ana = await signUp(ctx.app);
    for (const url of [
      '/api/v1/conversations',
      '/api/v1/lists',
      '/api/v1/follow_requests',
      '/api/v1/domain_blocks',
      '/api/v1/endorsements',
      '/api/v1/featured_tags',
      '/api/v1/trends/tags',
      '/api/v2/suggestions',
      '/api/v1/scheduled_statuses',
      '/api/v1/announcements',
    ]) {
      expect(await ok(ana, 'GET', url), url).toEqual([]);
    }
    for (const url of ['/api/v1/polls/1', '/api/v1/lists/1', '/api/v2/notifications']) {
      const response = await call(ana, 'GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'Record not found' });
    }
    expect((await call(ana, 'POST', '/api/v1/lists', { title: 'x' })).statusCode).toBe(422);
  });
});

/** A streaming socket and the events it received. */
async function stream(query: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/streaming?${query}`);
  const events: { stream: string[]; event: string; payload: string }[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('error', () => {});
  socket.on('message', (data) => events.push(JSON.parse(String(data))));
  await Promise.race([new Promise((resolve) => socket.once('open', resolve)), closed]);
  return { socket, events, closed };
}

describe('streaming', () => {
  it('answers its health, refuses a bad token or stream, and sends updates, notifications and deletes', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/api/v1/streaming/health' });
    expect([health.statusCode, health.body]).toEqual([200, 'OK']);
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/v1/streaming' });
    expect(plain.statusCode).toBe(426);

    const bad = await stream('stream=user&access_token=nonsense');
    expect(await bad.closed).toBe(4001);
    const unknown = await stream('stream=list&list=1');
    expect(await unknown.closed).toBe(4000);
    const signedOut = await stream('stream=user');
    expect(await signedOut.closed).toBe(4000);

    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    await ok(fan, 'POST', `/api/users/follow/${artist.user._id}`);
    const fanSocket = await stream(`stream=user&access_token=${fan.token}`);
    const artistSocket = await stream(`stream=user:notification&access_token=${artist.token}`);
    const strangerSocket = await stream(`stream=user&access_token=${stranger.token}`);
    // A hashtag stream by a subscribe message, signed out.
    const tagSocket = await stream('');
    tagSocket.socket.send(JSON.stringify({ type: 'subscribe', stream: 'hashtag', tag: 'Herons' }));
    // The Sec-WebSocket-Protocol form of the token.
    const protocolSocket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/streaming?stream=user`, artist.token);
    const protocolEvents: { event: string }[] = [];
    protocolSocket.on('message', (data) => protocolEvents.push(JSON.parse(String(data))));
    await new Promise((resolve) => protocolSocket.once('open', resolve));
    expect(protocolSocket.protocol).toBe(artist.token);

    const postId = await newWork(artist, 'New #herons piece');
    await eventually(async () => {
      const update = fanSocket.events.find((event) => event.event === 'update');
      expect(update?.stream).toEqual(['user']);
      expect(JSON.parse(update!.payload)).toMatchObject({ id: postId, account: { id: artist.user._id } });
      expect(tagSocket.events.find((event) => event.event === 'update')?.stream).toEqual(['hashtag', 'herons']);
      expect(protocolEvents.some((event) => event.event === 'update')).toBe(true);
    }, 5000);

    await ok(fan, 'POST', `/api/posts/like/${postId}`);
    // The fan's follow notified the artist too, and its frame may come after the socket opened: the like's is looked for.
    await eventually(async () => {
      const notification = artistSocket.events.find(
        (event) => event.event === 'notification' && JSON.parse(event.payload).type === 'favourite',
      );
      expect(notification?.stream).toEqual(['user:notification']);
      expect(JSON.parse(notification!.payload)).toMatchObject({ type: 'favourite', status: { id: postId } });
    }, 5000);
    // The artist's notification stream had no update; the stranger follows nobody.
    expect(artistSocket.events.some((event) => event.event === 'update')).toBe(false);
    expect(strangerSocket.events).toEqual([]);

    await ok(artist, 'DELETE', `/api/posts/${postId}`);
    await eventually(async () => {
      expect(fanSocket.events.find((event) => event.event === 'delete')?.payload).toBe(postId);
    }, 5000);

    for (const socket of [
      fanSocket.socket,
      artistSocket.socket,
      strangerSocket.socket,
      tagSocket.socket,
      protocolSocket,
    ]) {
      socket.close();
    }
  });

  it('sends nothing of a muted person or one carrying a muted word', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    await ok(fan, 'POST', `/api/users/follow/${artist.user._id}`);
    await ok(fan, 'POST', '/api/users/me/muted-words', { word: 'spoiler' });
    const fanSocket = await stream(`stream=user&access_token=${fan.token}`);
    await newWork(artist, 'A big spoiler here');
    const seen = await newWork(artist, 'Nothing to hide');
    await eventually(async () => {
      expect(fanSocket.events.map((event) => JSON.parse(event.payload).id)).toEqual([seen]);
    }, 5000);
    fanSocket.socket.close();
  });
});
