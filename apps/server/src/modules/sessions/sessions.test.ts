import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { ACCOUNT_ERRORS, ERRORS, LIVE_CLOSE, type SessionsResponse } from '@share-arts/contract';
import { createTestApp, liveSocket, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { queryRows } from '../../db/client.js';
import { EVENT_CHANNEL } from '../../events/events.js';
import { createEventBus } from '../../events/bus.js';
import { createSessionCheck, endSessions } from './index.js';
import { TOUCH_EVERY_MS } from './session-check.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => ctx.close());

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Another session of the same account: a log-in from another device. */
async function logIn(who: SignedUp, userAgent = IPHONE, remoteAddress = '203.0.113.57'): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: who.user.username, password: who.password },
    headers: { 'user-agent': userAgent },
    remoteAddress,
  });
  expect(response.statusCode).toBe(200);
  return response.json().encodedToken as string;
}

const verify = (token: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { encodedToken: token } });
const listSessions = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/sessions', headers: bearer(token) });
const logout = (token: string) => ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
const changePassword = (token: string, currentPassword: string, newPassword: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/password',
    headers: bearer(token),
    payload: { currentPassword, newPassword },
  });
/** A request only a signed-in user may make (201 when it may). */
const editBio = async (token: string) => {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/edit',
    headers: bearer(token),
    payload: { userData: { bio: 'Ink and paper.' } },
  });
  return { statusCode: response.statusCode === 201 ? 200 : response.statusCode };
};

