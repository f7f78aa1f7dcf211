import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import {
  ACCOUNT_EMAIL_MESSAGES,
  SECURITY,
  SECURITY_ERRORS,
  SECURITY_MESSAGES,
  TWO_FACTOR_ERRORS,
} from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.js';
import { createSoftwareAuthenticator } from '../../test/software-authenticator.js';

// Issue 38, items 1–3: a stolen token must not become a stolen account.

// app.inject's requests come to Host localhost:80: the site's origin for passkeys here.
const ORIGIN = 'http://localhost:80';
let smtp: TestSmtpServer;
let ctx: TestContext;
beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp({ config: { smtpUrl: smtp.url } });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

type Token = { token: string };
const address = () => `s${randomBytes(5).toString('hex')}@example.test`;
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const call = (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: object, who?: Token) =>
  ctx.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
  });
const post = (url: string, payload: object, who?: Token) => call('POST', url, payload, who);
const me = (who: Token) => post('/api/auth/verify', { encodedToken: who.token });
const login = (who: SignedUp, password = who.password) =>
  post('/api/auth/login', { username: who.user.username, password });
const logOf = async (who: Token) => (await call('GET', '/api/account/security-log', undefined, who)).json().events;
const code = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

/** Until no mail job waits or runs. */
async function mailsSent() {
  const busy = async () =>
    (await ctx.app.jobs.counts()).some((row) => row.kind.startsWith('mail.') && row.queued + row.running > 0);
  while (await busy()) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** An account whose address is confirmed (its sign-up link opened). */
async function confirmedAccount(): Promise<SignedUp & { email: string }> {
  const email = address();
  const who = await signUp(ctx.app, { email });
  const mail = await smtp.next(email);
  expect((await post('/api/auth/verify-email', { token: tokenOf(mail.link) })).statusCode).toBe(200);
  return { ...who, email };
}

/** As if the token were copied later, off a shared computer or out of a log: the session is 11 minutes old. */
async function age(who: SignedUp) {
  await ctx.database.db.execute(
    sql`update sessions set created_at = created_at - interval '11 minutes',
          reauthenticated_at = reauthenticated_at - interval '11 minutes'
        where user_id = ${who.user._id}::uuid`,
  );
}

async function turnOnTotp(who: Token): Promise<string> {
  const { secret } = (await post('/api/two-factor/totp/setup', {}, who)).json();
  expect((await post('/api/two-factor/totp/confirm', { code: code(secret) }, who)).statusCode).toBe(200);
  return secret;
}

async function addPasskey(who: Token, name: string) {
  const authenticator = createSoftwareAuthenticator(ORIGIN);
  const options = await post('/api/two-factor/passkeys/options', {}, who);
  const added = await post('/api/two-factor/passkeys', { credential: authenticator.create(options.json()), name }, who);
  expect(added.statusCode).toBe(201);
  return { authenticator, id: added.json()._id as string };
}

describe('confirming who you are before changing what protects the account', () => {
  it('refuses a token alone, 10 minutes after its sign-in, every such change until the password is typed again', async () => {
    const who = await signUp(ctx.app, { email: address() });
    const { id: passkeyId } = await addPasskey(who, 'Phone');
    const before = (await me(who)).json().user;
    await age(who);

    const credential = { id: 'x', rawId: 'x', type: 'public-key', response: {} };
    const changes = [
      () => post('/api/account/email', { email: address() }, who),
      () => post('/api/two-factor/totp/setup', {}, who),
      () => post('/api/two-factor/totp/confirm', { code: '123456' }, who),
      () => post('/api/two-factor/passkeys/options', {}, who),
      () => post('/api/two-factor/passkeys', { credential }, who),
      () => call('DELETE', `/api/two-factor/passkeys/${passkeyId}`, undefined, who),
    ];
    for (const change of changes) {
      const refused = await change();
      expect(refused.statusCode).toBe(403);
      expect(errorOf(refused)).toBe(SECURITY_ERRORS.reauthRequired);
    }
    expect((await me(who)).json().user).toEqual(before);
    expect((await call('GET', '/api/two-factor', undefined, who)).json()).toMatchObject({
      totp: false,
      passkeys: [{ _id: passkeyId }],
    });

    const wrong = await post('/api/auth/reauthenticate', { password: 'not my password' }, who);
    expect(wrong.statusCode).toBe(401);
    expect(errorOf(wrong)).toBe(SECURITY_ERRORS.wrongPassword);
    expect((await post('/api/two-factor/totp/setup', {}, who)).statusCode).toBe(403);

    const started = Date.now();
    const confirmed = await post('/api/auth/reauthenticate', { password: who.password }, who);
    expect(confirmed.statusCode).toBe(200);
    const until = Date.parse(confirmed.json().until);
    expect(until).toBeGreaterThanOrEqual(started + SECURITY.reauthMinutes * 60_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + SECURITY.reauthMinutes * 60_000);
    expect((await post('/api/two-factor/totp/setup', {}, who)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/two-factor/passkeys/${passkeyId}`, undefined, who)).statusCode).toBe(200);
    const next = address();
    expect((await post('/api/account/email', { email: next }, who)).json()).toEqual({
      message: SECURITY_MESSAGES.emailChanged,
    });
    expect((await me(who)).json().user).toMatchObject({ email: next, emailVerified: false });
  });

  it('takes a code when the authenticator is on, or a passkey checked by the device; exactly one proof', async () => {
    const who = await signUp(ctx.app, { email: address() });
    const secret = await turnOnTotp(who);
    const { authenticator } = await addPasskey(who, 'Laptop');

    await age(who);
    const withCode = await post('/api/auth/reauthenticate', { code: code(secret, 1) }, who);
    expect(withCode.statusCode).toBe(200);
    expect((await post('/api/two-factor/passkeys/options', {}, who)).statusCode).toBe(200);

    await age(who);
    const wrongCode = await post('/api/auth/reauthenticate', { code: '000000' }, who);
    expect(wrongCode.statusCode).toBe(401);
    expect(errorOf(wrongCode)).toBe(TWO_FACTOR_ERRORS.wrongCode);
    const options = await post('/api/auth/reauthenticate/passkey-options', {}, who);
    expect(options.json()).toMatchObject({ userVerification: 'required', allowCredentials: [{ type: 'public-key' }] });
    const withPasskey = await post('/api/auth/reauthenticate', { passkey: authenticator.get(options.json()) }, who);
    expect(withPasskey.statusCode).toBe(200);
    expect((await post('/api/two-factor/passkeys/options', {}, who)).statusCode).toBe(200);

    const two = await post('/api/auth/reauthenticate', { password: who.password, code: code(secret, 1) }, who);
    expect(two.statusCode).toBe(400);
    expect(errorOf(two)).toBe(SECURITY_ERRORS.reauthProofRequired);
    expect(errorOf(await post('/api/auth/reauthenticate', {}, who))).toBe(SECURITY_ERRORS.reauthProofRequired);

    // Another account's passkey proves nothing here.
    const other = await signUp(ctx.app);
    const otherOptions = await post('/api/auth/reauthenticate/passkey-options', {}, other);
    expect(
      (await post('/api/auth/reauthenticate', { passkey: authenticator.get(otherOptions.json()) }, other)).statusCode,
    ).toBe(401);
    // Without an authenticator app, a code is not a way in.
    const noApp = await post('/api/auth/reauthenticate', { code: '123456' }, other);
    expect(noApp.statusCode).toBe(400);
    expect(errorOf(noApp)).toBe(TWO_FACTOR_ERRORS.notOn);
  });
});

describe('changing the email address', () => {
  it('mails the old confirmed address a link that puts it back, confirmed, and signs the account out everywhere', async () => {
    const who = await confirmedAccount();
    const phone = (await login(who)).json().encodedToken as string;
    const next = address();
    expect((await post('/api/account/email', { email: next }, who)).statusCode).toBe(200);

    const confirmation = await smtp.next(next);
    expect(confirmation.subject).toBe('Confirm your email address for Share Arts');
    const told = await smtp.next(who.email);
    expect(told.subject).toBe('The email address of your Share Arts account was changed');
    expect(told.text).toContain(`from this one to ${next}`);
    expect(told.link).toMatch(/^http:\/\/localhost:\d+\/undo-email\?token=[A-Za-z0-9_-]{43}$/);

    const undone = await post('/api/auth/undo-email', { token: tokenOf(told.link) });
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toEqual({ message: SECURITY_MESSAGES.emailChangeUndone });
    for (const token of [who.token, phone]) expect((await me({ token })).statusCode).toBe(401);
    const back = { token: (await login(who)).json().encodedToken as string };
    expect((await me(back)).json().user).toMatchObject({ email: who.email, emailVerified: true });
    // The new address's link no longer confirms anything; the undo link works once.
    expect((await post('/api/auth/verify-email', { token: tokenOf(confirmation.link) })).statusCode).toBe(410);
    const again = await post('/api/auth/undo-email', { token: tokenOf(told.link) });
    expect(again.statusCode).toBe(410);
    expect(errorOf(again)).toBe(SECURITY_ERRORS.undoLinkUsed);
    expect(errorOf(await post('/api/auth/undo-email', { token: 'x'.repeat(43) }))).toBe(
      SECURITY_ERRORS.undoLinkUnknown,
    );

    const kinds = (await logOf(back)).map((event: { kind: string }) => event.kind);
    expect(kinds).toEqual(['email-change-undone', 'email-changed']);
    const [undoneEvent, changedEvent] = await logOf(back);
    expect(changedEvent.detail).toBe(`${who.email} → ${next}`);
    expect(undoneEvent.detail).toBe(who.email);
    const notice = await smtp.next(who.email);
    expect(notice.subject).toBe('Email address change undone from the old address on your Share Arts account');
  });

  it('mails no undo link to an address that was never confirmed, and refuses the same address', async () => {
    const first = address();
    const who = await signUp(ctx.app, { email: first });
    await smtp.next(first);
    const same = await post('/api/account/email', { email: first }, who);
    expect(same.statusCode).toBe(400);
    expect(errorOf(same)).toBe(SECURITY_ERRORS.sameEmail);
    const next = address();
    expect((await post('/api/account/email', { email: next }, who)).statusCode).toBe(200);
    await smtp.next(next);
    await mailsSent();
    expect(smtp.received.filter((mail) => mail.to === first)).toHaveLength(1);
    const links = await queryRows<{ purpose: string }>(
      ctx.database.db,
      sql`select purpose from account_tokens where user_id = ${who.user._id}::uuid order by created_at`,
    );
    expect(links.map((link) => link.purpose)).toEqual(['verify-email', 'verify-email']);
  });

  it('the profile edit refuses a new address and saves nothing; the same address and every other field still save', async () => {
    const email = address();
    const who = await signUp(ctx.app, { email });
    const edit = (userData: object) => post('/api/users/edit', { userData }, who);
    const refused = await edit({ email: address(), bio: 'Painter of harbours' });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toBe(SECURITY_ERRORS.emailChangeNeedsConfirmation);
    expect((await me(who)).json().user).toMatchObject({ email, bio: '' });

    const saved = await edit({ firstName: 'Ana', email, bio: 'Painter of harbours', link: 'https://ana.example/' });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().user).toMatchObject({ email, bio: 'Painter of harbours', link: 'https://ana.example/' });
    expect((await edit({ bio: 'Painter' })).json().user.bio).toBe('Painter');
  });
});

describe('the security log and its mails', () => {
  it('lists each change newest first with the device and network, and mails each to the account', async () => {
    const who = await confirmedAccount();
    const changed = await post(
      '/api/auth/password',
      { currentPassword: who.password, newPassword: 'a new secret phrase' },
      who,
    );
    expect(changed.statusCode).toBe(200);
    const mail = await smtp.next(who.email);
    expect(mail.subject).toBe('Password changed on your Share Arts account');
    expect(mail.text).toMatch(
      /Password changed\. This was done on \d{4}-\d\d-\d\d at \d\d:\d\d UTC from lightMyRequest \(This computer\)\./,
    );
    expect(mail.text).toMatch(/^http:\/\/localhost:\d+\/settings\/account$/m);

    await turnOnTotp(who);
    const { id } = await addPasskey(who, 'Studio laptop');
    expect((await call('DELETE', `/api/two-factor/passkeys/${id}`, undefined, who)).statusCode).toBe(200);
    const events = await logOf(who);
    expect(events.map((event: { kind: string; detail: string }) => [event.kind, event.detail])).toEqual([
      ['passkey-removed', 'Studio laptop'],
      ['passkey-added', 'Studio laptop'],
      ['two-factor-on', ''],
      ['password-changed', ''],
    ]);
    expect(events[0]).toMatchObject({ device: 'lightMyRequest', place: 'This computer', at: expect.any(String) });
    for (const subject of ['Two-factor sign-in turned on', 'Passkey added', 'Passkey removed']) {
      expect((await smtp.next(who.email)).subject).toBe(`${subject} on your Share Arts account`);
    }

    // Each account reads its own log only.
    const other = await signUp(ctx.app);
    expect(await logOf(other)).toEqual([]);
    expect((await call('GET', '/api/account/security-log')).statusCode).toBe(401);
  });

  it('a password reset keeps the authenticator and passkeys, says so in its mail, and is logged', async () => {
    const who = await confirmedAccount();
    await turnOnTotp(who);
    await smtp.next(who.email); // "Two-factor sign-in turned on"
    await post('/api/auth/forgot', { login: who.user.username });
    const mail = await smtp.next(who.email);
    expect(mail.text).toContain('Your authenticator app and passkeys stay as they are');
    const reset = await post('/api/auth/reset', { token: tokenOf(mail.link), password: 'a new secret phrase' });
    expect(reset.json()).toEqual({ message: ACCOUNT_EMAIL_MESSAGES.passwordReset });
    const signIn = await login(who, 'a new secret phrase');
    expect(signIn.json()).toMatchObject({ secondFactorRequired: true });
    expect((await smtp.next(who.email)).subject).toBe(
      'Password reset with a link from the mail on your Share Arts account',
    );
    const [newest] = await queryRows<{ kind: string; user_agent: string }>(
      ctx.database.db,
      sql`select kind, user_agent from security_events where user_id = ${who.user._id}::uuid order by at desc limit 1`,
    );
    expect(newest).toEqual({ kind: 'password-reset', user_agent: 'lightMyRequest' });
  });
});
