import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorOf, signUp, type TestContext } from '../test/helpers.js';
import { compileAllSchemas } from './lazy-schemas.js';

/**
 * Route schemas are compiled on their route's first request, not at start (lazy-schemas.ts): the first request
 * answers as an eagerly compiled route would, and every route's schemas do compile (a schema that does not would
 * otherwise fail its route's first request in production rather than the start).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('route schemas compiled on first use', () => {
  it('refuses invalid input on a route’s first request with the sentence saying what to fix', async () => {
    const body = await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { username: 5 } });
    expect(body.statusCode).toBe(400);
    expect(errorOf(body)).toMatch(/\S.*\.$/);
    const notObject = await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: [] });
    expect(notObject.statusCode).toBe(400);
    expect(errorOf(notObject)).toBe('The request body must be a JSON object.');
    // Query parameters are coerced, and must come out finite.
    const infinite = await ctx.app.inject({ method: 'GET', url: '/api/posts?limit=Infinity' });
    expect(infinite.statusCode).toBe(400);
    expect(errorOf(infinite)).toMatch(/limit/);
    const ana = await signUp(ctx.app);
    expect(ana.user.username).toMatch(/^user_/);
    // A serializer compiled on the route's first answer shapes it as documented.
    const page = await ctx.app.inject({ method: 'GET', url: '/api/posts?limit=2' });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toHaveProperty('posts');
  });

  it('compiles every route’s validators and serializers', () => {
    const first = compileAllSchemas(ctx.app);
    expect(first.failures).toEqual([]);
    // Most were not compiled yet: only the routes the test above sent requests to were.
    expect(first.compiled).toBeGreaterThan(300);
    expect(compileAllSchemas(ctx.app)).toEqual({ compiled: 0, failures: [] });
  });
});
