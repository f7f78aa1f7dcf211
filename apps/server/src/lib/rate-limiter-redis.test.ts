import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createTestApp, uniqueUsername, type TestContext } from '../test/helpers.js';
import { RATE_LIMITS } from './rate-limiter.js';

// Rate limits counted in Redis (issue 25). The shared Redis at 127.0.0.1:6379 (CI and these machines run
// one) with a key prefix of this run's own; the fault test starts a private redis-server it may kill.
const SHARED_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const runPrefix = `share-arts-test:${process.pid}-${randomBytes(4).toString('hex')}:`;
const signupKey = 'signup:127.0.0.1';

const contexts: TestContext[] = [];
afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.close()));
  const redis = new Redis(SHARED_REDIS);
  const keys = await redis.keys(`${runPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

async function app(redisUrl: string, prefix: string, lines: string[] = []): Promise<TestContext> {
  const ctx = await createTestApp({
    config: {
      rateLimits: true,
      redisUrl,
      redisKeyPrefix: prefix,
      logLevel: 'info',
      logStream: { write: (line) => void lines.push(line) },
    },
  });
  contexts.push(ctx);
  return ctx;
}

const signup = (ctx: TestContext) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      fullname: 'Ana Maria Rivera',
      email: 'ana@example.com',
      username: uniqueUsername(),
      password: 'correct horse battery',
    },
  });

async function signups(ctx: TestContext, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += 1) statuses.push((await signup(ctx)).statusCode);
  return statuses;
}

const max = RATE_LIMITS.signupPerIp.max;

describe('rate limits in Redis', () => {
  it('are shared by two server processes: 6 sign-ups on one and 4 on the other, then both refuse', async () => {
    const prefix = `${runPrefix}shared:`;
    const one = await app(SHARED_REDIS, prefix);
    const other = await app(SHARED_REDIS, prefix);
    expect(await signups(one, 6)).toEqual(Array(6).fill(201));
    expect(await signups(other, max - 6)).toEqual(Array(max - 6).fill(201));
    const refused = await signup(other);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(55 * 60);
    expect((await signup(one)).statusCode).toBe(429);

    const redis = new Redis(SHARED_REDIS);
    expect(await redis.get(prefix + signupKey)).toBe(String(max + 2));
    expect(await redis.pttl(prefix + signupKey)).toBeGreaterThan(55 * 60_000);
    redis.disconnect();
  });

  it('fall back to memory while Redis is away, with one warning, and go back to Redis when it returns', async () => {
    const port = await freePort(6390, 6399);
    const url = `redis://127.0.0.1:${port}`;
    let server = await startRedis(port);
    const lines: string[] = [];
    const prefix = `${runPrefix}fault:`;
    const ctx = await app(url, prefix, lines);
    const logged = (text: string) => lines.filter((line) => line.includes(text)).length;
    try {
      const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
      await redis.connect();
      expect(await signups(ctx, 4)).toEqual([201, 201, 201, 201]);
      expect(await redis.get(prefix + signupKey)).toBe('4');
      redis.disconnect();

      await stopRedis(server);
      // Requests are answered at once, counted in this process's memory: a fresh window of `max`.
      const started = Date.now();
      expect(await signups(ctx, max)).toEqual(Array(max).fill(201));
      expect((await signup(ctx)).statusCode).toBe(429);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(logged('Redis does not answer')).toBe(1);

      server = await startRedis(port);
      for (let waited = 0; logged('Redis answers again') === 0 && waited < 10_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(logged('Redis answers again')).toBe(1);
      // Back in Redis (a new, empty one): counting starts there again.
      expect(await signups(ctx, 2)).toEqual([201, 201]);
      const back = new Redis(url);
      expect(await back.get(prefix + signupKey)).toBe('2');
      back.disconnect();
      expect(logged('Redis does not answer')).toBe(1);
    } finally {
      await stopRedis(server);
    }
  });
});

/** A throw-away redis-server on `port`, keeping nothing on disk; resolves once it takes connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let waited = 0; waited < 10_000; waited += 50) {
    const probe = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => {});
    const up = await probe.connect().then(
      () => true,
      () => false,
    );
    probe.disconnect();
    if (up) return child;
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode} on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not start on port ${port}`);
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function freePort(from: number, to: number): Promise<number> {
  for (let port = from; port <= to; port += 1) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${from} to ${to} for a private redis-server`);
}
