import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ACCOUNT_EMAIL_ERRORS, ACCOUNT_EMAIL_MESSAGES } from '@share-arts/contract';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.js';

let smtp: TestSmtpServer;
let ctx: TestContext;
let clock = Date.now();

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp({ config: { smtpUrl: smtp.url, now: () => clock } });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const address = () => `v${randomBytes(5).toString('hex')}@example.test`;
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const post = (url: string, payload?: object, who?: SignedUp) =>
  ctx.app.inject({
    method: 'POST',
    url,
    ...(payload ? { payload } : {}),
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
  });
const verify = (token: string) => post('/api/auth/verify-email', { token });
/** The signed-in user as they see themselves. */
const me = async (who: SignedUp) => (await post('/api/auth/verify', { encodedToken: who.token })).json().user;

describe('email confirmation', () => {
  it('mails a link on sign-up that confirms the address once; the owner alone sees emailVerified', async () => {
    const email = address();
    const who = await signUp(ctx.app, { email });
    expect(await me(who)).toMatchObject({ email, emailVerified: false });
    const mail = await smtp.next(email);
    expect(mail.subject).toBe('Confirm your email address for Share Arts');
    expect(mail.text).toContain(`Hello ${who.user.username},`);
    expect(mail.link).toMatch(/^http:\/\/localhost:\d+\/verify-email\?token=[A-Za-z0-9_-]{43}$/);

    const done = await verify(tokenOf(mail.link));
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: ACCOUNT_EMAIL_MESSAGES.emailVerified });
    expect((await me(who)).emailVerified).toBe(true);
    const again = await verify(tokenOf(mail.link));
    expect(again.statusCode).toBe(410);
    expect(errorOf(again)).toBe(ACCOUNT_EMAIL_ERRORS.verifyLinkUsed);

    const other = await signUp(ctx.app, { email: address() });
    const seen = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${who.user._id}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().user).not.toHaveProperty('emailVerified');
    expect(seen.json().user).not.toHaveProperty('email');

    const resend = await post('/api/auth/verify-email/resend', undefined, who);
    expect(resend.statusCode).toBe(409);
    expect(errorOf(resend)).toBe(ACCOUNT_EMAIL_ERRORS.alreadyVerified);
  });

  it('refuses an unknown link and one past its 24 hours; "Resend" mails a new one that works', async () => {
    const email = address();
    const who = await signUp(ctx.app, { email });
    const first = await smtp.next(email);
    for (const token of ['A'.repeat(43), 'nonsense']) {
      const unknown = await verify(token);
      expect(unknown.statusCode).toBe(400);
      expect(errorOf(unknown)).toBe(ACCOUNT_EMAIL_ERRORS.verifyLinkUnknown);
    }
    clock += 24 * 3_600_000 + 1;
    try {
      const late = await verify(tokenOf(first.link));
      expect(late.statusCode).toBe(410);
      expect(errorOf(late)).toBe(ACCOUNT_EMAIL_ERRORS.verifyLinkExpired);
      const resend = await post('/api/auth/verify-email/resend', undefined, who);
      expect(resend.statusCode).toBe(202);
      expect(resend.json()).toEqual({ message: ACCOUNT_EMAIL_MESSAGES.verificationSent });
      const second = await smtp.next(email);
      expect((await verify(tokenOf(second.link))).statusCode).toBe(200);
    } finally {
      clock -= 24 * 3_600_000 + 1;
    }
    expect((await me(who)).emailVerified).toBe(true);
    expect((await post('/api/auth/verify-email/resend')).statusCode).toBe(401);
  });

  it('unconfirms a changed address and mails it a link; the old address’s link no longer confirms', async () => {
    const email = address();
    const who = await signUp(ctx.app, { email });
    const signupMail = await smtp.next(email);
    expect((await verify(tokenOf(signupMail.link))).statusCode).toBe(200);
    await post('/api/auth/verify-email/resend', undefined, who); // 409: confirmed, nothing sent

    const changed = address();
    const change = (to: string) => post('/api/account/email', { email: to }, who);
    const edit = (to: string, extra: object = {}) =>
      post('/api/users/edit', { userData: { email: to, ...extra } }, who);
    expect((await change(changed)).statusCode).toBe(200);
    expect(await me(who)).toMatchObject({ email: changed, emailVerified: false });
    const mail = await smtp.next(changed);

    // Saving the profile again with the same unconfirmed address sends nothing new; a later change does.
    expect((await edit(changed, { bio: 'Painter' })).statusCode).toBe(201);
    const third = address();
    expect((await change(third)).statusCode).toBe(200);
    const thirdMail = await smtp.next(third);
    expect(smtp.received.filter((m) => m.to === changed)).toHaveLength(1);

    const stale = await verify(tokenOf(mail.link));
    expect(stale.statusCode).toBe(410);
    expect(errorOf(stale)).toBe(ACCOUNT_EMAIL_ERRORS.verifyLinkOtherAddress);
    expect((await verify(tokenOf(thirdMail.link))).statusCode).toBe(200);
    expect(await me(who)).toMatchObject({ email: third, emailVerified: true });
    // Saving the same confirmed address keeps it confirmed.
    expect((await edit(third)).json().user.emailVerified).toBe(true);
  });
});
