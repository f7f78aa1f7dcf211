import { Secret, TOTP } from 'otpauth';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPost,
  createTestApp,
  signUp,
  uploadPicture,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { buildDrawnWebApp } from '../../test/drawn-web-app.js';
import { createSoftwareAuthenticator } from '../../test/software-authenticator.js';

/** The session cookie's name, as browsers keep it (modules/sessions/session-cookie.ts). */
const SESSION_COOKIE = 'sa_session';

/**
 * A signed-in viewer's Home drawn on the server (issue 22). Every answer that hands out a token sets the
 * session cookie beside it (HttpOnly, SameSite=Lax, Path=/, the token's lifetime), LOG OUT clears it, and the
 * API never takes it for a token. `GET /` with a live session's cookie is Home as that viewer's first render,
 * with the answers it was drawn from; with an ended session or a forged cookie it is the plain app (and the
 * cookie is cleared). Whatever depends on the cookie is private and never stored.
 */

// app.inject's requests come to Host localhost:80: the site's origin for the passkeys.
const ORIGIN = 'http://localhost:80';

let ctx: TestContext;
let drawn: Awaited<ReturnType<typeof buildDrawnWebApp>>;
let viewer: SignedUp;
let postId: string;
let olderPostId: string;

beforeAll(async () => {
  drawn = await buildDrawnWebApp({ feed: ['/assets/shell-abc.css', '/assets/home-page-abc.css'] });
  const { webDistDir } = drawn;
  // Behind a proxy on this machine (app.inject comes from 127.0.0.1): X-Forwarded-Proto says https.
  ctx = await createTestApp({ config: { webDistDir, trustProxy: ['loopback'] } });
  viewer = await signUp(ctx.app, { fullname: 'Iris Vale' });
  const older = await uploadPicture(ctx.app, viewer, 'Nets drying on the quay');
  olderPostId = await createPost(ctx.app, viewer, 'Quay sketch', [older._id]);
  const picture = await uploadPicture(ctx.app, viewer, 'Gulls over the harbour');
  postId = await createPost(ctx.app, viewer, 'Harbour study in grey', [picture._id]);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await drawn?.remove();
});

const post = (url: string, payload: object, token?: string) =>
  ctx.app.inject({ method: 'POST', url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The session cookie a response sets, if any. */
function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  return cookies.find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
}

/** The cookie set for `token`: its value, the token's lifetime, and only for document requests' reading. */
function expectSessionCookie(response: LightMyRequestResponse, token: string) {
  const cookie = sessionCookieOf(response);
  expect(cookie).toBeDefined();
  const [pair, ...attributes] = cookie!.split('; ');
  expect(pair).toBe(`${SESSION_COOKIE}=${token}`);
  expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']));
  expect(attributes).not.toContain('Secure');
  const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
  const maxAge = Number(/^Max-Age=(\d+)$/.exec(attributes.find((a) => a.startsWith('Max-Age=')) ?? '')?.[1]);
  expect(Math.abs(maxAge - (exp - Date.now() / 1000))).toBeLessThan(5);
}

const home = (cookie?: string, url = '/') =>
  ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.lastIndexOf('</body>'));
const pageData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(html)?.[1] ?? 'null') as Record<
    string,
    unknown
  > | null;

