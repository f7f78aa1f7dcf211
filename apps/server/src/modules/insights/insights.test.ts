import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import yauzl from 'yauzl';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PostInsights, ProfileInsights } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { createPost, createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { privateRedis } from '../../test/redis.js';
import { createViewCounter, INSIGHTS_ERRORS, VIEW_ERRORS } from './index.js';
import { knownFediverseHosts, knownFediverseHostsQuery } from './insights.sql.js';

/**
 * Insights (issue 42): views counted once per person or visitor per day, never the artist's own or a bot's, gathered
 * and written in batches; where they came from; the counts shown to the artist only; the export and account deletion.
 */

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const OTHER_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

let ctx: TestContext;
let realNow: () => number;
beforeAll(async () => {
  ctx = await createTestApp();
  realNow = ctx.app.viewCounter.now;
}, 180_000);
afterEach(() => {
  ctx.app.viewCounter.now = realNow;
});
afterAll(async () => {
  await ctx.close();
});

const db = () => ctx.database.db;
const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });

/** The web app's beacon, from `who` (null: signed out) at an address with a user agent. */
async function view(
  who: SignedUp | null,
  body: object,
  {
    userAgent = BROWSER,
    address = '203.0.113.7',
    status = 204,
  }: { userAgent?: string; address?: string; status?: number } = {},
) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/views',
    payload: body,
    remoteAddress: address,
    headers: { ...(who ? auth(who) : {}), 'user-agent': userAgent },
  });
  expect(response.statusCode, response.body).toBe(status);
}

/** The stored rows of a work (or a profile), after the gathered views are written. */
async function rowsOf(subject: { postId: string } | { userId: string }) {
  const where =
    'postId' in subject
      ? sql`post_view_days where post_id = ${subject.postId}::uuid`
      : sql`profile_view_days where user_id = ${subject.userId}::uuid`;
  return queryRows<{ day: string; source: string; host: string; views: number }>(
    db(),
    sql`select to_char(day, 'YYYY-MM-DD') as day, source, host, views from ${where} order by day, source, host`,
  );
}

const total = (rows: { views: number }[]) => rows.reduce((sum, row) => sum + row.views, 0);

async function insightsOf<T = PostInsights>(who: SignedUp | null, url: string) {
  const response = await ctx.app.inject({ method: 'GET', url, headers: who ? auth(who) : {} });
  return { status: response.statusCode, body: response.json() as T, response };
}

