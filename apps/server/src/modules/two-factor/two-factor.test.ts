import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { ACCOUNT_DELETION_ERRORS, TWO_FACTOR_ERRORS } from '@share-arts/contract';
import { recoveryCodes, signInTickets, twoFactor } from '../../db/schema.js';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

// The server's clock (codes, tickets, the limits) is the test's: steps and expiries are exact.
let clock = Date.UTC(2026, 10, 26, 12, 0, 10);
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ config: { now: () => clock } });
});
afterAll(() => ctx.close());

const post = (url: string, payload: object, token?: string) =>
  ctx.app.inject({ method: 'POST', url, payload, headers: token ? { authorization: token } : {} });

/** The authenticator app's code `steps` time-steps from the server's now. */
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: clock + steps * 30_000,
  });

/** An account with the authenticator app on: its secret and recovery codes (the current step is used). */
async function withTotp(): Promise<SignedUp & { secret: string; codes: string[] }> {
  const account = await signUp(ctx.app);
  const setup = await post('/api/two-factor/totp/setup', {}, account.token);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json();
  const confirmed = await post('/api/two-factor/totp/confirm', { code: codeAt(secret) }, account.token);
  expect(confirmed.statusCode).toBe(200);
  return { ...account, secret, codes: confirmed.json().recoveryCodes };
}

async function ticketOf(account: SignedUp): Promise<string> {
  const response = await post('/api/auth/login', { username: account.user.username, password: account.password });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ secondFactorRequired: true, ticket: expect.any(String), methods: ['totp'] });
  return response.json().ticket;
}