describe('the session cookie', () => {
  it('is set beside the token by sign-up and log-in', async () => {
    const response = await post('/api/auth/signup', {
      fullname: 'Noor Haddad',
      email: 'noor@example.com',
      username: `noor_${process.pid}`,
      password: 'correct horse battery',
    });
    expect(response.statusCode).toBe(201);
    expectSessionCookie(response, response.json().encodedToken);
    const login = await post('/api/auth/login', { username: `noor_${process.pid}`, password: 'correct horse battery' });
    expect(login.statusCode).toBe(200);
    expectSessionCookie(login, login.json().encodedToken);
    // A wrong password hands out nothing.
    const wrong = await post('/api/auth/login', { username: `noor_${process.pid}`, password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(sessionCookieOf(wrong)).toBeUndefined();
  });

  it('is set by the second factor, not by the password step that asks for it', async () => {
    const account = await signUp(ctx.app);
    const { secret } = (await post('/api/two-factor/totp/setup', {}, account.token)).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    const confirmed = await post('/api/two-factor/totp/confirm', { code }, account.token);
    expect(confirmed.statusCode).toBe(200);
    // The code just used is spent: the sign-in is finished with a recovery code.
    const login = await post('/api/auth/login', { username: account.user.username, password: account.password });
    expect(login.json().secondFactorRequired).toBe(true);
    expect(sessionCookieOf(login)).toBeUndefined();
    const finished = await post('/api/auth/login/second-factor', {
      ticket: login.json().ticket,
      code: confirmed.json().recoveryCodes[0],
    });
    expect(finished.statusCode).toBe(200);
    expectSessionCookie(finished, finished.json().encodedToken);
  });

  it('is set by a passkey sign-in', async () => {
    const account = await signUp(ctx.app);
    const authenticator = createSoftwareAuthenticator(ORIGIN);
    const options = await post('/api/two-factor/passkeys/options', {}, account.token);
    const credential = authenticator.create(options.json());
    expect((await post('/api/two-factor/passkeys', { credential }, account.token)).statusCode).toBe(201);
    const signInOptions = await post('/api/auth/passkey/options', {});
    const signedIn = await post('/api/auth/passkey', { credential: authenticator.get(signInOptions.json()) });
    expect(signedIn.statusCode).toBe(200);
    expectSessionCookie(signedIn, signedIn.json().encodedToken);
  });

  it('is Secure when the request came over https through a trusted proxy', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'x-forwarded-proto': 'https' },
      payload: {
        fullname: 'Tess Lind',
        email: 't@example.com',
        username: `tess_${process.pid}`,
        password: 'correct horse battery',
      },
    });
    expect(response.statusCode).toBe(201);
    expect(sessionCookieOf(response)?.split('; ')).toContain('Secure');
  });

  it('is cleared by LOG OUT', async () => {
    const account = await signUp(ctx.app);
    const response = await post('/api/auth/logout', {}, account.token);
    expect(response.statusCode).toBe(204);
    expect(sessionCookieOf(response)?.split('; ')).toEqual(
      expect.arrayContaining([`${SESSION_COOKIE}=`, 'Max-Age=0', 'Path=/', 'HttpOnly', 'SameSite=Lax']),
    );
  });

  it('is never a token for the API: the cookie alone is refused', async () => {
    const cookie = `${SESSION_COOKIE}=${viewer.token}`;
    for (const url of ['/api/feed?limit=12&sort=latest', '/api/users/suggestions?limit=5', '/api/sessions']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(response.statusCode, url).toBe(401);
    }
    const write = await ctx.app.inject({ method: 'POST', url: `/api/posts/like/${postId}`, headers: { cookie } });
    expect(write.statusCode).toBe(401);
    expect((await post('/api/auth/logout', {})).statusCode).toBe(401);
  });
});