describe('views', () => {
  it('count once per person per work a day, again the next day', async () => {
    const artist = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const postId = await createPost(ctx.app, artist, 'A heron at dawn');

    // The page, the viewer, a reload: one person, one view; from another browser of theirs too.
    await view(reader, { postId, source: 'home' });
    await view(reader, { postId, source: 'home' });
    await view(reader, { postId, source: 'profile' }, { userAgent: OTHER_BROWSER, address: '198.51.100.9' });
    await ctx.app.viewCounter.flush();
    const today = new Date().toISOString().slice(0, 10);
    expect(await rowsOf({ postId })).toEqual([{ day: today, source: 'home', host: '', views: 1 }]);

    // The next day (UTC) they count again.
    const tomorrow = Date.parse(`${today}T00:00:00Z`) + 86_400_000 + 60_000;
    ctx.app.viewCounter.now = () => tomorrow;
    await view(reader, { postId, source: 'home' });
    await view(reader, { postId, source: 'home' });
    await ctx.app.viewCounter.flush();
    expect(await rowsOf({ postId })).toEqual([
      { day: today, source: 'home', host: '', views: 1 },
      { day: new Date(tomorrow).toISOString().slice(0, 10), source: 'home', host: '', views: 1 },
    ]);
  });

  it('count once per signed-out visitor a day: an address and a browser', async () => {
    const artist = await signUp(ctx.app);
    const postId = await createPost(ctx.app, artist, 'Salt marsh');

    await view(null, { postId, source: 'direct' });
    await view(null, { postId, source: 'direct' });
    // Another browser at the same address, and the same browser elsewhere: other visitors.
    await view(null, { postId, source: 'direct' }, { userAgent: OTHER_BROWSER });
    await view(null, { postId, source: 'direct' }, { address: '192.0.2.44' });
    // An IPv6 client is told apart by its /64: another address in it is the same visitor.
    await view(null, { postId, source: 'direct' }, { address: '2001:db8:1:2::10' });
    await view(null, { postId, source: 'direct' }, { address: '2001:db8:1:2::99' });
    await ctx.app.viewCounter.flush();
    expect(total(await rowsOf({ postId }))).toBe(4);
  });

  it("leave out the artist's own views and bots'", async () => {
    const artist = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const postId = await createPost(ctx.app, artist, 'Cormorants');

    await view(artist, { postId, source: 'profile' });
    await view(artist, { username: artist.user.username, source: 'home' });
    for (const userAgent of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'facebookexternalhit/1.1',
      'curl/8.5.0',
      '',
    ]) {
      await view(null, { postId, source: 'direct' }, { userAgent, address: '192.0.2.80' });
    }
    await ctx.app.viewCounter.flush();
    expect(await rowsOf({ postId })).toEqual([]);
    expect(await rowsOf({ userId: artist.user._id })).toEqual([]);

    // Someone else counts, on the work and on the profile (its username in any letter case).
    await view(reader, { postId, source: 'profile' });
    await view(reader, { username: artist.user.username.toUpperCase(), source: 'search' });
    await ctx.app.viewCounter.flush();
    expect(total(await rowsOf({ postId }))).toBe(1);
    expect(await rowsOf({ userId: artist.user._id })).toMatchObject([{ source: 'search', views: 1 }]);
  });

  it('are gathered in memory and added to the day’s rows by each batch', async () => {
    const artist = await signUp(ctx.app);
    const postId = await createPost(ctx.app, artist, 'Tide pools');

    for (let n = 0; n < 5; n++) await view(null, { postId, source: 'explore' }, { address: `192.0.2.${100 + n}` });
    // Nothing is written while the page waits: only the batch writes.
    expect(await rowsOf({ postId })).toEqual([]);
    expect(await ctx.app.viewCounter.flush()).toBeGreaterThanOrEqual(5);
    expect(total(await rowsOf({ postId }))).toBe(5);

    // The next batch adds to the same row.
    for (let n = 0; n < 3; n++) await view(null, { postId, source: 'explore' }, { address: `192.0.2.${120 + n}` });
    await ctx.app.viewCounter.flush();
    expect(await rowsOf({ postId })).toMatchObject([{ source: 'explore', host: '', views: 8 }]);

    // An unknown work is not written, and breaks nothing; a malformed id is refused (400), counted nowhere.
    await view(null, { postId: '00000000-0000-4000-8000-000000000000', source: 'home' });
    await view(null, { postId: 'not-a-uuid', source: 'home' }, { status: 400 });
    await view(null, { postId, source: 'explore' }, { address: '192.0.2.200' });
    await ctx.app.viewCounter.flush();
    expect(total(await rowsOf({ postId }))).toBe(9);
  });

  it('say where they came from: the app, another site, a server of the fediverse', async () => {
    const artist = await signUp(ctx.app);
    const postId = await createPost(ctx.app, artist, 'Lighthouse');
    await queryRows(
      db(),
      sql`insert into remote_actors (iri, handle, inbox) values
          ('https://mastodon.example/users/kit', 'kit@mastodon.example', 'https://mastodon.example/users/kit/inbox')
          on conflict (iri) do nothing`,
    );

    await view(null, { postId, source: 'tag' }, { address: '192.0.2.1' });
    await view(null, { postId, source: 'tag' }, { address: '192.0.2.2' });
    await view(null, { postId, source: 'external', host: 'Blog.Example.org' }, { address: '192.0.2.3' });
    await view(null, { postId, source: 'external', host: 'mastodon.example' }, { address: '192.0.2.4' });
    // Not a host name: refused (400); an external view that names no host is counted as direct.
    await view(null, { postId, source: 'external', host: 'https://x.example/path' }, { status: 400 });
    await view(null, { postId, source: 'external' }, { address: '192.0.2.5' });
    await view(null, { postId, source: 'external' }, { address: '192.0.2.6' });
    await ctx.app.viewCounter.flush();

    const { status, body } = await insightsOf(artist, `/api/insights/posts/${postId}?days=7`);
    expect(status).toBe(200);
    expect(body.sources).toEqual([
      { source: 'direct', host: null, views: 2 },
      { source: 'tag', host: null, views: 2 },
      { source: 'external', host: 'blog.example.org', views: 1 },
      { source: 'federated', host: 'mastodon.example', views: 1 },
    ]);
    expect(body.totals.views).toBe(6);
  });

  it('find a referrer host among remote people by remote_actors_host_idx, https only (migration 0050)', async () => {
    await queryRows(
      db(),
      sql`insert into remote_actors (iri, handle, inbox) values
          ('https://pixelfed.example/users/ana', 'ana@pixelfed.example', 'https://pixelfed.example/users/ana/inbox'),
          ('http://plain.example/users/bo', 'bo@plain.example', 'http://plain.example/users/bo/inbox')
          on conflict (iri) do nothing`,
    );
    const hosts = ['pixelfed.example', 'plain.example', 'pixelfed.example.evil', 'nobody.example'];
    expect(await knownFediverseHosts(db(), hosts)).toEqual(['pixelfed.example']);
    // The plan probes the host index per host. On a table this small the planner's own choice is a scan and a hash;
    // told not to, it must find the index usable for this very statement (a probe per host, as on a large table).
    const plan = await db().transaction(async (tx) => {
      for (const setting of ['enable_seqscan', 'enable_hashjoin', 'enable_mergejoin', 'enable_bitmapscan'])
        await tx.execute(sql.raw(`set local ${setting} = off`));
      const rows = await queryRows<Record<string, string>>(tx, sql`explain ${knownFediverseHostsQuery(hosts)}`);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toContain('remote_actors_host_idx');
  });

  it('refuse a beacon that names neither or both of a work and a profile, or an unknown source', async () => {
    for (const payload of [{ source: 'home' }, { postId: crypto.randomUUID(), username: 'someone', source: 'home' }]) {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/views', payload });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response)).toBe(VIEW_ERRORS.subject);
    }
    const federated = await ctx.app.inject({
      method: 'POST',
      url: '/api/views',
      payload: { postId: crypto.randomUUID(), source: 'federated' },
    });
    expect(federated.statusCode).toBe(400);
  });

  it('with REDIS_URL, are told apart across processes, and Redis holds no address', async () => {
    const redis = await privateRedis();
    const prefix = `insights-${process.pid}:`;
    const quiet = { warn: () => {} };
    // Two processes' counters (each its own memory), one Redis; patient, so a loaded machine does not fall back.
    const [one, two] = [0, 1].map(() =>
      createViewCounter({ db: db(), log: quiet, redisUrl: redis.url, redisKeyPrefix: prefix, redisTimeoutMs: 5000 }),
    );
    try {
      const artist = await signUp(ctx.app);
      const postId = await createPost(ctx.app, artist, 'Night heron');
      const visit = (address: string) => ({
        kind: 'post' as const,
        subject: postId,
        viewerId: null,
        address,
        userAgent: BROWSER,
        source: 'home' as const,
        host: '',
      });
      expect(one!.store()).toBe('redis');
      expect(await one!.record(visit('192.0.2.150'))).toBe(true);
      expect(await two!.record(visit('192.0.2.150'))).toBe(false);
      expect(await two!.record(visit('192.0.2.151'))).toBe(true);
      await one!.flush();
      await two!.flush();
      expect(total(await rowsOf({ postId }))).toBe(2);

      // The day's salt and the keys seen, expiring with the day; never the address or the browser.
      const client = new Redis(redis.url);
      const keys = await client.keys(`${prefix}*`);
      expect(keys.filter((key) => key.includes(':salt:'))).toHaveLength(1);
      expect(keys.filter((key) => key.includes(':seen:'))).toHaveLength(2);
      for (const key of keys) {
        expect(key).not.toContain('192.0.2');
        expect(await client.pttl(key)).toBeGreaterThan(0);
      }
      client.disconnect();
    } finally {
      await Promise.all([one!.close(), two!.close()]);
      await redis.kill();
    }
  });
});

describe('insights', () => {
  it("are the artist's alone: views, likes, saves and collections per day, and the works seen most", async () => {
    const artist = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const postId = await createPost(ctx.app, artist, 'Kingfisher');
    await createPost(ctx.app, artist, 'Unseen');

    await view(reader, { postId, source: 'home' });
    await view(null, { postId, source: 'home' }, { address: '192.0.2.31' });
    await view(reader, { username: artist.user.username, source: 'post' });
    await ctx.app.viewCounter.flush();
    const minimal = { ...auth(reader), prefer: 'return=minimal' };
    const like = await ctx.app.inject({ method: 'POST', url: `/api/posts/like/${postId}`, headers: minimal });
    expect(like.statusCode, like.body).toBe(201);
    const save = await ctx.app.inject({ method: 'POST', url: `/api/users/bookmark/${postId}`, headers: minimal });
    expect(save.statusCode, save.body).toBeLessThan(300);
    // The reader's collection holds it (the artist's own collections do not count).
    await queryRows(
      db(),
      sql`with c as (insert into collections (owner_id, slug, title) values (${reader.user._id}::uuid, 'birds', 'Birds')
                     returning id)
          insert into collection_works (collection_id, post_id, position) select id, ${postId}::uuid, 65536 from c`,
    );

    const mine = await insightsOf(artist, `/api/insights/posts/${postId}?days=7`);
    expect(mine.status, mine.response.body).toBe(200);
    expect(mine.body.totals).toEqual({ views: 2, likes: 1, saves: 1, collections: 1 });
    expect(mine.body.daily).toHaveLength(7);
    expect(mine.body.daily.at(-1)).toMatchObject({ day: mine.body.to, views: 2, likes: 1, saves: 1, collections: 1 });
    expect(mine.body.daily[0]).toMatchObject({ day: mine.body.from, views: 0, likes: 0 });

    // Nobody else sees them: the same answer as an unknown work.
    for (const url of [`/api/insights/posts/${postId}`, '/api/insights/posts/00000000-0000-4000-8000-000000000000']) {
      const theirs = await insightsOf(reader, url);
      expect(theirs.status).toBe(404);
      expect(errorOf(theirs.response)).toBe(INSIGHTS_ERRORS.postNotFound);
    }
    expect((await insightsOf(null, `/api/insights/posts/${postId}`)).status).toBe(401);
    expect((await insightsOf(null, '/api/insights/profile')).status).toBe(401);
    expect((await insightsOf(artist, `/api/insights/posts/${postId}?days=5`)).status).toBe(400);

    const profile = await insightsOf<ProfileInsights>(artist, '/api/insights/profile?days=90');
    expect(profile.status).toBe(200);
    expect(profile.body.daily).toHaveLength(90);
    expect(profile.body.totals).toEqual({ views: 1, likes: 1, saves: 1, collections: 1 });
    expect(profile.body.workViews).toBe(2);
    expect(profile.body.sources).toEqual([{ source: 'post', host: null, views: 1 }]);
    expect(profile.body.works).toEqual([
      { _id: postId, content: 'Kingfisher', thumbnail: null, views: 2, likes: 1, saves: 1, collections: 1 },
    ]);
    // The reader's own insights know nothing of the artist's.
    const readers = await insightsOf<ProfileInsights>(reader, '/api/insights/profile?days=7');
    expect(readers.body.totals).toEqual({ views: 0, likes: 0, saves: 0, collections: 0 });
    expect(readers.body.works).toEqual([]);
  });

  it('are in the export, and go with the account', async () => {
    const artist = await signUp(ctx.app);
    const postId = await createPost(ctx.app, artist, 'Estuary');
    await view(null, { postId, source: 'search' }, { address: '192.0.2.60' });
    await view(null, { username: artist.user.username, source: 'external', host: 'example.net' });
    await ctx.app.viewCounter.flush();

    const link = await ctx.app.inject({ method: 'POST', url: '/api/account/export', headers: auth(artist) });
    expect(link.statusCode, link.body).toBe(201);
    const zip = await ctx.app.inject({ method: 'GET', url: link.json().url });
    expect(zip.statusCode).toBe(200);
    const entries = await unzip(zip.rawPayload);
    const today = new Date().toISOString().slice(0, 10);
    expect(JSON.parse(entries.get('insights.json')!.toString('utf8'))).toEqual([
      { day: today, postId: null, source: 'external', host: 'example.net', views: 1 },
      { day: today, postId, source: 'search', host: null, views: 1 },
    ]);

    const deleted = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: auth(artist),
      payload: { password: artist.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rowsOf({ postId })).toEqual([]);
    expect(await rowsOf({ userId: artist.user._id })).toEqual([]);
  });
});

/** Every entry of a zip, by name. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return reject(streamErr);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
          stream.on('error', reject);
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}
