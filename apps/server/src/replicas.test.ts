import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openPostgres, queryRows, type Database } from './db/client.js';
import { migrate } from './db/migrate.js';
import { openReplicas } from './db/replicas.js';
import { postgresBinaries, TestCluster } from './test/pg-cluster.js';
import { signUp, type SignedUp } from './test/helpers.js';

describe('DATABASE_REPLICA_URLS', () => {
  const primary = 'postgres://app@db1:5432/sharearts';
  it('takes comma-separated PostgreSQL URLs and a lag bound', () => {
    const config = loadConfig({
      DATABASE_URL: primary,
      DATABASE_REPLICA_URLS: ' postgres://app@db2:5432/sharearts, postgresql://app@db3/sharearts ,',
      DATABASE_REPLICA_MAX_LAG_MS: '2500',
    });
    expect(config.databaseReplicas).toEqual({
      urls: ['postgres://app@db2:5432/sharearts', 'postgresql://app@db3/sharearts'],
      maxLagMs: 2500,
    });
    expect(loadConfig({ DATABASE_URL: primary }).databaseReplicas).toBeUndefined();
  });

  it('refuses replicas without DATABASE_URL, a URL that is not PostgreSQL, and a bad lag bound', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgres://app@db2/sharearts' })).toThrow(
      /DATABASE_REPLICA_URLS needs DATABASE_URL: the embedded database \(PGlite\) has no replicas/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: 'postgres://app@db2/x,mysql://root:secret@db3/x' }),
    ).toThrow(/"mysql:\/\/…@db3\/x" is not one/);
    for (const lag of ['fast', '50', '-1', '1.5']) {
      expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_MAX_LAG_MS: lag })).toThrow(ConfigError);
    }
  });
});

const binaries = postgresBinaries();
// It makes its own primary and replica: once per CI run is enough (the PGlite pass, without DATABASE_URL).
const skip = 'missing' in binaries ? binaries.missing : process.env.DATABASE_URL ? 'runs in the PGlite pass' : '';
if (skip) console.warn(`Read replica tests skipped: ${skip}.`);

