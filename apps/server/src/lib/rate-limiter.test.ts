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

const login = (
  username: string,
  options: { url?: string; headers?: Record<string, string>; ip?: string; password?: string } = {},
) =>
  ctx.app
    .inject({
      method: 'POST',
      url: options.url ?? '/api/auth/login',
      payload: { username, password: options.password ?? 'wrong-password' },
      headers: options.headers,
      remoteAddress: options.ip ?? '10.0.0.1',
    })
    .then(observed);

const FAILURES = RATE_LIMITS.loginFailuresPerAccount.max;

describe('rate limits', () => {
  it('after 10 wrong passwords from one address, that address is refused and the owner elsewhere signs in', async () => {
    const jules = await signUp(ctx.app, { username: 'jules' });
    const attacker = '198.51.100.7';
    const statuses: number[] = [];
    for (let i = 0; i < FAILURES; i++) statuses.push((await login('jules', { ip: attacker })).statusCode);
    expect(statuses).toEqual(Array(FAILURES).fill(401));
    // The attacker's address is done guessing, even with the right password (it learns nothing).
    for (const password of ['another-guess', jules.password]) {
      const refused = await login('jules', { ip: attacker, password });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().errors[0]).toMatch(/^Too many requests\. Please try again in \d+ s\.$/);
    }
    // jules, from another address, with the right password: signed in.
    const owner = await login('jules', { ip: '203.0.113.20', password: jules.password });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().foundUser.username).toBe('jules');
    clock += RATE_LIMITS.loginFailuresPerAccount.windowMs;
    expect((await login('jules', { ip: attacker })).statusCode).toBe(401);
    clock += RATE_LIMITS.loginFailuresPerAccount.windowMs;
  });

  it('guessing stays limited: past the limit each other address gets one wrong guess, whatever spelling it uses', async () => {
    const { user, password } = await signUp(ctx.app, { username: uniqueUsername('guessed') });
    const spellings = [user.username, user.username.toUpperCase(), ` ${user.username} `];
    for (let i = 0; i < FAILURES; i++) {
      const response = await login(spellings[i % spellings.length]!, {
        ip: '10.1.0.1',
        url: i % 2 ? '/api/auth/login?x=1' : '/api/auth/login',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      expect(response.statusCode).toBe(401);
    }
    for (const spelling of spellings) expect((await login(spelling, { ip: '10.1.0.1' })).statusCode).toBe(429);
    for (let i = 2; i < 6; i++) {
      expect((await login(user.username, { ip: `10.1.0.${i}` })).statusCode).toBe(401);
      expect((await login(user.username, { ip: `10.1.0.${i}`, password })).statusCode).toBe(429);
    }
    // A trailing slash or another letter case is not the login route at all.
    expect((await login(user.username, { url: '/api/auth/login/' })).statusCode).toBe(404);
    expect((await login(user.username, { url: '/API/auth/login' })).statusCode).toBe(404);
    clock += RATE_LIMITS.loginFailuresPerAccount.windowMs;
  });

  it('concurrent guesses from one address get no more than the limit', async () => {
    const { user } = await signUp(ctx.app, { username: uniqueUsername('rushed') });
    const responses = await Promise.all(
      Array.from({ length: 2 * FAILURES }, () => login(user.username, { ip: '10.2.0.1' })),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(FAILURES).fill(401), ...Array(FAILURES).fill(429)]);
    clock += RATE_LIMITS.loginFailuresPerAccount.windowMs;
  });

  it('past the hard limit, only addresses that signed in to the account before may try', async () => {
    const { user, password } = await signUp(ctx.app, { username: uniqueUsername('besieged') });
    const home = '10.3.0.1';
    expect((await login(user.username, { ip: home, password })).statusCode).toBe(200);
    // Many addresses (a botnet, or the many /64s of one IPv6 /48), one wrong guess each.
    const hard = RATE_LIMITS.loginFailuresPerAccountHard.max;
    for (let i = 0; i < hard; i++) {
      const ip = `2001:db8:${i.toString(16)}::1`;
      expect((await login(user.username, { ip })).statusCode).toBe(401);
    }
    expect((await login(user.username, { ip: '2001:db8:ffff::1' })).statusCode).toBe(429);
    expect((await login(user.username, { ip: '2001:db8:ffff::2', password })).statusCode).toBe(429);
    expect((await login(user.username, { ip: home, password })).statusCode).toBe(200);
    clock += RATE_LIMITS.loginFailuresPerAccount.windowMs;
    expect((await login(user.username, { ip: '2001:db8:ffff::3', password })).statusCode).toBe(200);
  });

  it('usernames are ASCII at login and signup: mİra is a 400, not another bucket for mira', async () => {
    const mira = await signUp(ctx.app, { username: 'mira' });
    for (const username of ['mİra', 'MİRA', 'mıra', 'mira\u200b', 'ｍira']) {
      const response = await login(username, { ip: '10.4.0.1', password: mira.password });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        errors: ['username has only the letters A to Z, digits, _ and . (no accents or letters of other alphabets).'],
      });
      const signup = observed(
        await ctx.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          remoteAddress: '10.4.0.2',
          payload: { fullname: 'Mira Copy', email: 'm@example.com', username, password: 'long enough pw' },
        }),
      );
      expect(signup.statusCode).toBe(400);
    }
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

  it('count an IPv6 client by its /64', async () => {
    let last = 0;
    for (let i = 0; i <= RATE_LIMITS.loginPerIp.max; i++) {
      last = (await login(`nobody_${i}`, { ip: `2001:db8:1:2:${(i + 1).toString(16)}::${i + 1}` })).statusCode;
    }
    expect(last).toBe(429);
    expect((await login('nobody_x', { ip: '2001:db8:1:2:ffff:ffff:ffff:ffff' })).statusCode).toBe(429);
    expect((await login('nobody_x', { ip: '2001:db8:1:3::1' })).statusCode).toBe(404);
    clock += RATE_LIMITS.loginPerIp.windowMs;
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
