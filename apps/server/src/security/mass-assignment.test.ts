import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, getTableColumns, type Column } from 'drizzle-orm';
import { postMedia, postPins, posts, users } from '../db/schema.js';
import { writeReliabilitySection } from '../../../../scripts/reliability-report.mjs';
import { createTestApp, signUp, type SignedUp, type TestContext } from '../test/helpers.js';
import { afterAllTests, createPost, rowCounts, uploadPicture } from './fixtures.js';

/**
 * Mass assignment (issue 8, part 5): every column of users and posts (by its TypeScript name and its SQL
 * name) and the nested objects the API shows, sent through postData and userData. Only the whitelisted
 * fields change: content and the pictures (mediaId, mediaIds) of a post; firstName, lastName, email, bio, link, worksSignedInOnly and userPhoto of a user; a pin's position and a reorder's postIds.
 */

let ctx: TestContext;
let owner: SignedUp;
let other: SignedUp;
let postId: string;
let otherPostId: string;
let avatarId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  [owner, other] = await Promise.all([signUp(ctx.app), signUp(ctx.app)]);
  postId = await createPost(ctx.app, owner, 'The original words');
  otherPostId = await createPost(ctx.app, other, 'Not yours');
  avatarId = await uploadPicture(ctx.app, other, 'avatar');
});
afterAll(() => ctx.close());

/** Figures for docs/reliability.md, counted as the requests are sent and answered. */
const figures: Record<string, { requests: number; fields: number; statuses: Record<number, number> }> = {};
function count(body: string, status: number) {
  const entry = (figures[body] ??= { requests: 0, fields: 0, statuses: {} });
  entry.requests += 1;
  entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
}
afterAllTests(async (failed) => {
  const total = Object.values(figures).reduce((n, f) => n + f.requests, 0);
  await writeReliabilitySection(
    'mass-assignment',
    [
      `\`src/security/mass-assignment.test.ts\`: ${total} edit requests carrying every column of users and posts ` +
        '(by TypeScript and SQL name) and the nested objects the API shows, one at a time and all at once, ' +
        'plus `__proto__` and `constructor.prototype` keys.',
      '',
      '- Only the whitelisted fields changed (post: content, mediaId, mediaIds; user: firstName, lastName, email, bio, link, ' +
        "worksSignedInOnly, userPhoto; pin: position; reorder: postIds); other users' rows and every table's row count unchanged after each request.",
      `- Faults found: ${failed.length === 0 ? 0 : `${failed.length} (failed: ${failed.join('; ')})`}.`,
      '',
      '| body | requests | fields tried | statuses |',
      '| --- | ---: | ---: | --- |',
      ...Object.entries(figures).map(
        ([body, f]) =>
          `| ${body} | ${f.requests} | ${f.fields} | ${Object.entries(f.statuses)
            .map(([status, n]) => `${status} × ${n}`)
            .join(', ')} |`,
      ),
    ].join('\n'),
  );
});

const hostile = () => '00000000-0000-4000-8000-000000000001';

/** A value of the column's own type (so only the whitelist can stop it), pointing at someone else where it can. */
function valueFor(column: Column): unknown {
  switch (column.columnType) {
    case 'PgUUID':
      return column.name.includes('media') ? avatarId : other.user._id;
    case 'PgInteger':
      return 999_999;
    case 'PgTimestamp':
      return '2001-02-03T04:05:06.000Z';
    case 'PgBoolean':
      return true;
    case 'PgArray':
      return ['hacked', 'admin'];
    default:
      return column.name === 'email' ? 'attacker@example.com' : 'hacked-value';
  }
}

/** Nested objects and keys the API shows on posts and users, with hostile contents. */
const NESTED: Record<string, unknown> = {
  _id: hostile(),
  id: hostile(),
  likes: { likeCount: 1000, dislikeCount: 1000, likedBy: [{ _id: hostile(), username: 'x' }], dislikedBy: [] },
  comments: [{ _id: hostile(), content: 'injected', userId: hostile() }],
  commentCount: 77,
  followers: [{ _id: hostile(), username: 'x' }],
  following: [{ _id: hostile(), username: 'x' }],
  bookmarks: [hostile()],
  viewer: { isAuthor: true, liked: true },
  username: 'renamed_user',
  userId: hostile(),
  password: 'new password 123',
  role: 'admin',
  isAdmin: true,
  constructor: { name: 'x' },
  toString: 'x',
  postPic: '/media/evil.jpg',
  picture: { _id: hostile() },
  media: [{ _id: hostile() }],
};

const columnsOf = (table: typeof users | typeof posts | typeof postPins) =>
  Object.entries(getTableColumns(table)).flatMap(([key, column]) => [
    [key, valueFor(column)] as const,
    [column.name, valueFor(column)] as const,
  ]);

async function postRow() {
  const [row] = await ctx.database.db.select().from(posts).where(eq(posts.id, postId));
  return row!;
}
async function userRow(id = owner.user._id) {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, id));
  return row!;
}

