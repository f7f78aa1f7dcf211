import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { RATE_LIMITS } from './rate-limiter.js';
import { createTestApp, signUp, uniqueUsername, type TestContext } from '../test/helpers.js';
import { writeReliabilitySection } from '../../../../scripts/reliability-report.mjs';
import { afterAllTests } from '../security/fixtures.js';

let ctx: TestContext;
let clock = Date.parse('2026-11-22T12:00:00Z');
beforeAll(async () => {
  ctx = await createTestApp({ config: { rateLimits: true, now: () => clock } });
});
afterAll(() => ctx.close());

/** Figures for docs/reliability.md: each test's requests as they are answered, and the Retry-After of its 429s. */
const figures: Record<string, { statuses: Record<number, number>; retryAfter: Set<string> }> = {};
function observed(response: LightMyRequestResponse): LightMyRequestResponse {
  const test = expect.getState().currentTestName?.split(' > ').at(-1) ?? 'setup';
  const entry = (figures[test] ??= { statuses: {}, retryAfter: new Set() });
  entry.statuses[response.statusCode] = (entry.statuses[response.statusCode] ?? 0) + 1;
  if (response.statusCode === 429) entry.retryAfter.add(String(response.headers['retry-after']));
  return response;
}
afterAllTests(async (failed) => {
  const limits = Object.entries(RATE_LIMITS)
    .map(([name, limit]) => `${name} ${limit.max} per ${limit.windowMs / 60_000} min`)
    .join(', ');
  await writeReliabilitySection(
    'rate-limits',
    [
      `\`src/lib/rate-limiter.test.ts\`, with a test clock (limits: ${limits}). Each limit answered 429 with ` +
        '`Retry-After` and the error shape past its maximum, and let requests through again once its window passed.',
      '',
      `- Faults found: ${failed.length === 0 ? 0 : `${failed.length} (failed: ${failed.join('; ')})`}.`,
      '',
      '| test | requests | statuses | Retry-After (s) |',
      '| --- | ---: | --- | --- |',
      ...Object.entries(figures).map(
        ([test, f]) =>
          `| ${test} | ${Object.values(f.statuses).reduce((a, b) => a + b, 0)} | ${Object.entries(f.statuses)
            .map(([status, n]) => `${status} × ${n}`)
            .join(', ')} | ${[...f.retryAfter].join(', ') || '–'} |`,
      ),
    ].join('\n'),
  );
});

const login = (username: string, options: { url?: string; headers?: Record<string, string>; ip?: string } = {}) =>
  ctx.app
    .inject({
      method: 'POST',
      url: options.url ?? '/api/auth/login',
      payload: { username, password: 'wrong-password' },
      headers: options.headers,
      remoteAddress: options.ip ?? '10.0.0.1',
    })
    .then(observed);

describe('rate limits', () => {
  it('limit login per account, whatever the letter case, query string or X-Forwarded-For, with 429 and Retry-After', async () => {
    const { user } = await signUp(ctx.app, { username: uniqueUsername('limited') });
    const tries = [
      () => login(user.username),
      () => login(user.username.toUpperCase()),
      () => login(` ${user.username} `, { url: '/api/auth/login?x=1' }),
      () => login(user.username, { headers: { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 200)}` } }),
    ];
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.loginPerAccount.max; i++)
      statuses.push((await tries[i % tries.length]!()).statusCode);
    expect(statuses.every((s) => s === 401)).toBe(true);
    for (const attempt of tries) {
      const refused = await attempt();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().errors[0]).toMatch(/^Too many requests\. Please try again in \d+ s\.$/);
    }
    // A trailing slash or another letter case is not the login route at all.
    expect((await login(user.username, { url: '/api/auth/login/' })).statusCode).toBe(404);
    expect((await login(user.username, { url: '/API/auth/login' })).statusCode).toBe(404);
    clock += RATE_LIMITS.loginPerAccount.windowMs;
    expect((await login(user.username)).statusCode).toBe(401);
  });

  it('limit login per address across accounts', async () => {
    const ip = '10.0.0.2';
    let last = 0;
    for (let i = 0; i <= RATE_LIMITS.loginPerIp.max; i++) last = (await login(`nobody_${i}`, { ip })).statusCode;
    expect(last).toBe(429);
    expect((await login('nobody_x', { ip: '10.0.0.3' })).statusCode).toBe(404);
    clock += RATE_LIMITS.loginPerIp.windowMs;
    expect((await login('nobody_y', { ip })).statusCode).toBe(404);
  });

  it('limit signups per address', async () => {
    const signup = () =>
      ctx.app
        .inject({
          method: 'POST',
          url: '/api/auth/signup',
          remoteAddress: '10.0.0.4',
          payload: {
            fullname: 'Rate Limited',
            email: 'r@example.com',
            username: uniqueUsername('sig'),
            password: 'long-enough-1',
          },
        })
        .then(observed);
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.signupPerIp.max; i++) statuses.push((await signup()).statusCode);
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    clock += RATE_LIMITS.signupPerIp.windowMs;
    expect((await signup()).statusCode).toBe(201);
  });

  it("limit each user's writes, and leave reads alone", async () => {
    const me = await signUp(ctx.app, { username: uniqueUsername('writer') });
    const write = () =>
      ctx.app
        .inject({
          method: 'POST',
          url: '/api/users/edit',
          payload: { userData: { bio: 'x' } },
          headers: { authorization: me.token },
        })
        .then(observed);
    let last = 0;
    for (let i = 0; i <= RATE_LIMITS.writePerUser.max; i++) last = (await write()).statusCode;
    expect(last).toBe(429);
    const read = observed(
      await ctx.app.inject({
        method: 'GET',
        url: '/api/users/suggestions',
        headers: { authorization: me.token },
      }),
    );
    expect(read.statusCode).toBe(200);
    clock += RATE_LIMITS.writePerUser.windowMs;
    expect((await write()).statusCode).toBe(201);
  });
});
