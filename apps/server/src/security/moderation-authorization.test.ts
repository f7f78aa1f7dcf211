import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { ERRORS, MODERATION_MESSAGES } from '@share-arts/contract';
import { queryRows } from '../db/client.js';
import { writeReliabilitySection } from '../../../../scripts/reliability-report.mjs';
import { grantRole } from '../modules/moderation/index.js';
import { createTestApp, multipart, signUp, type SignedUp, type TestContext } from '../test/helpers.js';
import { afterAllTests, createPost, expectCleanRefusal, tinyPng } from './fixtures.js';

/**
 * Roles matrix (issue 23): every moderation route, and the writes a suspended account must no longer do,
 * × (user, moderator, admin, suspended, signed out) → the exact status. Roles are read from the database
 * on every request (a token carries none); a refused request leaves reports, the audit log and roles as
 * they were.
 */

const ACTORS = ['user', 'moderator', 'admin', 'suspended', 'signedOut'] as const;
type Actor = (typeof ACTORS)[number];

// prettier-ignore
const MATRIX: Record<string, [user: number, moderator: number, admin: number, suspended: number, signedOut: number]> = {
  //                                          user  mod  admin susp  out
  'POST /api/reports':                       [201, 201, 201, 403, 401],
  'GET /api/moderation/reports':             [403, 200, 200, 403, 401],
  'POST /api/moderation/actions':            [403, 200, 200, 403, 401],
  'GET /api/moderation/audit':               [403, 403, 200, 403, 401],
  // Blocked servers (issue 39): moderators and admins alike.
  'GET /api/moderation/servers':             [403, 200, 200, 403, 401],
  'POST /api/moderation/servers':            [403, 201, 201, 403, 401],
  'PATCH /api/moderation/servers/:id':       [403, 200, 200, 403, 401],
  'DELETE /api/moderation/servers/:id':      [403, 200, 200, 403, 401],
  'PUT /api/admin/users/:username/role':     [403, 403, 200, 403, 401],
  'GET /api/admin/jobs':                     [403, 403, 200, 403, 401],
  // No failed job has this id: the admin is told so.
  'POST /api/admin/jobs/:id/retry':          [403, 403, 404, 403, 401],
  // A reported inquiry's reference picture (issue 42): moderators and admins, while its report is open.
  'GET /api/moderation/inquiries/:id/references/:referenceId': [403, 200, 200, 403, 401],
  // A suspended account cannot act or read its own lists (its token stops working), nor sign in.
  'POST /api/posts':                         [201, 201, 201, 403, 401],
  'GET /api/feed':                           [200, 200, 200, 403, 401],
  'POST /api/auth/verify':                   [200, 200, 200, 403, 400],
  'POST /api/auth/login':                    [200, 200, 200, 403, 400],
};

let ctx: TestContext;
let who: Record<Exclude<Actor, 'signedOut'>, SignedUp>;
let artist: SignedUp;

beforeAll(async () => {
  ctx = await createTestApp();
  const [user, moderator, admin, suspended] = await Promise.all([
    signUp(ctx.app),
    signUp(ctx.app),
    signUp(ctx.app),
    signUp(ctx.app),
  ]);
  artist = await signUp(ctx.app);
  await grantRole(ctx.database.db, admin.user.username, 'admin');
  await grantRole(ctx.database.db, moderator.user.username, 'moderator');
  who = { user, moderator, admin, suspended };
  const suspension = await ctx.app.inject({
    method: 'POST',
    url: '/api/moderation/actions',
    headers: { authorization: admin.token },
    payload: { targetType: 'user', targetId: suspended.user.username, action: 'suspend', reason: 'matrix' },
  });
  expect(suspension.statusCode).toBe(200);
});
afterAll(() => ctx.close());

