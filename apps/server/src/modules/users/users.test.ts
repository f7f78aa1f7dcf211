import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { createTestApp, errorOf, signUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const edit = (token: string, userData: unknown) =>
  ctx.app.inject({ method: 'POST', url: '/api/users/edit', payload: { userData }, headers: { authorization: token } });

describe('POST /api/users/edit', () => {
  it('changes the editable fields and answers 201 with the user', async () => {
    const { token, user } = await signUp(ctx.app);
    const response = await edit(token, {
      firstName: ' Ada ',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      bio: 'Engines and art',
      link: 'https://ada.example.com/work',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().user).toMatchObject({
      _id: user._id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      bio: 'Engines and art',
      link: 'https://ada.example.com/work',
    });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user._id));
    expect(row!.bio).toBe('Engines and art');
  });

  it('ignores every field that is not editable (no mass assignment)', async () => {
    const { token, user } = await signUp(ctx.app);
    const [before] = await ctx.database.db.select().from(users).where(eq(users.id, user._id));
    const response = await edit(token, {
      bio: 'only this changes',
      username: 'hijacked',
      _id: '00000000-0000-4000-8000-000000000000',
      id: '00000000-0000-4000-8000-000000000000',
      password: 'new-password-1',
      passwordHash: 'x',
      followerCount: 9999,
      followers: [{ _id: 'x' }],
      createdAt: '2000-01-01T00:00:00+00:00',
    });
    expect(response.statusCode).toBe(201);
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, user._id));
    expect(after).toEqual({ ...before, bio: 'only this changes', updatedAt: after!.updatedAt });
  });

  it.each(['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com', 'not a url'])(
    'refuses the link %s',
    async (link) => {
      const { token } = await signUp(ctx.app);
      const response = await edit(token, { link });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response)).toMatch(/^link must/);
    },
  );

  it('refuses an invalid email, an empty first name, an over-long bio and a foreign photo URL', async () => {
    const { token } = await signUp(ctx.app);
    expect(errorOf(await edit(token, { email: 'nope' }))).toBe('email must be a valid address, like ana@example.com.');
    expect(errorOf(await edit(token, { firstName: '  ' }))).toBe('firstName must not be empty.');
    expect(errorOf(await edit(token, { bio: 'b'.repeat(301) }))).toBe(
      'userData.bio must be at most 300 characters long.',
    );
    expect(errorOf(await edit(token, { userPhoto: 'https://evil.example.com/x.png' }))).toMatch(/^userPhoto must be/);
  });

  it('shows email to its owner only', async () => {
    const { token } = await signUp(ctx.app, { email: 'private@example.com' });
    const own = await edit(token, {});
    expect(own.json().user.email).toBe('private@example.com');
  });
});
