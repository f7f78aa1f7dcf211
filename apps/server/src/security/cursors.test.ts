import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, errorOf, type TestContext } from '../test/helpers.js';
import { makeWorld, type World } from './fixtures.js';
import { grantRole } from '../modules/moderation/index.js';

/**
 * Forged cursors (issue 18, failure 6): a cursor that decodes into the right shape but holds a value no
 * page could have produced (a date outside years 0001–9999, an integer past a counter's range) is a 400
 * that says so, on every paged route and as the live stream's lastEventId — never a 500 from SQL.
 */

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const UUID = '00000000-0000-4000-8000-000000000000';
const FAR_FUTURE = '+275760-09-13T00:00:00.000Z';
const FAR_PAST = '-271821-04-20T00:00:00.000Z';
// Year 0 is a date to JavaScript, but PostgreSQL has none (1 BC comes before 1 AD): issue 38, item 12.
const YEAR_ZERO = '0000-06-15T00:00:00.000Z';
const BAD_DATES = [FAR_FUTURE, FAR_PAST, YEAR_ZERO, '275760-09-13', '2026-11-25', 'Tue, 25 Nov 2026 10:00:00 GMT', '0'];
const BAD_INTS = [2 ** 31, 2 ** 53 - 1, 2 ** 53 + 2, -(2 ** 31) - 1, 1e300, 1.5];

/**
 * Every sort-key shape a page uses, each with one forged value and the rest valid. Search pages rank
 * by a float, for which any finite number is a value a page could hold: they get only the forged dates.
 */
function forgedCursors(rankedByFloat: boolean): string[] {
  const date = '2026-11-25T10:00:00.000Z';
  const cursors: unknown[] = [];
  for (const bad of BAD_DATES) {
    cursors.push([bad, UUID], [1, bad, UUID], [0.5, bad, UUID]);
  }
  if (!rankedByFloat) {
    for (const bad of BAD_INTS) cursors.push([bad, date, UUID], [bad, 1, UUID], [1, bad, UUID]);
  }
  return cursors.map(b64);
}

let ctx: TestContext;
let world: World;
let seriesId: string;
/** A public collection of the owner's (issue 41), whose works are paged. */
let collectionId: string;
/** An inquiry the owner sent (issue 42), whose messages are paged. */
let inquiryId: string;
beforeAll(async () => {
  ctx = await createTestApp();
  world = await makeWorld(ctx);
  // The moderation queue and audit log are paged too: the owner may read them (admin).
  await grantRole(ctx.database.db, world.owner.user.username, 'admin');
  // A series of the owner's (issue 41), whose works are paged.
  const made = await ctx.app.inject({
    method: 'POST',
    url: '/api/series',
    headers: { authorization: world.owner.token },
    payload: { title: 'Forged cursors' },
  });
  expect(made.statusCode, made.body).toBe(201);
  seriesId = (made.json() as { series: { _id: string } }).series._id;
  const collection = await ctx.app.inject({
    method: 'POST',
    url: '/api/collections',
    headers: { authorization: world.owner.token },
    payload: { title: 'Forged cursors', visibility: 'public' },
  });
  expect(collection.statusCode, collection.body).toBe(201);
  collectionId = (collection.json() as { collection: { _id: string } }).collection._id;
  const inquiry = await ctx.app.inject({
    method: 'POST',
    url: '/api/inquiries',
    headers: { authorization: world.owner.token },
    payload: { artist: world.other.user.username, body: 'Forged cursors' },
  });
  expect(inquiry.statusCode, inquiry.body).toBe(201);
  inquiryId = (inquiry.json() as { inquiry: { _id: string } }).inquiry._id;
});
afterAll(() => ctx.close());

/** The paged GET routes, from the OpenAPI document (every route that takes a `cursor`). */
async function pagedRoutes(): Promise<string[]> {
  const doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
  };
  const fill = (path: string) =>
    path
      .replace('{username}', world.owner.user.username)
      .replace('{postId}', world.postId)
      .replace('{tag}', 'watercolour')
      .replace(/^\/api\/series\/\{id\}/, `/api/series/${seriesId}`)
      .replace(/^\/api\/collections\/\{id\}/, `/api/collections/${collectionId}`)
      .replace(/^\/api\/inquiries\/\{id\}/, `/api/inquiries/${inquiryId}`)
      .replace(/\{[^}]+\}/g, world.postId);
  return Object.entries(doc.paths)
    .filter(([, item]) => item.get?.parameters?.some((p) => p.in === 'query' && p.name === 'cursor'))
    .map(([path]) => fill(path));
}

describe('forged cursors', () => {
  it('are a 400 that names the cursor on every paged route, signed in or not', async () => {
    const routes = await pagedRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(8);
    const failures: string[] = [];
    for (const route of routes) {
      const extra = route.includes('/search') ? '&q=painting' : '';
      for (const sort of route === '/api/posts' || route === '/api/feed' ? ['latest', 'oldest', 'trending'] : ['']) {
        for (const cursor of forgedCursors(route.includes('/search'))) {
          for (const headers of [{ authorization: world.owner.token }, {}]) {
            const url = `${route}?cursor=${cursor}${extra}${sort ? `&sort=${sort}` : ''}`;
            const response = await ctx.app.inject({ method: 'GET', url, headers });
            if (response.statusCode === 401 && !('authorization' in headers)) continue;
            if (response.statusCode !== 400 || !/cursor/.test(errorOf(response))) {
              failures.push(`${url} → ${response.statusCode} ${response.body.slice(0, 80)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('as a live lastEventId close the socket as a bad frame (4000), not a server error', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as { port: number };
    for (const lastEventId of [b64([FAR_FUTURE, UUID]), b64([FAR_PAST, UUID]), b64([YEAR_ZERO, UUID])]) {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/live`);
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'hello', token: world.owner.token, lastEventId }));
      const code = await new Promise<number>((resolve) => socket.once('close', resolve));
      expect(code).toBe(4000);
    }
  });
});