/** The rows a refused request must leave as they were. */
async function snapshot(): Promise<string> {
  const [row] = await queryRows<Record<string, string>>(
    ctx.database.db,
    sql`select (select coalesce(string_agg(r::text, E'\n' order by r::text), '') from reports r) as reports,
               (select coalesce(string_agg(a::text, E'\n' order by a::text), '') from moderation_actions a) as audit,
               (select string_agg(u.id || ':' || u.role, ',' order by u.id) from users u) as roles,
               (select count(*)::int from posts) as posts,
               (select coalesce(string_agg(b::text, E'\n' order by b::text), '') from server_blocks b) as servers`,
  );
  return JSON.stringify(row);
}

let blockedServers = 0;
/** A blocked server's row, made directly: the one a PATCH or DELETE of the cell names. */
async function serverBlock(): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    ctx.database.db,
    sql`insert into server_blocks (domain, severity, created_by_username)
        values (${`roles-${(blockedServers += 1)}.example`}, 'suspend', 'roles matrix') returning id`,
  );
  return row!.id;
}

/** Builds the request of one route on fresh rows (the cell's actor sends it). */
const REQUESTS: Record<string, (actor: Actor) => Promise<InjectOptions>> = {
  'POST /api/reports': async () => ({
    method: 'POST',
    url: '/api/reports',
    payload: { targetType: 'post', targetId: await createPost(ctx.app, artist), reason: 'spam' },
  }),
  'GET /api/moderation/reports': async () => ({ method: 'GET', url: '/api/moderation/reports' }),
  'POST /api/moderation/actions': async () => ({
    method: 'POST',
    url: '/api/moderation/actions',
    payload: { targetType: 'post', targetId: await createPost(ctx.app, artist), action: 'hide', reason: 'matrix' },
  }),
  'GET /api/moderation/audit': async () => ({ method: 'GET', url: '/api/moderation/audit' }),
  'GET /api/moderation/servers': async () => ({ method: 'GET', url: '/api/moderation/servers' }),
  'POST /api/moderation/servers': async () => ({
    method: 'POST',
    url: '/api/moderation/servers',
    payload: { domain: `roles-${(blockedServers += 1)}.example`, severity: 'suspend' },
  }),
  'PATCH /api/moderation/servers/:id': async () => ({
    method: 'PATCH',
    url: `/api/moderation/servers/${await serverBlock()}`,
    payload: { severity: 'silence', reason: 'roles matrix' },
  }),
  'DELETE /api/moderation/servers/:id': async () => ({
    method: 'DELETE',
    url: `/api/moderation/servers/${await serverBlock()}`,
  }),
  'PUT /api/admin/users/:username/role': async () => ({
    method: 'PUT',
    url: `/api/admin/users/${(await signUp(ctx.app)).user.username}/role`,
    payload: { role: 'moderator' },
  }),
  'GET /api/admin/jobs': async () => ({ method: 'GET', url: '/api/admin/jobs' }),
  'POST /api/admin/jobs/:id/retry': async () => ({
    method: 'POST',
    url: '/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry',
  }),
  'GET /api/moderation/inquiries/:id/references/:referenceId': async () => {
    const [client, artist] = [await signUp(ctx.app), await signUp(ctx.app)];
    const call = async (who: SignedUp, options: InjectOptions) => {
      const response = await ctx.app.inject({ ...options, headers: { ...options.headers, authorization: who.token } });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json();
    };
    const { inquiry } = await call(client, {
      method: 'POST',
      url: '/api/inquiries',
      payload: { artist: artist.user.username, body: 'A roles matrix commission' },
    });
    const { payload, contentType } = multipart([
      { name: 'file', data: await tinyPng(), filename: 'p.png', contentType: 'image/png' },
    ]);
    const { reference } = await call(client, {
      method: 'POST',
      url: `/api/inquiries/${inquiry._id}/references`,
      payload,
      headers: { 'content-type': contentType },
    });
    await call(artist, {
      method: 'POST',
      url: '/api/reports',
      payload: { targetType: 'inquiry', targetId: inquiry._id, reason: 'harassment' },
    });
    return { method: 'GET', url: `/api/moderation/inquiries/${inquiry._id}/references/${reference._id}` };
  },
  'POST /api/posts': async () => ({ method: 'POST', url: '/api/posts', payload: { content: 'roles matrix' } }),
  'GET /api/feed': async () => ({ method: 'GET', url: '/api/feed' }),
  'POST /api/auth/verify': async (actor) => ({
    method: 'POST',
    url: '/api/auth/verify',
    payload: actor === 'signedOut' ? {} : { encodedToken: who[actor].token },
  }),
  'POST /api/auth/login': async (actor) => ({
    method: 'POST',
    url: '/api/auth/login',
    payload: actor === 'signedOut' ? {} : { username: who[actor].user.username, password: who[actor].password },
  }),
};