describe.skipIf(skip !== '')('read replicas (a private primary and streaming replica)', () => {
  const MAX_LAG_MS = 3000;
  const ports = [5440, 5441, 5442, 5443, 5444, 5445, 5446, 5447, 5448, 5449];
  let primary: TestCluster;
  let replica: TestCluster;
  let database: Database;
  let app: FastifyInstance;
  let mediaDir: string;
  let replicaAdmin: pg.Client;
  let author: SignedUp;
  let postId: string;
  let config: Config;

  const replicaState = () => app.readRouting.status()[0]!;
  const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 10_000) => {
    for (const started = Date.now(); !(await check());) {
      if (Date.now() - started > ms) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const comments = async (token?: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/comments/${postId}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    expect(response.statusCode).toBe(200);
    return (response.json().comments as { content: string }[]).map((comment) => comment.content);
  };
  const get = async (url: string, who?: SignedUp) => {
    const response = await app.inject({
      method: 'GET',
      url,
      headers: who ? { authorization: `Bearer ${who.token}` } : {},
    });
    expect(response.statusCode, url).toBe(200);
    return response.json();
  };
  const likeCount = async (who?: SignedUp): Promise<number> =>
    (await get(`/api/posts/${postId}`, who)).post.likes.likeCount;
  const explore = async (who?: SignedUp): Promise<string[]> =>
    (await get('/api/posts', who)).posts.map((post: { content: string }) => post.content);
  const comment = async (who: SignedUp, content: string) => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comment`,
      payload: { commentData: { content } },
      headers: { authorization: `Bearer ${who.token}`, prefer: 'return=minimal' },
    });
    expect(response.statusCode).toBe(201);
  };

  beforeAll(async () => {
    if ('missing' in binaries) return;
    primary = await TestCluster.primary(binaries.bin, ports);
    replica = await TestCluster.replicaOf(primary, ports);
    const admin = new pg.Client({ connectionString: primary.url() });
    await admin.connect();
    await admin.query('create database sharearts');
    await admin.end();
    database = await openPostgres(primary.url('sharearts'));
    await migrate(database);
    mediaDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-media-'));
    config = {
      ...loadConfig({}),
      databaseUrl: primary.url('sharearts'),
      databaseReplicas: { urls: [replica.url('sharearts')], maxLagMs: MAX_LAG_MS },
      jwtSecret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
      mediaDir,
      // API only: no web build to serve or render pages with.
      webDistDir: path.join(mediaDir, 'no-web-build'),
      logLevel: 'silent',
      passwordHashCost: 1024,
      rateLimits: false,
      checkResponses: true,
    };
    app = await buildApp(config, database);
    await app.ready();
    replicaAdmin = new pg.Client({ connectionString: replica.url('sharearts') });
    await replicaAdmin.connect();
    replicaAdmin.on('error', () => {});

    author = await signUp(app);
    const created = await app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'Harbour at dawn' },
      headers: { authorization: `Bearer ${author.token}` },
    });
    expect(created.statusCode).toBe(201);
    postId = created.json().posts[0]._id;
  }, 120_000);

  afterAll(async () => {
    await replicaAdmin?.end().catch(() => {});
    await app?.close();
    await database?.close();
    replica?.destroy();
    primary?.destroy();
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
  });

  it('sends the pages’ reads to the replica once it has caught up', async () => {
    await until('the replica is usable', () => replicaState().usable);
    const rows = await queryRows<{ standby: boolean }>(
      app.readRouting.reader(null),
      sql`select pg_is_in_recovery() as standby`,
    );
    expect(rows).toEqual([{ standby: true }]);

    const served = replicaState().served;
    for (const url of [
      '/api/posts',
      `/api/posts/${postId}`,
      `/api/posts/user/${author.user.username}`,
      '/api/users',
      `/api/users/by-username/${author.user.username}`,
      `/api/comments/${postId}`,
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
    }
    expect(replicaState().served).toBeGreaterThanOrEqual(served + 7);
    // And the replica itself counts them: transactions committed in this database on the standby.
    const before = await standbyTransactions();
    for (let i = 0; i < 20; i += 1) await app.inject({ method: 'GET', url: `/api/comments/${postId}` });
    await until('the standby counts the reads', async () => (await standbyTransactions()) >= before + 20, 5000);
    // The operators' metrics show the replica's pool beside the primary's.
    const metrics = await app.inject({ method: 'GET', url: '/api/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain(`sharearts_db_pool_connections{pool="replica 127.0.0.1:${replica.port}/sharearts"}`);
  });

  async function standbyTransactions(): Promise<number> {
    // A standby keeps statistics of its own; they are flushed about once a second.
    const { rows } = await replicaAdmin.query<{ n: string }>(
      `select xact_commit::text as n from pg_stat_database where datname = 'sharearts'`,
    );
    return Number(rows[0]!.n);
  }

  it('shows a person their own comment at once, while the replica has not replayed it yet; skips the replica once it lags', async () => {
    const reader = await signUp(app);
    await until('the replica is usable', () => replicaState().usable);
    await replicaAdmin.query('select pg_wal_replay_pause()');
    try {
      await comment(reader, 'Lovely light');
      const headers = { authorization: `Bearer ${reader.token}`, prefer: 'return=minimal' };
      expect((await app.inject({ method: 'POST', url: `/api/posts/like/${postId}`, headers })).statusCode).toBe(201);
      const posted = await app.inject({ method: 'POST', url: '/api/posts', payload: { content: 'Low tide' }, headers });
      expect(posted.statusCode).toBe(201);
      // The writer reads from the primary: their comment, like and post are there.
      expect(await comments(reader.token)).toContain('Lovely light');
      expect(await likeCount(reader)).toBe(1);
      expect(await explore(reader)).toContain('Low tide');
      // Someone else, within the lag bound, reads from the replica, which has not replayed them: the
      // routing, not luck, is what showed them to the writer.
      const served = replicaState().served;
      expect(await comments()).not.toContain('Lovely light');
      expect(await likeCount()).toBe(0);
      expect(await explore()).not.toContain('Low tide');
      expect(replicaState().served).toBeGreaterThan(served);

      // Replay stays paused while the primary moves on: past the bound, the replica is skipped and
      // everyone reads the primary.
      await until('the paused replica is skipped', () => !replicaState().usable, MAX_LAG_MS + 3000);
      expect(replicaState().up).toBe(true);
      const skipped = replicaState().served;
      expect(await comments()).toContain('Lovely light');
      expect(await likeCount()).toBe(1);
      expect(await explore()).toContain('Low tide');
      expect(replicaState().served).toBe(skipped);
    } finally {
      await replicaAdmin.query('select pg_wal_replay_resume()');
    }
    await until('the replica has caught up again', () => replicaState().usable);
    expect(await comments()).toContain('Lovely light');
  });

  it("carries a writer's mark to another process in a cookie, so their next read there sees the write too", async () => {
    // A second server process on the same primary and replica, as another machine behind a load balancer.
    const other = await buildApp(config, database);
    await other.ready();
    const writer = await signUp(app);
    await until('the replica is usable', () => replicaState().usable);
    await until('the other process finds the replica usable', () => other.readRouting.status()[0]!.usable);
    await replicaAdmin.query('select pg_wal_replay_pause()');
    try {
      const liked = await app.inject({
        method: 'POST',
        url: `/api/posts/like/${postId}`,
        headers: { authorization: `Bearer ${writer.token}`, prefer: 'return=minimal' },
      });
      expect(liked.statusCode).toBe(201);
      const cookie = String(liked.headers['set-cookie']);
      expect(cookie).toMatch(/^sa_primary_until=\d+; Max-Age=4; Path=\/api; HttpOnly; SameSite=Strict$/);
      const likedByWriter = async (headers: Record<string, string>) => {
        const response = await other.inject({
          method: 'GET',
          url: `/api/posts/${postId}`,
          headers: { authorization: `Bearer ${writer.token}`, ...headers },
        });
        expect(response.statusCode).toBe(200);
        return (response.json().post.likes.likedBy as { _id: string }[]).map((user) => user._id);
      };
      // Without the cookie the other process does not know of the write, and its replica has not replayed
      // it; nor with a mark that has run out.
      expect(await likedByWriter({})).not.toContain(writer.user._id);
      expect(await likedByWriter({ cookie: `sa_primary_until=${Date.now() - 1}` })).not.toContain(writer.user._id);
      // With it, the writer's reads there go to the primary.
      expect(await likedByWriter({ cookie: cookie.split(';')[0]! })).toContain(writer.user._id);
    } finally {
      await replicaAdmin.query('select pg_wal_replay_resume()');
      await other.close();
    }
    await until('the replica has caught up again', () => replicaState().usable);
  });

  it('does not let a replica that went silent hold back the others', async () => {
    // A host that accepts connections and never answers: each poll of it waits for its timeout.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const reads = await openReplicas(
      database.db,
      [`postgres://postgres@127.0.0.1:${port}/sharearts`, replica.url('sharearts')],
      { maxLagMs: 1000 },
    );
    try {
      const started = Date.now();
      await until('the answering replica is usable', () => reads.status()[1]!.usable, 5000);
      // Its lag stays within the bound while the silent one's checks time out.
      for (let i = 0; i < 20; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(reads.status()[1]).toMatchObject({ up: true, usable: true });
      }
      expect(reads.status()[0]).toMatchObject({ up: false, usable: false });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await reads.close();
      silent.close();
    }
  });

  it('keeps answering when the replica goes away, from the primary', async () => {
    await until('the replica is usable', () => replicaState().usable);
    await replicaAdmin.end();
    await replica.stop();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      for (const url of ['/api/users', `/api/comments/${postId}`]) {
        statuses.push((await app.inject({ method: 'GET', url })).statusCode);
      }
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    await until('the replica is marked down', () => !replicaState().up);
    expect(replicaState().usable).toBe(false);
    expect(app.readRouting.reader(null)).toBe(database.db);
    expect(await comments()).toContain('Lovely light');
  });

  it('starts with a replica that is away, reading from the primary and saying so', async () => {
    const warnings: string[] = [];
    const log = { warn: (_: object, message: string) => void warnings.push(message), info: () => {} };
    const reads = await openReplicas(database.db, [replica.url('sharearts')], { maxLagMs: 1000, log });
    try {
      expect(reads.status()).toMatchObject([{ up: false, usable: false }]);
      expect(reads.reader(null)).toBe(database.db);
      expect(warnings).toEqual(['read replica unreachable: its reads go to the primary until it answers again']);
    } finally {
      await reads.close();
    }
  });
});