/** Waits for a condition the server reaches on its own (an event's delivery), checking every 20 ms. */
async function eventually(test: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt += 1) {
    if (await test()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

describe('LOG OUT', () => {
  it('ends the session on the server: its token is refused everywhere, the other sessions go on', async () => {
    const ana = await signUp(ctx.app);
    const phone = await logIn(ana);
    expect((await verify(ana.token)).statusCode).toBe(200);

    const out = await logout(ana.token);
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');

    const refused = await verify(ana.token);
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused)).toBe(ERRORS.invalidToken);
    expect((await editBio(ana.token)).statusCode).toBe(401);
    expect((await listSessions(ana.token)).statusCode).toBe(401);
    expect((await logout(ana.token)).statusCode).toBe(401);
    // An optional token that ended reads as signed out (the list of people, as a visitor sees it).
    const people = await ctx.app.inject({ method: 'GET', url: '/api/users', headers: bearer(ana.token) });
    expect(people.statusCode).toBe(200);
    const signedOut = await ctx.app.inject({ method: 'GET', url: '/api/users' });
    expect(people.json()).toEqual(signedOut.json());

    expect((await verify(phone)).statusCode).toBe(200);
    expect((await editBio(phone)).statusCode).toBe(200);
  });

  it("closes the session's open live socket at once, and only that one", async () => {
    const ana = await signUp(ctx.app);
    const phone = await logIn(ana);
    const laptopSocket = await liveSocket(ctx.app, ana.token);
    const phoneSocket = await liveSocket(ctx.app, phone);

    expect((await logout(ana.token)).statusCode).toBe(204);
    expect(await laptopSocket.closed).toEqual({ code: LIVE_CLOSE.unauthorised, reason: ERRORS.invalidToken });
    expect(phoneSocket.isOpen()).toBe(true);

    // A new socket with the ended token is refused at its hello.
    await expect(liveSocket(ctx.app, ana.token)).rejects.toThrow(ERRORS.invalidToken);
    phoneSocket.socket.close();
  });

  it('refuses a token signed before sessions existed (no sid): its holder signs in again', async () => {
    const ana = await signUp(ctx.app);
    const old = await new SignJWT({ username: ana.user.username })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(ana.user._id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(ctx.config.jwtSecret));
    expect((await verify(old)).statusCode).toBe(401);
    expect((await editBio(old)).statusCode).toBe(401);
    // Nor does another account's session make a token valid.
    const theo = await signUp(ctx.app);
    const theoSid = (JSON.parse(Buffer.from(theo.token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    const borrowed = await new SignJWT({ username: ana.user.username, sid: theoSid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(ana.user._id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(ctx.config.jwtSecret));
    expect((await verify(borrowed)).statusCode).toBe(401);
  });
});

describe('the sessions list', () => {
  it('describes each device and place, marks the current one, and ends one or all others', async () => {
    const ana = await signUp(ctx.app);
    const phone = await logIn(ana, IPHONE, '203.0.113.57');
    const laptop = await logIn(ana, FIREFOX, '2001:db8:5:6:7::1');

    const listed = await listSessions(laptop);
    expect(listed.statusCode).toBe(200);
    const { sessions } = listed.json<SessionsResponse>();
    expect(sessions).toHaveLength(3);
    const current = sessions.filter((session) => session.current);
    expect(current).toEqual([
      expect.objectContaining({
        device: 'Firefox on Windows',
        deviceType: 'desktop',
        place: 'Network 2001:db8:5::/48',
      }),
    ]);
    expect(sessions).toContainEqual(
      expect.objectContaining({
        device: 'Safari on iPhone, iOS',
        deviceType: 'mobile',
        place: 'Network 203.0.113.0/24',
        current: false,
      }),
    );
    for (const session of sessions) {
      expect(Date.parse(session.createdAt)).not.toBeNaN();
      expect(Date.parse(session.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
    }

    // End the phone's session from the laptop.
    const phoneId = sessions.find((session) => session.device.includes('iPhone'))!.id;
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/sessions/${phoneId}`, headers: bearer(laptop) })).statusCode,
    ).toBe(204);
    expect((await verify(phone)).statusCode).toBe(401);
    expect((await verify(ana.token)).statusCode).toBe(200);
    const again = await ctx.app.inject({ method: 'DELETE', url: `/api/sessions/${phoneId}`, headers: bearer(laptop) });
    expect(again.statusCode).toBe(404);

    // End all the others: the sign-up's session ends, the laptop's stays.
    const others = await ctx.app.inject({ method: 'POST', url: '/api/sessions/end-others', headers: bearer(laptop) });
    expect(others.json()).toEqual({ ended: 1 });
    expect((await verify(ana.token)).statusCode).toBe(401);
    expect((await listSessions(laptop)).json<SessionsResponse>().sessions).toEqual([
      expect.objectContaining({ current: true }),
    ]);
  });

  it("answers someone else's session 404, as an unknown one, and leaves it alone", async () => {
    const ana = await signUp(ctx.app);
    const theo = await signUp(ctx.app);
    const theoSession = (await listSessions(theo.token)).json<SessionsResponse>().sessions[0]!.id;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const answers = [];
    for (const id of [theoSession, unknown]) {
      const response = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/sessions/${id}`,
        headers: bearer(ana.token),
      });
      answers.push({ status: response.statusCode, body: response.json() });
    }
    expect(answers[0]).toEqual({ status: 404, body: { errors: [ACCOUNT_ERRORS.sessionNotFound] } });
    expect(answers[1]).toEqual(answers[0]);
    expect((await verify(theo.token)).statusCode).toBe(200);

    const bad = await ctx.app.inject({ method: 'DELETE', url: '/api/sessions/not-an-id', headers: bearer(ana.token) });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toContain('id');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/sessions' })).statusCode).toBe(401);
  });

  it('keeps an unknown user agent and a long one bounded', async () => {
    const ana = await signUp(ctx.app);
    await logIn(ana, '', '10.1.2.3');
    await logIn(ana, `curl/8.5.0 ${'x'.repeat(5000)}`, '127.0.0.1');
    const { sessions } = (await listSessions(ana.token)).json<SessionsResponse>();
    expect(sessions).toContainEqual(
      expect.objectContaining({ device: 'An unknown device', place: 'A private network' }),
    );
    expect(sessions).toContainEqual(expect.objectContaining({ device: 'curl', place: 'This computer' }));
    const [row] = await queryRows<{ longest: number }>(
      ctx.database.db,
      sql`select max(char_length(user_agent))::int as longest from sessions where user_id = ${ana.user._id}::uuid`,
    );
    expect(row!.longest).toBe(512);
  });

  it("leaves out a session older than a token's lifetime, and removes it at the next sign-in", async () => {
    const ana = await signUp(ctx.app);
    const old = await logIn(ana, FIREFOX);
    const oldSid = (JSON.parse(Buffer.from(old.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    // Signed in 8 days ago: its token (7 days) has expired, so the device is not signed in any more.
    await ctx.database.db.execute(
      sql`update sessions set created_at = now() - interval '8 days', last_used_at = now() - interval '8 days'
          where id = ${oldSid}::uuid`,
    );
    const listed = (await listSessions(ana.token)).json<SessionsResponse>().sessions;
    expect(listed.map((session) => session.id)).not.toContain(oldSid);
    expect(listed).toHaveLength(1);
    const rows = async () =>
      (
        await queryRows<{ id: string }>(
          ctx.database.db,
          sql`select id from sessions where user_id = ${ana.user._id}::uuid`,
        )
      ).map((row) => row.id);
    expect(await rows()).toContain(oldSid);
    await logIn(ana);
    expect(await rows()).not.toContain(oldSid);
    expect(await rows()).toHaveLength(2);
  });
});

describe('the session check', () => {
  it('remembers a live session (no database read per request) and forgets it on the event', async () => {
    const ana = await signUp(ctx.app);
    expect((await editBio(ana.token)).statusCode).toBe(200);
    const sid = (JSON.parse(Buffer.from(ana.token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    // Deleted behind the check's back (no event): still remembered as live.
    await ctx.database.db.execute(sql`delete from sessions where id = ${sid}::uuid`);
    expect((await editBio(ana.token)).statusCode).toBe(200);
    // The event any process sends with an ending reaches this one, which forgets the session.
    const event = JSON.stringify({ type: 'session-ended', userId: ana.user._id, sessionId: sid });
    await ctx.database.db.execute(sql`select pg_notify(${EVENT_CHANNEL}, ${event})`);
    await eventually(async () => (await editBio(ana.token)).statusCode === 401, 'the token refused after the event');
  });

  it('endSessions (used by a password reset) ends every session at once, or all but one', async () => {
    const ana = await signUp(ctx.app);
    const phone = await logIn(ana);
    const tablet = await logIn(ana);
    const tabletSid = (JSON.parse(Buffer.from(tablet.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    expect(await endSessions(ctx.database.db, ana.user._id, { except: tabletSid })).toBe(2);
    expect((await verify(ana.token)).statusCode).toBe(401);
    expect((await verify(phone)).statusCode).toBe(401);
    expect((await verify(tablet)).statusCode).toBe(200);
    expect(await endSessions(ctx.database.db, ana.user._id)).toBe(1);
    expect((await verify(tablet)).statusCode).toBe(401);
  });
});

describe('last use', () => {
  it('is written at most every few minutes per session, off the request path', async () => {
    const ana = await signUp(ctx.app);
    const sid = (JSON.parse(Buffer.from(ana.token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    const lastUsed = async () =>
      (
        await queryRows<{ at: string }>(
          ctx.database.db,
          sql`select last_used_at::text as at from sessions where id = ${sid}::uuid`,
        )
      )[0]!.at;
    const written = await lastUsed();
    // A check of its own, on a clock the test moves: within TOUCH_EVERY_MS of the last write, nothing is written.
    const [row] = await queryRows<{ ms: number }>(
      ctx.database.db,
      sql`select (extract(epoch from last_used_at) * 1000)::float8 as ms from sessions where id = ${sid}::uuid`,
    );
    let clock = Number(row!.ms);
    const bus = await createEventBus(ctx.database);
    const check = createSessionCheck({ db: ctx.database.db, bus, log: ctx.app.log, now: () => clock });
    try {
      clock += TOUCH_EVERY_MS - 60_000;
      for (let i = 0; i < 20; i += 1) expect(await check.live(sid, ana.user._id)).toBe(true);
      expect(await lastUsed()).toBe(written);
      clock += 120_000;
      expect(await check.live(sid, ana.user._id)).toBe(true);
      await eventually(async () => (await lastUsed()) !== written, 'last_used_at written');
    } finally {
      await bus.close();
    }
  });
});

describe('the password change', () => {
  it('ends every other session and keeps the one that asked; the new password signs in', async () => {
    const ana = await signUp(ctx.app);
    const phone = await logIn(ana);
    const phoneSocket = await liveSocket(ctx.app, phone);
    const ownSocket = await liveSocket(ctx.app, ana.token);

    const changed = await changePassword(ana.token, ana.password, 'a new pen and paper');
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ endedSessions: 1 });

    expect((await verify(phone)).statusCode).toBe(401);
    expect((await editBio(phone)).statusCode).toBe(401);
    expect(await phoneSocket.closed).toEqual({ code: LIVE_CLOSE.unauthorised, reason: ERRORS.invalidToken });
    expect((await verify(ana.token)).statusCode).toBe(200);
    expect((await editBio(ana.token)).statusCode).toBe(200);
    expect(ownSocket.isOpen()).toBe(true);
    ownSocket.socket.close();

    const oldPassword = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ana.user.username, password: ana.password },
    });
    expect(oldPassword.statusCode).toBe(401);
    expect(await logIn({ ...ana, password: 'a new pen and paper' })).toEqual(expect.any(String));
  });

  it('refuses a wrong current password (401), a weak or unchanged new one (400), with sentences', async () => {
    const ana = await signUp(ctx.app);
    const phone = await logIn(ana);
    const wrong = await changePassword(ana.token, 'not my password', 'a new pen and paper');
    expect(wrong.statusCode).toBe(401);
    expect(errorOf(wrong)).toBe(ACCOUNT_ERRORS.wrongCurrentPassword);
    const common = await changePassword(ana.token, ana.password, 'password123');
    expect(common.statusCode).toBe(400);
    expect(errorOf(common)).toMatch(/^newPassword is one of the most common passwords/);
    const same = await changePassword(ana.token, ana.password, ana.password);
    expect(same.statusCode).toBe(400);
    expect(errorOf(same)).toBe(ACCOUNT_ERRORS.samePassword);
    const short = await changePassword(ana.token, ana.password, 'abc');
    expect(short.statusCode).toBe(400);
    expect(errorOf(short)).toMatch(/^newPassword must be/);
    // Nothing changed: the other session still works, and so does the old password.
    expect((await verify(phone)).statusCode).toBe(200);
    expect(await logIn(ana)).toEqual(expect.any(String));
  });
});

describe('the password change limit', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({ config: { rateLimits: true } });
  });
  afterAll(() => limited.close());

  it('answers 429 after 5 wrong current passwords, even for the right one, until the window ends', async () => {
    const ana = await signUp(limited.app);
    const attempt = (currentPassword: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: bearer(ana.token),
        payload: { currentPassword, newPassword: 'a new pen and paper' },
      });
    for (let i = 0; i < 5; i += 1) expect((await attempt(`guess ${i}`)).statusCode).toBe(401);
    const blocked = await attempt(ana.password);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(errorOf(blocked)).toMatch(/try again in \d+ s/);
  });

  it('checks at most 5 of 25 wrong current passwords sent at once (issue 38, item 4)', async () => {
    const bea = await signUp(limited.app);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/password',
          headers: bearer(bea.token),
          payload: { currentPassword: `guess ${i}`, newPassword: 'a new pen and paper' },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });
});