const checked = { cells: 0, refusedWrites: 0, statuses: {} as Record<number, number> };
afterAllTests(async (failed) => {
  await writeReliabilitySection(
    'moderation-authorization',
    [
      `\`src/security/moderation-authorization.test.ts\`: ${Object.keys(MATRIX).length} routes × ${ACTORS.length} ` +
        `actors (${ACTORS.join(', ')}) = ${checked.cells} cells, one request each, against the exact status; the ` +
        `twelve moderation and admin routes also stand in the token matrix above, which gives every route a suspended account's, a moderator's and an admin's token too.`,
      '',
      `- Statuses: ${Object.entries(checked.statuses)
        .map(([status, n]) => `${status} × ${n}`)
        .join(', ')}.`,
      `- Refused writes: ${checked.refusedWrites}, each with reports, the audit log, roles, posts and blocked servers unchanged.`,
      '- The audit log refuses UPDATE, DELETE and TRUNCATE in the database (a trigger): checked in ' +
        '`src/modules/moderation/moderation.test.ts`, with a suspended token refused on the very next request.',
      `- Faults found: ${failed.length === 0 ? 0 : `${failed.length} (failed: ${failed.join('; ')})`}.`,
    ].join('\n'),
  );
});

describe('roles matrix', () => {
  it('covers every moderation route', () => {
    const routes = ctx.app.apiRoutes
      .map((r) => `${r.method} ${r.url}`)
      .filter((route) => /\/api\/(reports|moderation|admin)\b/.test(route));
    expect(routes.sort()).toEqual(
      Object.keys(MATRIX)
        .filter((route) => routes.includes(route))
        .sort(),
    );
    expect(routes).toHaveLength(12);
  });

  for (const [route, expected] of Object.entries(MATRIX)) {
    it(`${route}: ${expected.join(' ')}`, async () => {
      const method = route.split(' ')[0]!;
      for (const [i, actor] of ACTORS.entries()) {
        const options = await REQUESTS[route]!(actor);
        const headers: Record<string, string> = { ...(options.headers as object) };
        if (actor !== 'signedOut' && !route.startsWith('POST /api/auth/')) headers.authorization = who[actor].token;
        const before = method === 'GET' ? '' : await snapshot();
        const response = await ctx.app.inject({ ...options, headers });
        const label = `${route} as ${actor}`;
        checked.cells += 1;
        checked.statuses[response.statusCode] = (checked.statuses[response.statusCode] ?? 0) + 1;
        expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBe(expected[i]);
        if (response.statusCode < 400) continue;
        expectCleanRefusal(response, label);
        if (method !== 'GET') {
          expect(await snapshot(), `${label}: a refused write changed rows`).toBe(before);
          checked.refusedWrites += 1;
        }
        const message = response.json().errors[0];
        if (response.statusCode === 401) expect(message).toBe(ERRORS.missingToken);
        if (actor === 'suspended') expect(message).toBe(MODERATION_MESSAGES.suspended);
        else if (response.statusCode === 403) {
          expect(message).toBe(
            route === 'GET /api/moderation/audit' || route.includes(' /api/admin/')
              ? MODERATION_MESSAGES.adminsOnly
              : MODERATION_MESSAGES.moderatorsOnly,
          );
        }
      }
    });
  }
});
