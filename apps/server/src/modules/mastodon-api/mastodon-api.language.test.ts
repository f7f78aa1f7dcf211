import { LOCALES } from '@share-arts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * A status's language through the Mastodon client API (issue 43): `language` on create and edit is the work's
 * language, kept in its canonical form and answered on the status as the site's post answers it; the instance lists
 * the languages the site speaks.
 */
let ctx: TestContext;
let ana: SignedUp;

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });

async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return ctx.app.inject({ method, url, headers: auth(ana), ...(payload ? { payload } : {}) });
}

beforeAll(async () => {
  ctx = await createTestApp();
  ana = await signUp(ctx.app, { fullname: 'Ana Rivera' });
});
afterAll(() => ctx.close());

describe("a status's language", () => {
  it('is kept from the create, canonical (pt_BR as clients send it), and answered as the site answers it', async () => {
    const created = await api('POST', '/api/v1/statuses', { status: 'Estudo de luz', language: 'pt_BR' });
    expect(created.statusCode, created.body).toBe(200);
    const status = created.json();
    expect(status.language).toBe('pt-BR');
    expect((await api('GET', `/api/v1/statuses/${status.id}`)).json().language).toBe('pt-BR');
    const post = await ctx.app.inject({ method: 'GET', url: `/api/posts/${status.id}` });
    expect(post.json().post.language).toBe('pt-BR');
  });

  it('is null when the client sends none, and changes with an edit', async () => {
    const created = await api('POST', '/api/v1/statuses', { status: 'A quiet study' });
    expect(created.json().language).toBeNull();
    const edited = await api('PUT', `/api/v1/statuses/${created.json().id}`, {
      status: 'A quiet study',
      language: 'en',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().language).toBe('en');
    // An edit that says no language keeps it.
    const again = await api('PUT', `/api/v1/statuses/${created.json().id}`, { status: 'A quieter study' });
    expect(again.json().language).toBe('en');
  });

  it('refuses what is not a language tag in Mastodon words, and writes nothing', async () => {
    for (const language of ['english!', 'en-a', '12']) {
      const response = await api('POST', '/api/v1/statuses', { status: `Refused ${language}`, language });
      expect(response.statusCode, language).toBe(422);
      expect(response.json()).toEqual({ error: 'Validation failed: Language is not valid' });
    }
    const mine = await api('GET', `/api/v1/accounts/${ana.user._id}/statuses`);
    expect(mine.json().some((status: { content: string }) => status.content.includes('Refused'))).toBe(false);
  });
});

describe("the instance's languages", () => {
  it('are the languages the site speaks, in v1 and v2', async () => {
    expect((await api('GET', '/api/v1/instance')).json().languages).toEqual([...LOCALES]);
    expect((await api('GET', '/api/v2/instance')).json().languages).toEqual([...LOCALES]);
  });
});