describe('setting up an authenticator app', () => {
  it('answers the secret, its URI and QR code, and keeps the secret only encrypted', async () => {
    const account = await signUp(ctx.app);
    const response = await post('/api/two-factor/totp/setup', {}, account.token);
    expect(response.statusCode).toBe(200);
    const { secret, uri, qrCode } = response.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(
      `otpauth://totp/Share%20Arts:${account.user.username}?issuer=Share%20Arts&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const [row] = await ctx.database.db.select().from(twoFactor).where(eq(twoFactor.userId, account.user._id));
    expect(row!.totpEnabled).toBe(false);
    expect(row!.totpSecret).not.toContain(secret);
    // Not on until a code confirms it: the password alone still signs in.
    const login = await post('/api/auth/login', { username: account.user.username, password: account.password });
    expect(login.json().encodedToken).toEqual(expect.any(String));
  });

  it('turns on with a right code only, and answers 10 recovery codes once (only their hashes kept)', async () => {
    const account = await signUp(ctx.app);
    const { secret } = (await post('/api/two-factor/totp/setup', {}, account.token)).json();
    const wrong = await post('/api/two-factor/totp/confirm', { code: codeAt(secret, 5) }, account.token);
    expect(wrong.statusCode).toBe(401);
    expect(errorOf(wrong)).toBe(TWO_FACTOR_ERRORS.wrongCode);
    const right = await post('/api/two-factor/totp/confirm', { code: codeAt(secret) }, account.token);
    expect(right.statusCode).toBe(200);
    const codes: string[] = right.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const rows = await ctx.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, account.user._id));
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(codes.join()).not.toContain(row.codeHash);

    const status = await ctx.app.inject({
      method: 'GET',
      url: '/api/two-factor',
      headers: { authorization: account.token },
    });
    expect(status.json()).toEqual({ totp: true, recoveryCodesLeft: 10, passkeys: [] });
    const again = await post('/api/two-factor/totp/setup', {}, account.token);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toBe(TWO_FACTOR_ERRORS.alreadyOn);
  });

  it('refuses a confirmation before a set-up, and a blank code, with what to do', async () => {
    const account = await signUp(ctx.app);
    const early = await post('/api/two-factor/totp/confirm', { code: '123456' }, account.token);
    expect(early.statusCode).toBe(400);
    expect(errorOf(early)).toBe(TWO_FACTOR_ERRORS.notSetUp);
    await post('/api/two-factor/totp/setup', {}, account.token);
    const blank = await post('/api/two-factor/totp/confirm', { code: '  ' }, account.token);
    expect(blank.statusCode).toBe(400);
    expect(errorOf(blank)).toBe(TWO_FACTOR_ERRORS.codeRequired);
  });
});

describe('signing in with a second factor', () => {
  it('asks for a code after the right password, and finishes with one', async () => {
    const account = await withTotp();
    const ticket = await ticketOf(account);
    const response = await post('/api/auth/login/second-factor', { ticket, code: codeAt(account.secret, 1) });
    expect(response.statusCode).toBe(200);
    const { encodedToken, foundUser } = response.json();
    expect(foundUser._id).toBe(account.user._id);
    const verified = await post('/api/auth/verify', { encodedToken });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user.username).toBe(account.user.username);
  });

  it('refuses a wrong code, and a code used already, with a sentence (the ticket stays good)', async () => {
    const account = await withTotp();
    const ticket = await ticketOf(account);
    const wrong = await post('/api/auth/login/second-factor', { ticket, code: codeAt(account.secret, 3) });
    expect(wrong.statusCode).toBe(401);
    expect(errorOf(wrong)).toBe(TWO_FACTOR_ERRORS.wrongCode);
    // The code that confirmed the set-up, still within the window: used once, never again.
    const reused = await post('/api/auth/login/second-factor', { ticket, code: codeAt(account.secret) });
    expect(reused.statusCode).toBe(401);
    expect(errorOf(reused)).toBe(TWO_FACTOR_ERRORS.wrongCode);
    // A step earlier than the last one taken is refused too.
    expect((await post('/api/auth/login/second-factor', { ticket, code: codeAt(account.secret, -1) })).statusCode).toBe(
      401,
    );
    const right = await post('/api/auth/login/second-factor', { ticket, code: codeAt(account.secret, 1) });
    expect(right.statusCode).toBe(200);
    // The same code for a new sign-in: refused.
    const next = await ticketOf(account);
    const replay = await post('/api/auth/login/second-factor', { ticket: next, code: codeAt(account.secret, 1) });
    expect(replay.statusCode).toBe(401);
  });

  it('takes a recovery code once, in any case and with or without its dash', async () => {
    const account = await withTotp();
    const [first, second] = account.codes as [string, string];
    const ticket = await ticketOf(account);
    const used = await post('/api/auth/login/second-factor', { ticket, code: ` ${first.toUpperCase()} ` });
    expect(used.statusCode).toBe(200);
    const again = await post('/api/auth/login/second-factor', { ticket: await ticketOf(account), code: first });
    expect(again.statusCode).toBe(401);
    expect(errorOf(again)).toBe(TWO_FACTOR_ERRORS.wrongCode);
    const other = await post('/api/auth/login/second-factor', {
      ticket: await ticketOf(account),
      code: second.replace('-', ''),
    });
    expect(other.statusCode).toBe(200);
    const status = await ctx.app.inject({
      method: 'GET',
      url: '/api/two-factor',
      headers: { authorization: account.token },
    });
    expect(status.json().recoveryCodesLeft).toBe(8);
  });

  it('uses a ticket once, and not after it expires', async () => {
    const account = await withTotp();
    const ticket = await ticketOf(account);
    expect((await post('/api/auth/login/second-factor', { ticket, code: account.codes[0]! })).statusCode).toBe(200);
    const twice = await post('/api/auth/login/second-factor', { ticket, code: account.codes[1]! });
    expect(twice.statusCode).toBe(401);
    expect(errorOf(twice)).toBe(TWO_FACTOR_ERRORS.ticketExpired);

    const late = await ticketOf(account);
    clock += 5 * 60_000 + 1_000;
    const expired = await post('/api/auth/login/second-factor', { ticket: late, code: account.codes[1]! });
    expect(expired.statusCode).toBe(401);
    expect(errorOf(expired)).toBe(TWO_FACTOR_ERRORS.ticketExpired);
    const forged = await post('/api/auth/login/second-factor', { ticket: 'not-a-ticket', code: account.codes[1]! });
    expect(forged.statusCode).toBe(401);
    // Only a hash of a ticket is stored.
    const rows = await ctx.database.db.select().from(signInTickets).where(eq(signInTickets.userId, account.user._id));
    for (const row of rows) expect(row.ticketHash).not.toBe(late);
  });

  it('leaves the log-in of an account without two-factor sign-in as it was', async () => {
    const account = await signUp(ctx.app);
    const response = await post('/api/auth/login', { username: account.user.username, password: account.password });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(['encodedToken', 'foundUser']);
  });
});

describe('turning the authenticator app off', () => {
  it('needs a right code; a recovery code does', async () => {
    const account = await withTotp();
    const blank = await post('/api/two-factor/totp/disable', { code: '' }, account.token);
    expect(blank.statusCode).toBe(400);
    const wrong = await post('/api/two-factor/totp/disable', { code: codeAt(account.secret, 4) }, account.token);
    expect(wrong.statusCode).toBe(401);
    const off = await post('/api/two-factor/totp/disable', { code: account.codes[3]! }, account.token);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ totp: false });
    expect(
      await ctx.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, account.user._id)),
    ).toEqual([]);
    const login = await post('/api/auth/login', { username: account.user.username, password: account.password });
    expect(login.json().encodedToken).toEqual(expect.any(String));
    const again = await post('/api/two-factor/totp/disable', { code: account.codes[4]! }, account.token);
    expect(again.statusCode).toBe(400);
    expect(errorOf(again)).toBe(TWO_FACTOR_ERRORS.notOn);
  });
});

describe('the limit of wrong codes', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({ config: { rateLimits: true, now: () => clock } });
  });
  afterAll(() => limited.close());

  /** A new account of the limited app with an authenticator app on; `call` posts as it. */
  async function accountWithTotp() {
    const account = await signUp(limited.app);
    const call = (url: string, payload: object) =>
      limited.app.inject({ method: 'POST', url, payload, headers: { authorization: account.token } });
    const { secret } = (await call('/api/two-factor/totp/setup', {})).json();
    expect((await call('/api/two-factor/totp/confirm', { code: codeAt(secret) })).statusCode).toBe(200);
    return { call, secret: secret as string };
  }

  it(`answers 429 after 5 wrong codes of one account, even to a right one, until the window ends`, async () => {
    const { call, secret } = await accountWithTotp();
    for (let i = 0; i < 5; i += 1) {
      expect((await call('/api/two-factor/totp/disable', { code: '000000' })).statusCode).toBe(401);
    }
    const blocked = await call('/api/two-factor/totp/disable', { code: codeAt(secret, 1) });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    clock += 15 * 60_000;
    expect((await call('/api/two-factor/totp/disable', { code: codeAt(secret) })).statusCode).toBe(200);
  });

  it('checks at most 5 of 25 wrong codes sent at once (issue 38, item 5)', async () => {
    const { call } = await accountWithTotp();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => call('/api/two-factor/totp/disable', { code: '000000' })),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });
});

describe('deleting an account with two-factor sign-in on', () => {
  it('asks for a code as well as the password', async () => {
    const account = await withTotp();
    const remove = (body: object) => post('/api/account/delete', body, account.token);
    const none = await remove({ password: account.password });
    expect(none.statusCode).toBe(400);
    expect(errorOf(none)).toBe(ACCOUNT_DELETION_ERRORS.secondFactorRequired);
    const wrong = await remove({ password: account.password, secondFactor: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(errorOf(wrong)).toBe(TWO_FACTOR_ERRORS.wrongCode);
    const right = await remove({ password: account.password, secondFactor: account.codes[0]! });
    expect(right.statusCode).toBe(200);
    expect(await ctx.database.db.select().from(twoFactor).where(eq(twoFactor.userId, account.user._id))).toEqual([]);
  });
});
