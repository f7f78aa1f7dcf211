import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ACCOUNT_EMAIL_ERRORS, ACCOUNT_EMAIL_MESSAGES, ERRORS, LIVE_CLOSE } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { createTestApp, liveSocket, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.js';

let smtp: TestSmtpServer;
let ctx: TestContext;
/** The app's clock (config.now): tests move it past a link's hour. */
let clock = Date.now();

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp({ config: { smtpUrl: smtp.url, now: () => clock } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const address = () => `p${randomBytes(5).toString('hex')}@example.test`;
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const post = (url: string, payload: object, who?: SignedUp) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload,
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
  });
const forgot = (login: string) => post('/api/auth/forgot', { login });
const login = (who: SignedUp, password: string) => post('/api/auth/login', { username: who.user.username, password });

/** A new account whose address is confirmed through the link mailed on sign-up. */
async function confirmedAccount(): Promise<SignedUp & { email: string }> {
  const email = address();
  const who = await signUp(ctx.app, { email });
  const mail = await smtp.next(email);
  expect((await post('/api/auth/verify-email', { token: tokenOf(mail.link) })).statusCode).toBe(200);
  return { ...who, email };
}

/** The next reset mail to `email`, and its token. */
async function resetToken(email: string): Promise<string> {
  const mail = await smtp.next(email);
  expect(mail.subject).toBe('Choose a new password for Share Arts');
  return tokenOf(mail.link);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('Forgot password?', () => {
  it('answers the same 202 sentence for a known, an unknown and an unconfirmed account, and mails only the confirmed one', async () => {
    const known = await confirmedAccount();
    const unconfirmedEmail = address();
    const unconfirmed = await signUp(ctx.app, { email: unconfirmedEmail });
    await smtp.next(unconfirmedEmail); // its confirmation, not used

    const answers = await Promise.all(
      [unconfirmed.user.username, unconfirmedEmail, 'nobody_here_at_all', 'nobody@example.test'].map(forgot),
    );
    // Mails leave one at a time, in order: when the known account's arrives, the ones before were decided.
    const byEmail = await forgot(known.email.toUpperCase());
    const byUsername = await forgot(known.user.username);
    for (const answer of [...answers, byEmail, byUsername]) {
      expect(answer.statusCode).toBe(202);
      expect(answer.json()).toEqual({ message: ACCOUNT_EMAIL_MESSAGES.resetRequested });
    }
    const mail = await smtp.next(known.email);
    expect(mail.text).toContain(`Hello ${known.user.username},`);
    expect(mail.text).toContain('The link works for 1 hour, once.');
    expect(mail.html).toContain(`href="${mail.link}"`);
    await smtp.next(known.email);
    expect(smtp.received.filter((m) => m.to === unconfirmedEmail && m.subject.startsWith('Choose'))).toEqual([]);
    expect(smtp.received.filter((m) => m.to === 'nobody@example.test')).toEqual([]);

    // Only hashes are stored: the token is nowhere in the table.
    const token = tokenOf(mail.link);
    const rows = await queryRows<{ token_hash: string }>(
      ctx.database.db,
      sql`select token_hash from account_tokens where user_id = ${known.user._id}::uuid and purpose = 'reset-password'`,
    );
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.token_hash)).not.toContain(token);
    for (const row of rows) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes as long for a known account as for an unknown one (medians measured, reported, not asserted)', async () => {
    const known = await confirmedAccount();
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (let i = 0; i < 20; i += 1) {
      for (const [kind, login] of [
        ['known', known.user.username],
        ['unknown', `nobody_${i}_${randomBytes(3).toString('hex')}`],
      ] as const) {
        const start = performance.now();
        const answer = await forgot(login);
        times[kind].push(performance.now() - start);
        expect(answer.statusCode).toBe(202);
      }
    }
    // Take the mails so the queue is empty before the next test.
    for (let i = 0; i < 20; i += 1) await smtp.next(known.email);
    console.log(
      `forgot: median ${median(times.known).toFixed(2)} ms known, ${median(times.unknown).toFixed(2)} ms unknown (20 each)`,
    );
  });
});

