import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createTestApp, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * The web app's rules through the Mastodon door (issue 45): OAuth scopes, blocks and mutes, works shown to
 * signed-in people only, who may comment. Against the real database.
 */
let ctx: TestContext;
const REDIRECT = 'https://app.example/callback';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** An app's access token for `who` with `scope`, through the OAuth flow with PKCE (the oauth module's routes). */
async function appToken(who: SignedUp, scope: string): Promise<string> {
  const registered = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/apps',
    payload: { client_name: 'Test app', redirect_uris: REDIRECT, scopes: 'read write follow' },
  });
  const app = registered.json();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorized = await ctx.app.inject({
    method: 'POST',
    url: '/api/oauth/authorizations',
    headers: bearer(who.token),
    payload: {
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      scope,
      approve: true,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    },
  });
  expect(authorized.statusCode, authorized.body).toBe(200);
  const code = new URL(authorized.json().redirectUrl).searchParams.get('code');
  const token = await ctx.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      client_secret: app.client_secret,
      code_verifier: verifier,
    },
  });
  expect(token.statusCode, token.body).toBe(200);
  return token.json().access_token;
}

describe('OAuth scopes', () => {
  it('a read token reads but cannot post; a write:statuses token posts but cannot read favourites', async () => {
    const who = await signUp(ctx.app);
    const read = await appToken(who, 'read');
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/timelines/home', headers: bearer(read) })).statusCode,
    ).toBe(200);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/statuses',
      headers: bearer(read),
      payload: { status: 'from a read-only app' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'This action is outside the authorized scopes' });

    const write = await appToken(who, 'write:statuses');
    const posted = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/statuses',
      headers: bearer(write),
      payload: { status: 'from a write app' },
    });
    expect(posted.statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/favourites', headers: bearer(write) })).statusCode,
    ).toBe(403);
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/v1/timelines/home',
          headers: { authorization: 'Bearer nonsense' },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('blocks, mutes and who sees what', () => {
  let ana: SignedUp;
  let ben: SignedUp;
  let anaWork: string;

  beforeAll(async () => {
    ana = await signUp(ctx.app);
    ben = await signUp(ctx.app);
    anaWork = await createPost(ctx.app, ana, 'a #quietwork of mine');
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/statuses',
      headers: bearer(ben.token),
      payload: { status: 'hello', in_reply_to_id: anaWork },
    });
  });

  it('a blocked pair do not meet: statuses 404, out of timelines, the comment out of the context', async () => {
    const block = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/accounts/${ben.user._id}/block`,
      headers: bearer(ana.token),
    });
    expect(block.statusCode).toBe(200);
    // Ben no longer sees Ana's work, by id, in a tag or in the public timeline.
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/v1/statuses/${anaWork}`, headers: bearer(ben.token) }))
        .statusCode,
    ).toBe(404);
    const tag = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/timelines/tag/quietwork',
      headers: bearer(ben.token),
    });
    expect(tag.json()).toEqual([]);
    const favourite = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/statuses/${anaWork}/favourite`,
      headers: bearer(ben.token),
    });
    expect(favourite.statusCode).toBe(404);
    const reply = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/statuses',
      headers: bearer(ben.token),
      payload: { status: 'still here?', in_reply_to_id: anaWork },
    });
    expect(reply.statusCode).toBe(404);
    // Ana no longer sees Ben's comment in her work's context.
    const context = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/statuses/${anaWork}/context`,
      headers: bearer(ana.token),
    });
    expect(context.json().descendants).toEqual([]);
    // The relationship does not tell Ben he is blocked.
    const relationship = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/accounts/relationships?id[]=${ana.user._id}`,
      headers: bearer(ben.token),
    });
    expect(relationship.json()[0].blocked_by).toBe(false);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/accounts/${ben.user._id}/unblock`,
      headers: bearer(ana.token),
    });
  });

  it('a muted person’s works leave the muter’s public timeline', async () => {
    const carl = await signUp(ctx.app);
    const work = await createPost(ctx.app, carl, 'muted work');
    await ctx.app.inject({ method: 'POST', url: `/api/v1/accounts/${carl.user._id}/mute`, headers: bearer(ana.token) });
    const line = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/timelines/public?limit=40',
      headers: bearer(ana.token),
    });
    expect(line.json().map((status: { id: string }) => status.id)).not.toContain(work);
  });

  it('works shown to signed-in people only are not there signed out', async () => {
    const dana = await signUp(ctx.app);
    const work = await createPost(ctx.app, dana, 'for members');
    const hide = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/accounts/update_credentials',
      headers: bearer(dana.token),
      payload: { discoverable: false },
    });
    expect(hide.json()).toMatchObject({ discoverable: false, indexable: false, noindex: true });
    expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/statuses/${work}` })).statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/v1/statuses/${work}`, headers: bearer(ana.token) })).statusCode,
    ).toBe(200);
  });

  it('the artist’s comment policy applies to replies', async () => {
    const eli = await signUp(ctx.app);
    const closed = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: bearer(eli.token),
      payload: { content: 'no comments please', commentPolicy: 'nobody' },
    });
    const id = closed.json().post._id;
    const reply = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/statuses',
      headers: bearer(ana.token),
      payload: { status: 'but…', in_reply_to_id: id },
    });
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toEqual({ error: 'The author has turned off comments on this post.' });
  });
});
