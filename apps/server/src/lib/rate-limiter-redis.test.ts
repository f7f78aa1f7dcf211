import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createTestApp, signUp, uniqueUsername, type TestContext } from '../test/helpers.js';
import { anotherProcess, privateRedis, type PrivateRedis } from '../test/redis.js';
import { RATE_LIMITS } from './rate-limiter.js';

// Rate limits counted in Redis (issue 25), in a private redis-server started here on a free port of
// 6390-6399 (never the machine's shared one at 6379): the fault test kills and restarts it.
const runPrefix = `share-arts-test:${process.pid}-${randomBytes(4).toString('hex')}:`;
const signupKey = 'signup:127.0.0.1';

let server: PrivateRedis;
let url: string;
beforeAll(async () => {
  server = await privateRedis();
  url = server.url;
});
const contexts: TestContext[] = [];
afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.close()));
  await server.kill();
});

/**
 * An app counting in Redis. `patient`: it waits up to 5 s for each Redis command, where the production 300 ms lets a
 * loaded machine (CI, 2 cores) make it count in memory now and then, which the tests of what Redis shares would
 * read as Redis not sharing (a failure seen in CI).
 */
async function app(redisUrl: string, prefix: string, lines: string[] = [], patient = true): Promise<TestContext> {
  const ctx = await createTestApp({
    config: {
      rateLimits: true,
      redisUrl,
      redisKeyPrefix: prefix,
      ...(patient ? { redisCommandTimeoutMs: 5000 } : {}),
      logLevel: 'info',
      logStream: { write: (line) => void lines.push(line) },
      // API only: no web build to serve.
      webDistDir: '/nonexistent',
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

// Each test builds whole apps (a migrated database each): seconds alone, longer on a busy machine.
describe('rate limits in Redis', { timeout: 120_000 }, () => {
  it('are shared by two server processes: 6 sign-ups on one and 4 on the other, then both refuse', async () => {
    const prefix = `${runPrefix}shared:`;
    const lines: string[] = [];
    const [one, other] = await Promise.all([app(url, prefix, lines), app(url, prefix, lines)]);
    expect(await signups(one, 6)).toEqual(Array(6).fill(201));
    expect(await signups(other, max - 6)).toEqual(Array(max - 6).fill(201));
    // Every count went to Redis: neither process fell back to its memory.
    expect(lines.filter((line) => line.includes('Redis does not answer'))).toEqual([]);
    const refused = await signup(other);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(55 * 60);
    expect((await signup(one)).statusCode).toBe(429);

    const redis = new Redis(url);
    expect(await redis.get(prefix + signupKey)).toBe(String(max + 2));
    expect(await redis.pttl(prefix + signupKey)).toBeGreaterThan(55 * 60_000);
    redis.disconnect();
  });

  it('trust an address that signed in through one process in every other, past the hard limit', async () => {
    const prefix = `${runPrefix}trust:`;
    const one = await app(url, prefix);
    // A second process on the same database: its own memory, the same Redis.
    const other = await anotherProcess(one);
    try {
      const login = (target: TestContext['app'], username: string, ip: string, password = 'wrong-password') =>
        target.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: ip });
      const { user, password } = await signUp(one.app, { username: uniqueUsername('besieged') });
      const home = '10.9.0.1';
      expect((await login(one.app, user.username, home, password)).statusCode).toBe(200);
      for (let i = 0; i < RATE_LIMITS.loginFailuresPerAccountHard.max; i++) {
        const target = i % 2 === 0 ? one.app : other;
        expect((await login(target, user.username, `2001:db8:${i.toString(16)}::1`)).statusCode).toBe(401);
      }
      expect((await login(other, user.username, '2001:db8:ffff::2', password)).statusCode).toBe(429);
      expect((await login(other, user.username, home, password)).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('fall back to memory while Redis is away, with one warning, and go back to Redis when it returns', async () => {
    const lines: string[] = [];
    const prefix = `${runPrefix}fault:`;
    const ctx = await app(url, prefix, lines, false);
    const logged = (text: string) => lines.filter((line) => line.includes(text)).length;
    const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
    await redis.connect();
    expect(await signups(ctx, 4)).toEqual([201, 201, 201, 201]);
    expect(await redis.get(prefix + signupKey)).toBe('4');
    redis.disconnect();

    await server.kill();
    // Requests are answered at once, counted in this process's memory: a fresh window of `max`.
    const started = Date.now();
    expect(await signups(ctx, max)).toEqual(Array(max).fill(201));
    expect((await signup(ctx)).statusCode).toBe(429);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(logged('Redis does not answer')).toBe(1);

    await server.restart();
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
  });
});