let n = 0;
describe('postData (POST /api/posts/edit/{id})', () => {
  it('ignores every non-whitelisted field (each column and nested object, one at a time and all at once)', async () => {
    // The post's rights and warning (issue 23) and the language of its words (issue 43) are the author's to set:
    // rights.test.ts and post-language.test.ts check them.
    const rights = ['contentWarning', 'commentPolicy', 'licence', 'aiGenerated', 'downloadable', 'language'];
    const fields = [...columnsOf(posts), ...Object.entries(NESTED)].filter(([key]) => !rights.includes(key));
    const cases: [string, Record<string, unknown>][] = [
      ...fields
        .filter(([key]) => key !== 'content' && key !== 'mediaId' && key !== 'media_id')
        .map(([key, value]) => [key, { [key]: value }] as [string, Record<string, unknown>]),
      ['all at once', Object.fromEntries(fields.filter(([key]) => key !== 'content' && key !== 'mediaId'))],
    ];
    console.log(`postData: ${cases.length} requests (${fields.length} fields)`);
    (figures.postData ??= { requests: 0, fields: 0, statuses: {} }).fields = fields.length;
    for (const [label, extra] of cases) {
      n += 1;
      const before = await postRow();
      const [otherBefore, ownerBefore, countsBefore] = [
        await ctx.database.db.select().from(posts).where(eq(posts.id, otherPostId)),
        await userRow(),
        await rowCounts(ctx),
      ];
      const content = `Edited ${n} #new${n}`;
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/posts/edit/${postId}`,
        payload: { postData: { content, ...extra } },
        headers: { authorization: owner.token, prefer: 'return=minimal' },
      });
      count('postData', response.statusCode);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(201);
      const after = await postRow();
      expect(after, label).toEqual({
        ...before,
        content,
        tags: [`new${n}`],
        // Kept by PostgreSQL from the content: a client cannot set it.
        searchVector: `'${n}':2 'edited':1 'new${n}':3`,
        updatedAt: after.updatedAt,
        // The edit changed the words: the work says "edited" (issue 41), when the server says so.
        editedAt: after.editedAt,
      });
      expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
      expect(after.editedAt?.getTime()).toBeGreaterThanOrEqual(after.updatedAt.getTime() - 1000);
      expect(await ctx.database.db.select().from(posts).where(eq(posts.id, otherPostId)), label).toEqual(otherBefore);
      expect(await userRow(), label).toEqual(ownerBefore);
      expect(await rowCounts(ctx), label).toEqual(countsBefore);
    }
  });

  it('takes mediaId (a picture of your own) and nothing else', async () => {
    const picture = await uploadPicture(ctx.app, owner);
    const before = await postRow();
    const pictures = () =>
      ctx.database.db.select({ mediaId: postMedia.mediaId }).from(postMedia).where(eq(postMedia.postId, postId));
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/edit/${postId}`,
      payload: { postData: { mediaId: picture, likeCount: 5, authorId: other.user._id } },
      headers: { authorization: owner.token, prefer: 'return=minimal' },
    });
    count('postData', response.statusCode);
    expect(response.statusCode, response.body).toBe(201);
    const after = await postRow();
    // The pictures changed: the work says "edited" (issue 41); nothing else moved.
    expect(after).toEqual({ ...before, updatedAt: after.updatedAt, editedAt: after.editedAt });
    expect(after.editedAt).not.toBeNull();
    expect(await pictures()).toEqual([{ mediaId: picture }]);
  });

  it('refuses __proto__ and constructor.prototype keys without changing the row', async () => {
    const before = await postRow();
    for (const raw of [
      '{"postData":{"content":"proto","__proto__":{"authorId":"x","likeCount":9}}}',
      '{"postData":{"content":"proto","constructor":{"prototype":{"likeCount":9}}}}',
    ]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/posts/edit/${postId}`,
        payload: raw,
        headers: { authorization: owner.token, 'content-type': 'application/json' },
      });
      count('postData prototype keys', response.statusCode);
      expect(response.statusCode).toBe(400);
      expect(await postRow()).toEqual(before);
    }
  });
});

const USER_WHITELIST = new Set(['firstName', 'lastName', 'email', 'bio', 'link', 'worksSignedInOnly', 'userPhoto']);

describe('userData (POST /api/users/edit)', () => {
  it('changes only the whitelisted fields (each column and nested object, one at a time and all at once)', async () => {
    // userPhoto is whitelisted, but only for a picture of your own: here, another user's avatar.
    const fields = [...columnsOf(users), ...Object.entries(NESTED), ['userPhoto', avatarId] as const];
    const cases: [string, Record<string, unknown>][] = [
      ...fields.map(([key, value]) => [key, { [key]: value }] as [string, Record<string, unknown>]),
      ['all at once', Object.fromEntries(fields.filter(([key]) => !USER_WHITELIST.has(key)))],
    ];
    console.log(`userData: ${cases.length} requests (${fields.length} fields)`);
    (figures.userData ??= { requests: 0, fields: 0, statuses: {} }).fields = fields.length;
    for (const [label, extra] of cases) {
      n += 1;
      const before = await userRow();
      const otherBefore = await userRow(other.user._id);
      const countsBefore = await rowCounts(ctx);
      const bio = `bio ${n}`;
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/edit',
        payload: { userData: { bio, ...extra } },
        headers: { authorization: owner.token },
      });
      count('userData', response.statusCode);
      const after = await userRow();
      const whitelisted = Object.keys(extra).filter((key) => USER_WHITELIST.has(key));
      if (whitelisted.length === 0) {
        expect(response.statusCode, `${label}: ${response.body}`).toBe(201);
        expect(after, label).toEqual({ ...before, bio, updatedAt: after.updatedAt });
      } else {
        // A whitelisted field with a hostile value: it may change (or be refused), nothing else may.
        expect([201, 400, 403], `${label}: ${response.body}`).toContain(response.statusCode);
        const changed = Object.keys(after).filter(
          (key) =>
            JSON.stringify(after[key as keyof typeof after]) !== JSON.stringify(before[key as keyof typeof before]),
        );
        const allowed = new Set(['bio', 'updatedAt', ...whitelisted, 'photoMediaId', 'photoUrl']);
        expect(
          changed.filter((key) => !allowed.has(key)),
          label,
        ).toEqual([]);
        if (response.statusCode !== 201) expect(after, label).toEqual(before);
        if (label === 'userPhoto') expect(after.photoMediaId, 'another user’s avatar').toBe(before.photoMediaId);
      }
      expect(await userRow(other.user._id), label).toEqual(otherBefore);
      expect(await rowCounts(ctx), label).toEqual(countsBefore);
    }
  });

  it('refuses __proto__ and constructor.prototype keys without changing the row', async () => {
    const before = await userRow();
    for (const raw of [
      '{"userData":{"bio":"proto","__proto__":{"username":"x","followerCount":9}}}',
      '{"userData":{"bio":"proto","constructor":{"prototype":{"followerCount":9}}}}',
    ]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/edit',
        payload: raw,
        headers: { authorization: owner.token, 'content-type': 'application/json' },
      });
      count('userData prototype keys', response.statusCode);
      expect(response.statusCode).toBe(400);
      expect(await userRow()).toEqual(before);
    }
  });
});

describe('pins (POST /api/posts/{postId}/pin, PUT /api/users/me/pins)', () => {
  const pinRows = () => ctx.database.db.select().from(postPins).orderBy(postPins.userId, postPins.position);

  it('a pin takes only its position: every column of post_pins and nested object, one at a time and all at once', async () => {
    // The other user has a pin of their own, which nothing sent by the owner may move or take.
    const otherPin = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/${otherPostId}/pin`,
      headers: { authorization: other.token },
    });
    expect(otherPin.statusCode, otherPin.body).toBe(200);
    const ownPin = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/pin`,
      headers: { authorization: owner.token },
    });
    expect(ownPin.statusCode, ownPin.body).toBe(200);
    const fields = [...columnsOf(postPins), ...Object.entries(NESTED)].filter(([key]) => key !== 'position');
    const cases: [string, Record<string, unknown>][] = [
      ...fields.map(([key, value]) => [key, { [key]: value }] as [string, Record<string, unknown>]),
      ['all at once', Object.fromEntries(fields)],
    ];
    (figures.pin ??= { requests: 0, fields: 0, statuses: {} }).fields = fields.length;
    for (const [label, extra] of cases) {
      const countsBefore = await rowCounts(ctx);
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/posts/${postId}/pin`,
        payload: { position: 0, ...extra },
        headers: { authorization: owner.token },
      });
      count('pin', response.statusCode);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(200);
      expect(
        response.json().posts.map((post: { _id: string }) => post._id),
        label,
      ).toEqual([postId]);
      expect(
        (await pinRows()).map(({ postId: id, userId, position }) => ({ id, userId, position })),
        label,
      ).toEqual(
        [
          { id: postId, userId: owner.user._id, position: 0 },
          { id: otherPostId, userId: other.user._id, position: 0 },
        ].sort((a, b) => a.userId.localeCompare(b.userId)),
      );
      expect(await rowCounts(ctx), label).toEqual(countsBefore);
    }
  });

  it('a reorder takes only postIds: the same fields beside it change nobody else’s pins', async () => {
    // A reorder rewrites the list (createdAt is new): what matters is whose pin is which, and where.
    const pinned = async () => (await pinRows()).map(({ postId: id, userId, position }) => ({ id, userId, position }));
    const before = await pinned();
    const fields = [...columnsOf(postPins), ...Object.entries(NESTED)].filter(([key]) => key !== 'postIds');
    for (const [label, extra] of [...fields.map(([key, value]) => [key, { [key]: value }] as const)]) {
      const response = await ctx.app.inject({
        method: 'PUT',
        url: '/api/users/me/pins',
        payload: { postIds: [postId], ...extra },
        headers: { authorization: owner.token },
      });
      count('reorder', response.statusCode);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(200);
      expect(await pinned(), label).toEqual(before);
    }
  });
});
