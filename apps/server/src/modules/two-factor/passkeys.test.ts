import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { TWO_FACTOR_ERRORS } from '@share-arts/contract';
import { passkeys } from '../../db/schema.js';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { createSoftwareAuthenticator } from '../../test/software-authenticator.js';

// app.inject's requests come to Host localhost:80: that is the site's origin here, and "localhost" its rpID.
const ORIGIN = 'http://localhost:80';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const post = (url: string, payload: object, token?: string) =>
  ctx.app.inject({ method: 'POST', url, payload, headers: token ? { authorization: token } : {} });

/** An account with a passkey on a new authenticator. */
async function withPasskey(name?: string) {
  const account = await signUp(ctx.app);
  const authenticator = createSoftwareAuthenticator(ORIGIN);
  const options = await post('/api/two-factor/passkeys/options', {}, account.token);
  expect(options.statusCode).toBe(200);
  const registered = await post(
    '/api/two-factor/passkeys',
    { credential: authenticator.create(options.json()), ...(name ? { name } : {}) },
    account.token,
  );
  expect(registered.statusCode).toBe(201);
  return { account, authenticator, passkey: registered.json() };
}

async function signInWith(authenticator: ReturnType<typeof createSoftwareAuthenticator>) {
  const options = await post('/api/auth/passkey/options', {});
  expect(options.statusCode).toBe(200);
  return post('/api/auth/passkey', { credential: authenticator.get(options.json()) });
}

describe('passkeys', () => {
  it('registers a discoverable passkey for this site and lists it', async () => {
    const account = await signUp(ctx.app);
    const options = (await post('/api/two-factor/passkeys/options', {}, account.token)).json();
    expect(options).toMatchObject({
      rp: { name: 'Share Arts', id: 'localhost' },
      user: { name: account.user.username },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required' },
    });
    // EdDSA, ES256, RS256 on every Node: no ML-DSA-44, which Node 24 has only as an experimental algorithm.
    expect(options.pubKeyCredParams.map((param: { alg: number }) => param.alg)).toEqual([-8, -7, -257]);
    const authenticator = createSoftwareAuthenticator(ORIGIN);
    const registered = await post(
      '/api/two-factor/passkeys',
      { credential: authenticator.create(options), name: 'My laptop' },
      account.token,
    );
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toEqual({
      _id: expect.any(String),
      name: 'My laptop',
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    const status = await ctx.app.inject({
      method: 'GET',
      url: '/api/two-factor',
      headers: { authorization: account.token },
    });
    expect(status.json()).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: [registered.json()] });
    // The challenge was single-use.
    const again = await post('/api/two-factor/passkeys', { credential: authenticator.create(options) }, account.token);
    expect(again.statusCode).toBe(400);
    expect(errorOf(again)).toBe(TWO_FACTOR_ERRORS.challengeExpired);
  });

  it('refuses a registration signed for another site', async () => {
    const account = await signUp(ctx.app);
    const options = (await post('/api/two-factor/passkeys/options', {}, account.token)).json();
    const elsewhere = createSoftwareAuthenticator('https://evil.example');
    const response = await post('/api/two-factor/passkeys', { credential: elsewhere.create(options) }, account.token);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe(TWO_FACTOR_ERRORS.passkeyFailed);
  });

  it('signs in with a passkey alone, and counts its use', async () => {
    const { account, authenticator, passkey } = await withPasskey();
    const response = await signInWith(authenticator);
    expect(response.statusCode).toBe(200);
    expect(response.json().foundUser._id).toBe(account.user._id);
    expect((await post('/api/auth/verify', { encodedToken: response.json().encodedToken })).statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(passkeys).where(eq(passkeys.id, passkey._id));
    expect(row!.counter).toBe(1);
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it('refuses a challenge used twice, an unknown passkey and a forged signature', async () => {
    const { authenticator } = await withPasskey();
    const options = (await post('/api/auth/passkey/options', {})).json();
    const answer = authenticator.get(options);
    expect((await post('/api/auth/passkey', { credential: answer })).statusCode).toBe(200);
    const replay = await post('/api/auth/passkey', { credential: answer });
    expect(replay.statusCode).toBe(401);
    expect(errorOf(replay)).toBe(TWO_FACTOR_ERRORS.challengeExpired);

    const stranger = createSoftwareAuthenticator(ORIGIN);
    stranger.create({ challenge: 'x', user: { id: 'nobody' } });
    const unknown = await post('/api/auth/passkey', {
      credential: stranger.get((await post('/api/auth/passkey/options', {})).json()),
    });
    expect(unknown.statusCode).toBe(401);
    expect(errorOf(unknown)).toBe(TWO_FACTOR_ERRORS.passkeyUnknown);

    const forged = authenticator.get((await post('/api/auth/passkey/options', {})).json());
    forged.response.signature = Buffer.from('not a signature').toString('base64url');
    const refused = await post('/api/auth/passkey', { credential: forged });
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused)).toBe(TWO_FACTOR_ERRORS.passkeyFailed);
  });

  it('is the second step of a password sign-in instead of a code', async () => {
    const { account, authenticator } = await withPasskey();
    const { secret } = (await post('/api/two-factor/totp/setup', {}, account.token)).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    expect((await post('/api/two-factor/totp/confirm', { code }, account.token)).statusCode).toBe(200);
    const login = await post('/api/auth/login', { username: account.user.username, password: account.password });
    const { ticket, methods } = login.json();
    expect(methods).toEqual(['totp', 'passkey']);
    const options = (await post('/api/auth/passkey/options', { ticket })).json();
    expect(options.allowCredentials).toHaveLength(1);
    // Another account's passkey does not finish this sign-in.
    const other = await withPasskey();
    const wrong = await post('/api/auth/login/second-factor', {
      ticket,
      passkey: other.authenticator.get((await post('/api/auth/passkey/options', { ticket })).json()),
    });
    expect(wrong.statusCode).toBe(401);
    const response = await post('/api/auth/login/second-factor', {
      ticket,
      passkey: authenticator.get((await post('/api/auth/passkey/options', { ticket })).json()),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().foundUser._id).toBe(account.user._id);
    // A challenge for a sign-in without a ticket is not one for the second step.
    const next = (
      await post('/api/auth/login', { username: account.user.username, password: account.password })
    ).json();
    const mixed = await post('/api/auth/login/second-factor', {
      ticket: next.ticket,
      passkey: authenticator.get((await post('/api/auth/passkey/options', {})).json()),
    });
    expect(mixed.statusCode).toBe(401);
  });

  it('removes your own passkey only; then it signs no one in', async () => {
    const { account, authenticator, passkey } = await withPasskey();
    const stranger: SignedUp = await signUp(ctx.app);
    const url = `/api/two-factor/passkeys/${passkey._id}`;
    const theirs = await ctx.app.inject({ method: 'DELETE', url, headers: { authorization: stranger.token } });
    expect(theirs.statusCode).toBe(404);
    expect(errorOf(theirs)).toBe(TWO_FACTOR_ERRORS.passkeyNotFound);
    const mine = await ctx.app.inject({ method: 'DELETE', url, headers: { authorization: account.token } });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().passkeys).toEqual([]);
    const response = await signInWith(authenticator);
    expect(response.statusCode).toBe(401);
    expect(errorOf(response)).toBe(TWO_FACTOR_ERRORS.passkeyUnknown);
  });
});
