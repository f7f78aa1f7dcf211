import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, scryptSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { ERRORS } from '@share-arts/contract';
import { users } from '../../db/schema.js';
import { createTestApp, errorOf, signUp, uniqueUsername, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, headers });

const COMMON_PASSWORD = 'password is one of the most common passwords, which are guessed first';
const BLANK_PASSWORD = 'password must not be blank: use words or characters you can see.';
const INVISIBLE =
  'must not contain control characters, text-direction marks or invisible characters (zero-width spaces or joiners, fillers, tags).';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token's claims, unverified (a forgery keeps the real token's session, so only its flaw refuses it). */
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid?: string };

describe('POST /api/auth/signup', () => {
  it('creates the user, splits fullname into first and last name, and answers 201 with a token', async () => {
    const username = uniqueUsername('Ana');
    const response = await post('/api/auth/signup', {
      fullname: '  Ana   Maria Rivera ',
      email: 'ana@example.com',
      username,
      password: 'a-long-password',
    });
    expect(response.statusCode).toBe(201);
    const { encodedToken, createdUser } = response.json();
    expect(typeof encodedToken).toBe('string');
    expect(createdUser).toMatchObject({
      username,
      firstName: 'Ana',
      lastName: 'Maria Rivera',
      email: 'ana@example.com',
      bio: '',
      link: '',
      followers: [],
      following: [],
      bookmarks: [],
      followerCount: 0,
      followingCount: 0,
      postCount: 0,
    });
    expect(createdUser._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(createdUser.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(createdUser.userPhoto).toMatch(/^\/media\//);
  });

  it('keeps names in any script and emoji made with joiners', async () => {
    const response = await post('/api/auth/signup', {
      fullname: 'Zoë 李 محمد 👩\u200D🎨 ❤\uFE0F 🏳\uFE0F\u200D🌈',
      email: 'zoe@example.com',
      username: uniqueUsername(),
      password: 'a-long-password',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().createdUser.lastName).toBe('李 محمد 👩\u200D🎨 ❤\uFE0F 🏳\uFE0F\u200D🌈');
  });

  it('accepts firstName and lastName instead of fullname', async () => {
    const response = await post('/api/auth/signup', {
      firstName: 'Kofi',
      lastName: 'Mensah',
      email: 'kofi@example.com',
      username: uniqueUsername(),
      password: 'a-long-password',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().createdUser).toMatchObject({ firstName: 'Kofi', lastName: 'Mensah' });
  });

  it('stores only a memory-hard hash of the password', async () => {
    const { user, password } = await signUp(ctx.app);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user._id));
    expect(row!.passwordHash).toMatch(/^scrypt-nfc\$\d+\$8\$1\$/);
    expect(row!.passwordHash).not.toContain(password);
  });

  it('refuses a username that exists in any letter case with the spec 422', async () => {
    const { user } = await signUp(ctx.app);
    const response = await post('/api/auth/signup', {
      fullname: 'Someone Else',
      email: 'else@example.com',
      username: user.username.toUpperCase(),
      password: 'a-long-password',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ errors: [ERRORS.usernameTaken] });
  });

  it.each([
    [{ username: 'ab' }, 'username must be 3 to 30 characters'],
    [{ username: 'has space' }, 'username must be 3 to 30 characters'],
    [{ username: '<script>' }, 'username must be 3 to 30 characters'],
    [{ username: 'x'.repeat(31) }, 'username must be 3 to 30 characters'],
    [{ username: 'Settings' }, 'The username "Settings" is reserved. Please choose another.'],
    [{ password: 'short' }, 'password must be 8 to 128 characters long.'],
    [{ email: 'not-an-email' }, 'email must be a valid address, like ana@example.com.'],
    [{ email: undefined }, 'email is required.'],
    [{ password: undefined }, 'password is required.'],
    [{ fullname: '   ' }, ERRORS.nameRequired],
    [{ fullname: 42 }, 'fullname must be a string.'],
    [{ fullname: `${'a'.repeat(51)} b` }, 'First and last name must be at most 50 characters each.'],
    [{ password: '12345678' }, COMMON_PASSWORD],
    [{ password: 'Password1' }, COMMON_PASSWORD],
    [{ password: 'iloveyou' }, COMMON_PASSWORD],
    [{ password: '        ' }, BLANK_PASSWORD],
    [{ password: '\u200b'.repeat(8) }, BLANK_PASSWORD],
    [{ password: '\u3000\t'.repeat(4) }, BLANK_PASSWORD],
    [{ username: 'mİra' }, 'username must be 3 to 30 characters'],
    ...[
      'Mi\u200Bra',
      'Mi\u200Cra',
      'Mi\u200Dra',
      'Mira\u2060',
      '\uFEFFMira',
      'Mira\u061C',
      '\u3164',
      '\u3164 \u3164',
      'Mi\u2028ra',
      'Mi\u2029ra',
      'Mira\u{E0041}\u{E007F}',
      'Mi\u00ADra',
      '\u2800',
      'Mira\uFE0F',
      '\u115F\u1160',
      '\uFFA0',
      'Mi\u202Era',
    ].map((fullname): [Record<string, unknown>, string] => [{ fullname }, `fullname ${INVISIBLE}`]),
    [{ firstName: 'Mi\u200Bra', lastName: 'Rivera' }, `firstName ${INVISIBLE}`],
    [{ firstName: 'Mira', lastName: '\u3164' }, `lastName ${INVISIBLE}`],
  ])('refuses %j with a 400 that says what to fix', async (change, message) => {
    const body = {
      fullname: 'Ana Rivera',
      email: 'ana@example.com',
      username: uniqueUsername(),
      password: 'a-long-password',
      ...change,
    };
    const response = await post('/api/auth/signup', body);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).startsWith(message)).toBe(true);
  });

  it('refuses a body that is not a JSON object', async () => {
    const response = await post('/api/auth/signup', '"just a string"', { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe('The request body must be a JSON object.');
  });
});

describe('POST /api/auth/login', () => {
  it('answers 200 with the user and a token that verifies', async () => {
    const { user, password } = await signUp(ctx.app);
    const response = await post('/api/auth/login', { username: user.username, password });
    expect(response.statusCode).toBe(200);
    const { foundUser, encodedToken } = response.json();
    expect(foundUser._id).toBe(user._id);
    const verified = await post('/api/auth/verify', { encodedToken });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user.username).toBe(user.username);
  });

  it('finds the username in any letter case', async () => {
    const { user, password } = await signUp(ctx.app);
    const response = await post('/api/auth/login', { username: user.username.toUpperCase(), password });
    expect(response.statusCode).toBe(200);
  });

  it('answers 404 with the spec message for an unknown username', async () => {
    const response = await post('/api/auth/login', { username: 'nobody_here_at_all', password: 'whatever1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errors: [ERRORS.usernameNotRegistered] });
  });

  it('answers 401 with the spec message for a wrong password', async () => {
    const { user, password } = await signUp(ctx.app);
    const response = await post('/api/auth/login', { username: user.username, password: `${password}x` });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ errors: [ERRORS.invalidCredentials] });
  });

  it('refuses a username with letters outside A to Z with a 400, not another spelling of an account', async () => {
    const { user, password } = await signUp(ctx.app, { username: uniqueUsername('ira') });
    const dotted = user.username.replace('i', 'İ');
    const response = await post('/api/auth/login', { username: dotted, password });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe(
      'username has only the letters A to Z, digits, _ and . (no accents or letters of other alphabets).',
    );
  });

  it('signs in with the password typed on an NFD keyboard to an account made with NFC, and back', async () => {
    const nfc = 'crème brûlée à minuit'.normalize('NFC');
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    const made = await signUp(ctx.app, { password: nfc });
    expect((await post('/api/auth/login', { username: made.user.username, password: nfd })).statusCode).toBe(200);
    const other = await signUp(ctx.app, { password: nfd });
    expect((await post('/api/auth/login', { username: other.user.username, password: nfc })).statusCode).toBe(200);
    expect((await post('/api/auth/login', { username: other.user.username, password: `${nfc}!` })).statusCode).toBe(
      401,
    );
  });

  it('signs in an account whose hash was made from the raw text before, then upgrades the hash', async () => {
    const nfd = 'crème brûlée à minuit'.normalize('NFD');
    const { user } = await signUp(ctx.app);
    // The hash an account created before normalisation has: scrypt of the text exactly as typed.
    const salt = randomBytes(16);
    const key = scryptSync(nfd, salt, 32, { N: 1024, r: 8, p: 1 });
    const legacy = ['scrypt', 1024, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    await ctx.database.db.update(users).set({ passwordHash: legacy }).where(eq(users.id, user._id));
    expect((await post('/api/auth/login', { username: user.username, password: nfd })).statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user._id));
    expect(row!.passwordHash).toMatch(/^scrypt-nfc\$/);
    // Now a keyboard that sends NFC signs in too; a wrong password still does not.
    expect(
      (await post('/api/auth/login', { username: user.username, password: nfd.normalize('NFC') })).statusCode,
    ).toBe(200);
    expect((await post('/api/auth/login', { username: user.username, password: 'crème brûlée' })).statusCode).toBe(401);
  });

  it.each([['application/x-www-form-urlencoded'], ['text/plain;charset=UTF-8']])(
    'parses a JSON body sent as %s (mock-era clients)',
    async (contentType) => {
      const { user, password } = await signUp(ctx.app);
      const response = await post('/api/auth/login', JSON.stringify({ username: user.username, password }), {
        'content-type': contentType,
      });
      expect(response.statusCode).toBe(200);
    },
  );

  it('answers 400 with a clear message for invalid JSON', async () => {
    const response = await post('/api/auth/login', '{"username": "x",', { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe(ERRORS.invalidJson);
  });

  it('refuses prototype-poisoning keys', async () => {
    const response = await post('/api/auth/login', '{"username":"a","password":"b","__proto__":{"admin":true}}', {
      'content-type': 'application/json',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('tokens', () => {
  let account: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    account = await signUp(ctx.app);
  });

  const editBio = (authorization: string | undefined, bio = 'hello') =>
    post('/api/users/edit', { userData: { bio } }, authorization === undefined ? {} : { authorization });

  it('works raw (as the first client sent it) and as Bearer', async () => {
    expect((await editBio(account.token, 'raw')).statusCode).toBe(201);
    const bearer = await editBio(`Bearer ${account.token}`, 'bearer');
    expect(bearer.statusCode).toBe(201);
    expect(bearer.json().user.bio).toBe('bearer');
  });

  it('is required on protected routes', async () => {
    const response = await editBio(undefined);
    expect(response.statusCode).toBe(401);
    expect(errorOf(response)).toBe(ERRORS.missingToken);
  });

  const forgeries: [string, () => Promise<string>][] = [
    ['garbage', async () => 'not-a-token'],
    ['with = appended', async () => `${account.token}=`],
    [
      'signed with another secret',
      async () =>
        new SignJWT({ username: account.user.username })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(account.user._id)
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode('another-secret-another-secret-another-secret')),
    ],
    [
      'with a tampered payload',
      async () => {
        const [header, , signature] = account.token.split('.');
        return `${header}.${b64({ sub: '00000000-0000-4000-8000-000000000000', username: 'mira' })}.${signature}`;
      },
    ],
    [
      'with alg none',
      async () =>
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: account.user._id, username: account.user.username })}.`,
    ],
    [
      'expired',
      async () =>
        new SignJWT({ username: account.user.username, sid: claimsOf(account.token).sid })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(account.user._id)
          .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
          .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
          .sign(new TextEncoder().encode(ctx.config.jwtSecret)),
    ],
  ];

  it.each(forgeries)('a token %s is 401 on verify and on protected routes', async (_name, make) => {
    const token = await make();
    const verify = await post('/api/auth/verify', { encodedToken: token });
    expect(verify.statusCode).toBe(401);
    expect(verify.json()).toEqual({ errors: [ERRORS.invalidToken] });
    const edit = await editBio(`Bearer ${token}`, 'forged');
    expect(edit.statusCode).toBe(401);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, account.user._id));
    expect(row!.bio).not.toBe('forged');
  });

  it('a valid token of a deleted user is 404 on verify', async () => {
    const gone = await signUp(ctx.app);
    await ctx.database.db.delete(users).where(eq(users.id, gone.user._id));
    const response = await post('/api/auth/verify', { encodedToken: gone.token });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errors: [ERRORS.usernameNotRegistered] });
  });
});

describe('no response leaks a password', () => {
  it('signup, login, verify and edit bodies carry neither password nor hash', async () => {
    const password = 'very-secret-password';
    const username = uniqueUsername();
    const responses = [
      await post('/api/auth/signup', { fullname: 'Leak Test', email: 'l@example.com', username, password }),
    ];
    const token = responses[0]!.json().encodedToken;
    responses.push(await post('/api/auth/login', { username, password }));
    responses.push(await post('/api/auth/verify', { encodedToken: token }));
    responses.push(await post('/api/users/edit', { userData: { bio: 'x' } }, { authorization: token }));
    for (const response of responses) {
      expect(response.statusCode).toBeLessThan(300);
      expect(response.body).not.toContain(password);
      expect(response.body).not.toMatch(/password|scrypt\$/i);
    }
  });
});
