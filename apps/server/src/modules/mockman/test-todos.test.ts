import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.js';
import { TEST_TODOS } from './test-todos.routes.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('GET /api/test-todos', () => {
  it("answers the developer console's default request with the list of sample todos", async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/test-todos' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    const todos = response.json();
    expect(todos).toEqual(TEST_TODOS);
    expect(todos.length).toBeGreaterThanOrEqual(3);
    for (const todo of todos) {
      expect(Object.keys(todo).sort()).toEqual(['completed', 'id', 'title']);
      expect(todo.title.length).toBeGreaterThan(0);
    }
    expect(new Set(todos.map((t: { id: number }) => t.id)).size).toBe(todos.length);
  });

  it('answers the same signed in or out (a token is not needed, a bad one is ignored)', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/test-todos',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(TEST_TODOS);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const operation = doc.paths['/api/test-todos']?.get;
    expect(operation?.summary).toContain('developer console');
    expect(operation?.responses['200'].content['application/json'].schema.type).toBe('array');
  });
});
