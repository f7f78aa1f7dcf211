import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { isBlurhashValid } from 'blurhash';
import { sql } from 'drizzle-orm';
import { createRestAPIClient } from 'masto';
import megalodon, { type Entity } from 'megalodon';
import { queryRows } from '../../db/client.js';
import { createTestApp, eventually, multipart, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * Issue 45's open items of the Mastodon client API, on the real database, with the rate limits on (as in
 * production): Mastodon's X-RateLimit-* headers and its 429; POST /api/v1/statuses with `scheduled_at` (a scheduled
 * draft, answered as a ScheduledStatus, also through masto.js and megalodon); a picture's BlurHash and focal point; the
 * visibilities that cannot be honoured; the server-sent-events form of the streaming API.
 */
type Generator = typeof megalodon.default;

let ctx: TestContext;
let url: string;
let ana: SignedUp;
let ben: SignedUp;

beforeAll(async () => {
  ctx = await createTestApp({ config: { rateLimits: true } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  ana = await signUp(ctx.app);
  ben = await signUp(ctx.app);
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: SignedUp | null, method: Method, path: string, payload?: object, remoteAddress?: string) =>
  ctx.app.inject({
    method,
    url: path,
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
    ...(payload ? { payload } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });

const jpeg = (r: number) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r, g: 120, b: 60 } } })
    .composite([
      {
        input: { create: { width: 200, height: 480, channels: 3, background: { r: 10, g: 10, b: 200 } } },
        left: 0,
        top: 0,
      },
    ])
    .jpeg()
    .toBuffer();

