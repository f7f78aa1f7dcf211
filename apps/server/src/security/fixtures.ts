import { SignJWT } from 'jose';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { afterAll, expect, type RunnerTestSuite } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { queryRows } from '../db/client.js';
import { users } from '../db/schema.js';
import { multipart, signUp, type SignedUp, type TestContext } from '../test/helpers.js';
import { mulberry32 } from '../lib/mulberry32.js';

/** The tables whose row counts must not move when a request is refused. */
export const COUNTED_TABLES = [
  'users',
  'posts',
  'comments',
  'follows',
  'bookmarks',
  'post_reactions',
  'comment_votes',
  'media',
  'post_media',
  'tag_follows',
  'post_pins',
  'reports',
  'moderation_actions',
] as const;
export type RowCounts = Record<(typeof COUNTED_TABLES)[number], number>;

/** Row counts of every counted table, in one query. */
export async function rowCounts(ctx: TestContext): Promise<RowCounts> {
  const select = COUNTED_TABLES.map((t) => `(select count(*)::int from ${t}) as ${t}`).join(', ');
  const [row] = await queryRows<RowCounts>(ctx.database.db, sql.raw(`select ${select}`));
  return row!;
}

/** The names of the failed tests of a finished file or suite (the `suite` an afterAll receives). */
export function failedTests(suite: Readonly<RunnerTestSuite>): string[] {
  return suite.tasks.flatMap((task) =>
    task.type === 'suite' ? failedTests(task) : task.result?.state === 'fail' ? [task.name] : [],
  );
}

/**
 * An afterAll that is told which tests of the file failed, so that the figures a file writes into
 * docs/reliability.md never report a clean run that was not one.
 */
export function afterAllTests(fn: (failed: string[]) => unknown): void {
  // eslint-disable-next-line no-empty-pattern -- vitest reads a hook's first parameter as a fixture pattern
  afterAll(({}, suite) => fn(failedTests(suite)));
}

/** A seeded PRNG (mulberry32), so a failing generated run can be replayed from its printed seed. */
export function prng(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

const LEAKS: RegExp[] = [
  /\n\s+at /, // a stack frame
  /\bat .*\.(ts|js):\d+/,
  /\b(select|insert into|update|delete from)\b.*\b(from|set|values|where)\b/i,
  /syntax error at|relation "|violates .* constraint|duplicate key|column "/i,
  /\/(work|home|usr|tmp|etc|root)\//,
  /node_modules|\.ts:\d+|\.js:\d+/,
  /\bFST_[A-Z_]+\b|\bERR_[A-Z_]+\b/,
  /^(Type|Syntax|Reference|Range)Error\b|Unexpected token|Cannot read propert/,
  /\bundefined\b|\[object Object\]/,
];

/** A refused request: a 4xx with `{ errors: [message] }`, one clear message and nothing internal in it. */
export function expectCleanRefusal(response: LightMyRequestResponse, label: string): void {
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  let body: unknown;
  try {
    body = response.json();
  } catch {
    throw new Error(`${label}: the error body is not JSON: ${response.body.slice(0, 300)}`);
  }
  expect(Object.keys(body as object), label).toEqual(['errors']);
  const { errors } = body as { errors: unknown };
  expect(Array.isArray(errors) && errors.length === 1, `${label}: ${response.body.slice(0, 300)}`).toBe(true);
  const message = (errors as unknown[])[0];
  expect(typeof message, label).toBe('string');
  expect((message as string).trim().length, label).toBeGreaterThan(0);
  expect((message as string).length, `${label}: message too long`).toBeLessThan(500);
  for (const leak of LEAKS) expect(message as string, `${label}: leaks ${leak}`).not.toMatch(leak);
}

/** The world every security test acts in: an owner with a post, a comment and a picture, and others. */
export interface World {
  owner: SignedUp;
  other: SignedUp;
  /** A user whose row was deleted after signing up: their token is valid but names nobody. */
  deleted: SignedUp;
  postId: string;
  otherPostId: string;
  commentId: string;
  mediaId: string;
}

/** A small valid PNG. */
export const tinyPng = () =>
  sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();

export async function uploadPicture(app: FastifyInstance, who: SignedUp, purpose = 'post'): Promise<string> {
  const { payload, contentType } = multipart([
    { name: 'purpose', data: purpose },
    { name: 'file', data: await tinyPng(), filename: 'p.png', contentType: 'image/png' },
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/media',
    payload,
    headers: { 'content-type': contentType, authorization: who.token },
  });
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  return response.json().media._id;
}

export async function createPost(app: FastifyInstance, who: SignedUp, content = 'A painting #oil'): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content },
    headers: { authorization: who.token, prefer: 'return=minimal' },
  });
  if (response.statusCode !== 201) throw new Error(`post failed: ${response.statusCode} ${response.body}`);
  return response.json().post._id;
}

export async function createComment(app: FastifyInstance, who: SignedUp, postId: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comment`,
    payload: { commentData: { content: 'Lovely colours' } },
    headers: { authorization: who.token, prefer: 'return=minimal' },
  });
  if (response.statusCode !== 201) throw new Error(`comment failed: ${response.statusCode} ${response.body}`);
  return response.json().comment._id;
}

export async function deleteUserRow(ctx: TestContext, userId: string): Promise<void> {
  await ctx.database.db.delete(users).where(eq(users.id, userId));
}

export async function makeWorld(ctx: TestContext): Promise<World> {
  const [owner, other, deleted] = await Promise.all([signUp(ctx.app), signUp(ctx.app), signUp(ctx.app)]);
  await deleteUserRow(ctx, deleted.user._id);
  const postId = await createPost(ctx.app, owner);
  const otherPostId = await createPost(ctx.app, other);
  const commentId = await createComment(ctx.app, owner, postId);
  const mediaId = await uploadPicture(ctx.app, owner);
  return { owner, other, deleted, postId, otherPostId, commentId, mediaId };
}

/** Forged and broken tokens, built from a valid one. */
export async function forgedTokens(valid: SignedUp, secret: string) {
  const [header, payload, signature] = valid.token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return {
    garbage: 'not-a-token.at.all',
    algNone: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
    wrongSecret: await new SignJWT({ username: valid.user.username })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(valid.user._id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-different-secret-that-is-also-long-enough-0123456789')),
    tampered: `${header}.${b64({ ...claims, sub: '00000000-0000-4000-8000-000000000000', username: 'admin' })}.${signature}`,
    // Its session is live: only the expiry refuses it.
    expired: await new SignJWT({ username: valid.user.username, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(valid.user._id)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(new TextEncoder().encode(secret)),
  };
}

/** The Mastodon API's routes (issue 45): their refusals are Mastodon's `{"error": "…"}`, not ours. */
export const isMastodonRoute = (route: string): boolean => /^[A-Z]+ \/api\/v1\//.test(route);

/** expectCleanRefusal for a Mastodon route: a 4xx whose JSON body is `{"error": "…"}`, short, with no leak. */
export function expectCleanMastodonRefusal(response: LightMyRequestResponse, label: string): void {
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  let body: unknown;
  try {
    body = response.json();
  } catch {
    throw new Error(`${label}: the error body is not JSON: ${response.body.slice(0, 300)}`);
  }
  expect(Object.keys(body as object), label).toEqual(['error']);
  const message = (body as { error: unknown }).error;
  expect(typeof message, label).toBe('string');
  expect((message as string).trim().length, label).toBeGreaterThan(0);
  expect((message as string).length, `${label}: message too long`).toBeLessThan(500);
  for (const leak of LEAKS) expect(message as string, `${label}: leaks ${leak}`).not.toMatch(leak);
}