describe('Home drawn on the server for the cookie’s session', () => {
  it("draws the viewer's feed, with its first picture, and the answers it was drawn from", async () => {
    const response = await home(`theme=dark; ${SESSION_COOKIE}=${viewer.token}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(String(response.headers.vary)).toMatch(/\bCookie\b/i);
    const root = rootOf(response.body);
    // The viewer's own markup, named so the head script shows it to the same account only.
    expect(
      root.startsWith(
        `<div id="root"><div class="server-drawn" data-viewer="${viewer.user._id}" data-pictures="priority">`,
      ),
    ).toBe(true);
    // The head script shows it when the stored token is this session's (the payload is not the secret part).
    expect(response.body).toContain(`<meta name="viewer" content="${viewer.token.split('.')[1]}">`);
    expect(root).toContain('Harbour study in grey');
    // The first card's picture is in the HTML for the preload scanner, first in line.
    const { post: shown } = (await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}` })).json();
    expect(root).toContain(`srcSet="${shown.picture.sources[0].srcset}"`);
    expect(root).toMatch(/<img[^>]*fetchPriority="high"/);
    // The later cards' pictures wait for the app (ui/picture-gate.ts): they would share a phone's network with it.
    const { post: later } = (await ctx.app.inject({ method: 'GET', url: `/api/posts/${olderPostId}` })).json();
    expect(root).toContain('Quay sketch');
    expect(root).not.toContain(later.picture.url);
    expect(root).not.toContain(later.picture.sources[0].srcset);
    const data = pageData(response.body)!;
    expect(Object.keys(data)).toEqual([
      '/api/feed?limit=12&sort=latest',
      '/api/users/suggestions?limit=5',
      'POST /api/auth/verify',
    ]);
    expect((data['POST /api/auth/verify'] as { user: { _id: string } }).user._id).toBe(viewer.user._id);
    expect((data['/api/feed?limit=12&sort=latest'] as { posts: { _id: string }[] }).posts[0]!._id).toBe(postId);
    // Drawn styled: Home's stylesheets are in the head.
    expect(response.body).toContain(
      '<style>.home-page-abc{color:red}</style><link rel="stylesheet" crossorigin href="/assets/home-page-abc.css" disabled>',
    );
  });

  it("draws the address's sort", async () => {
    const response = await home(`${SESSION_COOKIE}=${viewer.token}`, '/?sort=oldest');
    expect(Object.keys(pageData(response.body)!)[0]).toBe('/api/feed?limit=12&sort=oldest');
  });

  it('is the plain app, with no-cache, without a cookie', async () => {
    const response = await home();
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(String(response.headers.vary)).toMatch(/\bCookie\b/i);
    expect(response.body).toContain('<div id="root"></div>');
    expect(sessionCookieOf(response)).toBeUndefined();
  });

  it('is the plain app for an ended session or a forged cookie, and the cookie is cleared', async () => {
    const ended = await signUp(ctx.app);
    expect((await post('/api/auth/logout', {}, ended.token)).statusCode).toBe(204);
    const [header, payload] = viewer.token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    for (const token of [ended.token, forged, 'not-a-token']) {
      const response = await home(`${SESSION_COOKIE}=${token}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.body).not.toContain('page-data');
      expect(response.body).not.toContain('Harbour study in grey');
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(sessionCookieOf(response)).toMatch(/^sa_session=; Max-Age=0;/);
    }
  });

  it('answers a request for JSON at / as before', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'application/json', cookie: `${SESSION_COOKIE}=${viewer.token}` },
    });
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).not.toContain('Harbour study in grey');
  });
});

describe('Home drawn in the viewer’s language (issue 43)', () => {
  const htmlTag = (html: string) => /<html[^>]*>/.exec(html)?.[0];
  const description = (html: string) => /<meta name="description" content="([^"]*)">/.exec(html)?.[1];
  const chooseLanguage = async (who: SignedUp, language: string | null) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: { authorization: `Bearer ${who.token}` },
      payload: { userData: { settings: { language } } },
    });
    expect(response.statusCode, response.body).toBe(201);
  };

  it('is in the language the account keeps when the browser saved none, else in the browser’s', async () => {
    const reader = await signUp(ctx.app, { fullname: 'Aiko Mori' });
    await chooseLanguage(reader, 'ja');
    const session = `${SESSION_COOKIE}=${reader.token}`;
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html', cookie: session, 'accept-language': 'es' },
    });
    expect(response.statusCode).toBe(200);
    expect(rootOf(response.body)).toContain(`data-viewer="${reader.user._id}"`);
    expect(htmlTag(response.body)).toBe('<html lang="ja">');
    expect(description(response.body)).toBe('Share Arts：コミュニティとつながり、今日からインスピレーションを。');
    expect(response.headers['content-language']).toBe('ja');
    const vary = String(response.headers.vary).toLowerCase();
    expect(vary).toContain('cookie');
    expect(vary).toContain('accept-language');
    expect(response.headers['cache-control']).toBe('private, no-store');

    // "Your browser's": the Accept-Language decides.
    await chooseLanguage(reader, null);
    const browsers = await ctx.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html', cookie: session, 'accept-language': 'es-AR,es;q=0.9' },
    });
    expect(htmlTag(browsers.body)).toBe('<html lang="es">');
  });

  it('is in the language saved in the browser over the account’s, right to left in Arabic', async () => {
    const reader = await signUp(ctx.app, { fullname: 'Omar Said' });
    await chooseLanguage(reader, 'ja');
    const response = await home(`${SESSION_COOKIE}=${reader.token}; locale=ar`);
    expect(htmlTag(response.body)).toBe('<html lang="ar" dir="rtl">');
    expect(description(response.body)).toBe('Share Arts: تواصل مع المجتمع واستلهم اليوم.');
  });

  it('is in English, as before, for a viewer who chose nothing and a browser that asks for nothing', async () => {
    const response = await home(`${SESSION_COOKIE}=${viewer.token}`);
    expect(htmlTag(response.body)).toBe('<html lang="en">');
    expect(description(response.body)).toBe('Share Arts: connect to community and get inspired today.');
  });
});