async function upload(who: SignedUp, extra: { name: string; data: string }[] = []) {
  const form = multipart([
    ...extra,
    { name: 'file', data: await jpeg(220), filename: 'w.jpg', contentType: 'image/jpeg' },
  ]);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v2/media',
    headers: { authorization: `Bearer ${who.token}`, 'content-type': form.contentType },
    payload: form.payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('rate limits', () => {
  it('answers X-RateLimit-* on every answer, per person signed in and per address signed out', async () => {
    const before = Date.now();
    const signedIn = await call(ana, 'GET', '/api/v1/accounts/verify_credentials');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['x-ratelimit-limit']).toBe('1500');
    const remaining = Number(signedIn.headers['x-ratelimit-remaining']);
    expect(remaining).toBeLessThan(1500);
    const reset = Date.parse(String(signedIn.headers['x-ratelimit-reset']));
    expect(String(signedIn.headers['x-ratelimit-reset'])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(reset).toBeGreaterThan(before);
    expect(reset).toBeLessThanOrEqual(Date.now() + 5 * 60_000 + 1000);
    // The same person's next request counts one more, whichever route.
    const next = await call(ana, 'GET', '/api/v1/preferences');
    expect(Number(next.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
    // A refusal of the route (404) is counted and carries the headers too.
    const missing = await call(ana, 'GET', '/api/v1/statuses/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(Number(missing.headers['x-ratelimit-remaining'])).toBe(remaining - 2);
    // The web app's own routes keep their own limits and say nothing of these.
    const own = await call(ana, 'GET', '/api/feed');
    expect(own.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('refuses the 301st request in 5 minutes from one address signed out: 429 {"error":"Too many requests"}', async () => {
    const address = '203.0.113.45';
    let last = await call(null, 'GET', '/api/v1/custom_emojis', undefined, address);
    expect(last.headers['x-ratelimit-limit']).toBe('300');
    expect(last.headers['x-ratelimit-remaining']).toBe('299');
    for (let i = 1; i < 300; i += 1) last = await call(null, 'GET', '/api/v1/custom_emojis', undefined, address);
    expect(last.statusCode).toBe(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await call(null, 'GET', '/api/v1/custom_emojis', undefined, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests' });
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Date.parse(String(refused.headers['x-ratelimit-reset']))).toBeGreaterThan(Date.now());
    // Another address, and a person signed in from this one, are counted apart.
    expect((await call(null, 'GET', '/api/v1/custom_emojis', undefined, '203.0.113.46')).statusCode).toBe(200);
    expect((await call(ben, 'GET', '/api/v1/custom_emojis', undefined, address)).statusCode).toBe(200);
  });
});

describe('scheduled statuses', () => {
  it('POST /api/v1/statuses with scheduled_at makes a scheduled draft and answers a ScheduledStatus', async () => {
    const picture = await upload(ana, [{ name: 'description', data: 'a harbour at dusk' }]);
    const at = new Date(Date.now() + 60 * 60_000);
    at.setUTCSeconds(0, 0);
    const response = await call(ana, 'POST', '/api/v1/statuses', {
      status: 'Later: the #harbour',
      media_ids: [picture.id],
      spoiler_text: 'flashing',
      language: 'pt_BR',
      scheduled_at: at.toISOString(),
    });
    expect(response.statusCode, response.body).toBe(200);
    const scheduled = response.json();
    expect(scheduled).toMatchObject({
      scheduled_at: at.toISOString(),
      params: {
        text: 'Later: the #harbour',
        media_ids: [picture.id],
        sensitive: true,
        spoiler_text: 'flashing',
        language: 'pt-BR',
        visibility: 'public',
        poll: null,
      },
    });
    expect(scheduled.media_attachments).toHaveLength(1);
    expect(scheduled.media_attachments[0]).toMatchObject({ id: picture.id, description: 'a harbour at dusk' });
    // It is the person's scheduled draft: listed, with its language; nothing is posted yet.
    const listed = await call(ana, 'GET', '/api/v1/scheduled_statuses');
    expect(listed.json().map((entry: { id: string }) => entry.id)).toContain(scheduled.id);
    const [draft] = await queryRows<{ language: string | null; scheduled_at: Date; content: string }>(
      ctx.database.db,
      sql`select language, scheduled_at, content from drafts where id = ${scheduled.id}::uuid`,
    );
    expect(draft).toMatchObject({ language: 'pt-BR', content: 'Later: the #harbour' });
    expect(new Date(draft!.scheduled_at).toISOString()).toBe(at.toISOString());
    const works = await call(ana, 'GET', `/api/v1/accounts/${ana.user._id}/statuses`);
    expect(works.json()).toEqual([]);
  });

  it('refuses a time less than 5 minutes ahead with Mastodon’s words, and makes no draft', async () => {
    const [{ count: before }] = (await queryRows<{ count: number }>(
      ctx.database.db,
      sql`select count(*)::int as count from drafts where author_id = ${ben.user._id}::uuid`,
    )) as [{ count: number }];
    for (const scheduledAt of [new Date(Date.now() + 2 * 60_000).toISOString(), '2020-01-01T00:00:00Z']) {
      const response = await call(ben, 'POST', '/api/v1/statuses', { status: 'soon', scheduled_at: scheduledAt });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        error: 'Validation failed: Scheduled at The scheduled date must be in the future',
      });
    }
    const notADate = await call(ben, 'POST', '/api/v1/statuses', { status: 'soon', scheduled_at: 'tomorrow' });
    expect(notADate.statusCode).toBe(422);
    expect(notADate.json().error).toMatch(/^Validation failed: Scheduled at must be a date/);
    const [{ count: after }] = (await queryRows<{ count: number }>(
      ctx.database.db,
      sql`select count(*)::int as count from drafts where author_id = ${ben.user._id}::uuid`,
    )) as [{ count: number }];
    expect(after).toBe(before);
  });

  it('masto.js: statuses.create with scheduledAt answers a ScheduledStatus', async () => {
    const client = createRestAPIClient({ url, accessToken: ben.token });
    const at = new Date(Date.now() + 2 * 24 * 60 * 60_000);
    at.setUTCSeconds(0, 0);
    const scheduled = await client.v1.statuses.create({
      status: 'A study for Thursday',
      scheduledAt: at.toISOString(),
      language: 'ja',
    });
    expect(scheduled).toMatchObject({
      scheduledAt: at.toISOString(),
      params: { text: 'A study for Thursday', language: 'ja' },
    });
    const read = await client.v1.scheduledStatuses.$select(scheduled.id).fetch();
    expect(read.params.text).toBe('A study for Thursday');
  });
});

describe('scheduled statuses through megalodon', () => {
  it('postStatus with scheduled_at answers a ScheduledStatus that getScheduledStatus reads back', async () => {
    // megalodon is CommonJS with an `exports.default` (see more.megalodon.test.ts).
    const loaded = megalodon as unknown as Generator | { default: Generator };
    const generator: Generator = typeof loaded === 'function' ? loaded : loaded.default;
    const client = generator('mastodon', url, ana.token);
    const at = new Date(Date.now() + 3 * 60 * 60_000);
    at.setUTCSeconds(0, 0);
    const posted = await client.postStatus('Sketches for the evening', {
      scheduled_at: at.toISOString(),
      language: 'es',
    });
    expect(posted.status).toBe(200);
    const scheduled = posted.data as Entity.ScheduledStatus;
    expect(scheduled.scheduled_at).toBe(at.toISOString());
    expect(scheduled.params).toMatchObject({ text: 'Sketches for the evening', language: 'es' });
    const read = await client.getScheduledStatus(scheduled.id);
    expect(read.data.params.text).toBe('Sketches for the evening');
  });
});

describe('media: blurhash and focus', () => {
  it('computes a 4x3 BlurHash at upload and keeps the focal point given on upload and update', async () => {
    const attachment = await upload(ana, [{ name: 'focus', data: '0.5,-0.25' }]);
    expect(isBlurhashValid(attachment.blurhash)).toEqual({ result: true });
    // 4x3 components: 1 + 1 + 4 + 2 × (4 × 3 - 1) characters.
    expect(attachment.blurhash).toHaveLength(28);
    expect(attachment.meta.focus).toEqual({ x: 0.5, y: -0.25 });
    const [row] = await queryRows<{ blurhash: string; focus_x: number; focus_y: number }>(
      ctx.database.db,
      sql`select blurhash, focus_x, focus_y from media where id = ${attachment.id}::uuid`,
    );
    expect(row).toEqual({ blurhash: attachment.blurhash, focus_x: 0.5, focus_y: -0.25 });

    const updated = await call(ana, 'PUT', `/api/v1/media/${attachment.id}`, { focus: '-1,1' });
    expect(updated.json().meta.focus).toEqual({ x: -1, y: 1 });
    expect(updated.json().blurhash).toBe(attachment.blurhash);
    for (const focus of ['2,0', '0.5', 'a,b', ',1']) {
      const bad = await call(ana, 'PUT', `/api/v1/media/${attachment.id}`, { focus });
      expect(bad.statusCode, focus).toBe(422);
      expect(bad.json().error).toBe('Validation failed: Focus must be two numbers from -1.0 to 1.0, as "x,y"');
    }

    // A work showing it carries both, and a later change of focus reaches the work.
    const created = await call(ana, 'POST', '/api/v1/statuses', { status: 'Focus', media_ids: [attachment.id] });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().media_attachments[0]).toMatchObject({
      blurhash: attachment.blurhash,
      meta: { focus: { x: -1, y: 1 } },
    });
    await call(ana, 'PUT', `/api/v1/media/${attachment.id}`, { focus: '0.1,0.2' });
    // The work's cache learns of it from the event the change published (after its commit).
    await eventually(async () => {
      const reread = await call(ben, 'GET', `/api/v1/statuses/${created.json().id}`);
      expect(reread.json().media_attachments[0].meta.focus).toEqual({ x: 0.1, y: 0.2 });
    }, 5000);
  });
});

describe('visibility', () => {
  it('refuses private and direct with a sentence saying why, and posts nothing', async () => {
    const someone = await signUp(ctx.app);
    for (const [visibility, words] of [
      ['private', /^Validation failed: Visibility private \(followers only\) is not available on this server/],
      ['direct', /^Validation failed: Visibility direct is not available on this server: there are no direct/],
    ] as const) {
      const response = await call(someone, 'POST', '/api/v1/statuses', { status: 'for a few', visibility });
      expect(response.statusCode).toBe(422);
      expect(response.json().error).toMatch(words);
      const scheduled = await call(someone, 'POST', '/api/v1/statuses', {
        status: 'later, for a few',
        visibility,
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expect(scheduled.statusCode).toBe(422);
    }
    const [{ count }] = (await queryRows<{ count: number }>(
      ctx.database.db,
      sql`select (select count(*) from posts where author_id = ${someone.user._id}::uuid)
               + (select count(*) from drafts where author_id = ${someone.user._id}::uuid) as count`,
    )) as [{ count: number }];
    expect(Number(count)).toBe(0);
    // unlisted is posted, as public.
    const unlisted = await call(someone, 'POST', '/api/v1/statuses', { status: 'open', visibility: 'unlisted' });
    expect(unlisted.json().visibility).toBe('public');
  });
});

/** The events of a server-sent-events text (`event:` and `data:` lines, a blank line after each). */
const eventsOf = (text: string) =>
  [...text.matchAll(/^event: (.+)\ndata: (.+)\n\n/gm)].map((match) => ({ event: match[1]!, data: match[2]! }));

/** Reads a server-sent-events answer until `found` holds of the text read so far; answers that text. */
async function readUntil(body: ReadableStream<Uint8Array>, found: (text: string) => boolean): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (!found(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return text;
}

describe('streaming as server-sent events', () => {
  it('streams public, hashtag and user events as event/data lines, and refuses as Mastodon does', async () => {
    const abort = new AbortController();
    try {
      const open = (path: string, token?: string) =>
        fetch(`${url}${path}`, {
          signal: abort.signal,
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
      const pub = await open('/api/v1/streaming/public');
      expect(pub.status).toBe(200);
      expect(pub.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const tag = await open('/api/v1/streaming/hashtag?tag=Harbour');
      const user = await open(`/api/v1/streaming/user?access_token=${encodeURIComponent(ben.token)}`);
      expect(user.status).toBe(200);
      // Each answer starts with a comment, once the connection is kept.
      for (const response of [pub, tag, user])
        expect(await readUntil(response.body!, (t) => t.includes('\n'))).toMatch(/^:/);

      // ben follows ana: her new work reaches his Home, the public stream and the tag's.
      expect((await call(ben, 'POST', `/api/v1/accounts/${ana.user._id}/follow`)).statusCode).toBe(200);
      const posted = await call(ana, 'POST', '/api/v1/statuses', { status: 'Streamed #harbour' });
      expect(posted.statusCode).toBe(200);
      const id = posted.json().id as string;
      for (const response of [pub, tag, user]) {
        const updateOf = (t: string) =>
          eventsOf(t).find((event) => event.event === 'update' && event.data.includes(id));
        const text = await readUntil(response.body!, (t) => updateOf(t) !== undefined);
        const update = updateOf(text);
        expect(update, text).toBeDefined();
        expect(JSON.parse(update!.data)).toMatchObject({ id, content: expect.stringContaining('Streamed') });
      }
      // A notification on the user stream: ana likes ben's work.
      const his = await call(ben, 'POST', '/api/v1/statuses', { status: 'Mine' });
      await call(ana, 'POST', `/api/v1/statuses/${his.json().id}/favourite`);
      const liked = (t: string) =>
        eventsOf(t).some((event) => event.event === 'notification' && event.data.includes('"favourite"'));
      const text = await readUntil(user.body!, liked);
      const notification = eventsOf(text).find(
        (event) => event.event === 'notification' && event.data.includes('"favourite"'),
      );
      expect(JSON.parse(notification!.data)).toMatchObject({ type: 'favourite', status: { id: his.json().id } });

      const refusals = await Promise.all([
        open('/api/v1/streaming/user'),
        open('/api/v1/streaming/user?access_token=not-a-token'),
        open('/api/v1/streaming/hashtag'),
        open('/api/v1/streaming/list'),
        open('/api/v1/streaming/nowhere'),
      ]);
      expect(refusals.map((response) => response.status)).toEqual([401, 401, 400, 400, 404]);
      expect(await Promise.all(refusals.map((response) => response.json()))).toEqual([
        { error: 'Missing access token' },
        { error: 'The access token is invalid' },
        { error: 'Missing tag name parameter' },
        { error: 'Unknown stream type' },
        { error: 'Record not found' },
      ]);
    } finally {
      abort.abort();
    }
  });
});