describe('POST /api/auth/reset', () => {
  it('sets the password once: the link is refused afterwards, and the old password stops working', async () => {
    const who = await confirmedAccount();
    await forgot(who.email);
    const token = await resetToken(who.email);

    const weak = await post('/api/auth/reset', { token, password: 'password123' });
    expect(weak.statusCode).toBe(400);
    expect(errorOf(weak)).toMatch(/most common passwords/);
    const short = await post('/api/auth/reset', { token, password: 'short' });
    expect(short.statusCode).toBe(400);

    const done = await post('/api/auth/reset', { token, password: 'a brand new secret phrase' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: ACCOUNT_EMAIL_MESSAGES.passwordReset });
    expect((await login(who, 'a brand new secret phrase')).statusCode).toBe(200);
    expect((await login(who, who.password)).statusCode).toBe(401);

    const again = await post('/api/auth/reset', { token, password: 'yet another secret phrase' });
    expect(again.statusCode).toBe(410);
    expect(errorOf(again)).toBe(ACCOUNT_EMAIL_ERRORS.resetLinkUsed);
    expect((await login(who, 'a brand new secret phrase')).statusCode).toBe(200);
  });

  it('refuses a link after its hour, an unknown one, and every older link once one was used', async () => {
    const who = await confirmedAccount();
    await forgot(who.user.username);
    const first = await resetToken(who.email);
    await forgot(who.user.username);
    const second = await resetToken(who.email);

    clock += 60 * 60_000 + 1;
    try {
      const late = await post('/api/auth/reset', { token: first, password: 'a brand new secret phrase' });
      expect(late.statusCode).toBe(410);
      expect(errorOf(late)).toBe(ACCOUNT_EMAIL_ERRORS.resetLinkExpired);
    } finally {
      clock -= 60 * 60_000 + 1;
    }
    expect((await post('/api/auth/reset', { token: second, password: 'a brand new secret phrase' })).statusCode).toBe(
      200,
    );
    const older = await post('/api/auth/reset', { token: first, password: 'another secret phrase' });
    expect(older.statusCode).toBe(410);
    expect(errorOf(older)).toBe(ACCOUNT_EMAIL_ERRORS.resetLinkUsed);

    for (const token of ['A'.repeat(43), 'not a token', `${first}x`]) {
      const unknown = await post('/api/auth/reset', { token, password: 'a brand new secret phrase' });
      expect(unknown.statusCode).toBe(400);
      expect(errorOf(unknown)).toBe(ACCOUNT_EMAIL_ERRORS.resetLinkUnknown);
    }
    const empty = await post('/api/auth/reset', { token: '', password: 'a brand new secret phrase' });
    expect(empty.statusCode).toBe(400);
  });

  it('ends every session of the account: tokens issued before are refused over HTTP and on the live socket', async () => {
    const who = await confirmedAccount();
    const phone = (await login(who, who.password)).json().encodedToken as string;
    const socket = await liveSocket(ctx.app, phone);
    await forgot(who.email);
    const token = await resetToken(who.email);
    expect((await post('/api/auth/reset', { token, password: 'a brand new secret phrase' })).statusCode).toBe(200);

    for (const old of [who.token, phone]) {
      const refused = await post('/api/auth/verify', { encodedToken: old });
      expect(refused.statusCode).toBe(401);
      expect(errorOf(refused)).toBe(ERRORS.invalidToken);
    }
    expect(await socket.closed).toEqual({ code: LIVE_CLOSE.unauthorised, reason: ERRORS.invalidToken });
    const fresh = (await login(who, 'a brand new secret phrase')).json().encodedToken as string;
    expect((await post('/api/auth/verify', { encodedToken: fresh })).statusCode).toBe(200);
  });

  it('refuses a link sent to an address the account has changed since', async () => {
    const who = await confirmedAccount();
    await forgot(who.email);
    const token = await resetToken(who.email);
    const edited = await post('/api/account/email', { email: `moved-${who.email}` }, who);
    expect(edited.statusCode).toBe(200);
    const refused = await post('/api/auth/reset', { token, password: 'a brand new secret phrase' });
    expect(refused.statusCode).toBe(410);
    expect(errorOf(refused)).toBe(ACCOUNT_EMAIL_ERRORS.resetLinkOtherAddress);
    expect((await login(who, who.password)).statusCode).toBe(200);
  });
});

describe('rate limits', () => {
  it('refuses a 11th request from one address, and mails one account at most 3 times an hour, silently', async () => {
    const limited = await createTestApp({ config: { smtpUrl: smtp.url, rateLimits: true } });
    try {
      const email = address();
      const other = address();
      const send = (payload: object, url = '/api/auth/forgot', remoteAddress = '203.0.113.7') =>
        limited.app.inject({ method: 'POST', url, payload, remoteAddress });
      const who = await signUp(limited.app, { email });
      const someone = await signUp(limited.app, { email: other });
      for (const [to, user] of [
        [email, who],
        [other, someone],
      ] as const) {
        const mail = await smtp.next(to);
        expect((await send({ token: tokenOf(mail.link) }, '/api/auth/verify-email')).statusCode).toBe(200);
        void user;
      }
      for (let i = 0; i < 5; i += 1) {
        const answer = await send({ login: who.user.username });
        expect(answer.statusCode).toBe(202);
        expect(answer.json()).toEqual({ message: ACCOUNT_EMAIL_MESSAGES.resetRequested });
      }
      // The other account's mail leaves after the five requests were decided.
      expect((await send({ login: someone.user.username })).statusCode).toBe(202);
      await smtp.next(other);
      expect(smtp.received.filter((m) => m.to === email && m.subject.startsWith('Choose'))).toHaveLength(3);

      for (let i = 0; i < 4; i += 1) expect((await send({ login: 'anyone' })).statusCode).toBe(202);
      const refused = await send({ login: 'anyone' });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      // Another address may still ask.
      expect((await send({ login: 'anyone' }, '/api/auth/forgot', '198.51.100.9')).statusCode).toBe(202);
    } finally {
      await limited.close();
    }
  });
});
