import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
let me: SignedUp;
beforeAll(async () => {
  ctx = await createTestApp();
  me = await signUp(ctx.app, { fullname: 'Mira Rivera' });
});
afterAll(() => ctx.close());

const edit = (userData: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/edit',
    payload: { userData },
    headers: { authorization: me.token },
  });

const INVISIBLE =
  'must not contain control characters, text-direction marks or invisible characters (zero-width spaces or joiners, fillers, tags).';

describe('display names at profile edit', () => {
  it.each([
    ['a zero-width space', 'Mi\u200Bra'],
    ['a zero-width non-joiner', 'Mi\u200Cra'],
    ['a zero-width joiner between letters', 'Mi\u200Dra'],
    ['a word joiner', 'Mira\u2060'],
    ['a byte order mark', '\uFEFFMira'],
    ['an Arabic letter mark', 'Mira\u061C'],
    ['only a Hangul filler', '\u3164'],
    ['a line separator', 'Mi\u2028ra'],
    ['a paragraph separator', 'Mira\u2029'],
    ['tag characters', 'Mira\u{E0061}\u{E0064}\u{E006D}'],
    ['a soft hyphen', 'Mi\u00ADra'],
    ['only a blank braille cell', '\u2800'],
    ['a variation selector after a letter', 'Mira\uFE0F'],
    ['a right-to-left override', 'Mi\u202Era'],
  ])('refuses a first or last name with %s, and keeps the name it had', async (_what, firstName) => {
    for (const field of ['firstName', 'lastName']) {
      const response = await edit({ [field]: firstName });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response)).toBe(`userData.${field} ${INVISIBLE}`);
    }
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, me.user._id));
    expect([row!.firstName, row!.lastName]).toEqual(['Mira', 'Rivera']);
  });

  it('refuses a firstName of spaces only', async () => {
    const response = await edit({ firstName: ' \u3000\u00A0 ' });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe('firstName must not be empty.');
  });

  it.each([
    ['Persian, a non-joiner between Arabic letters', 'علی\u200Cرضا'],
    ['Hindi, a joiner after a virama', 'क्\u200Dष'],
    ['Malayalam, a non-joiner after a virama', 'ന്\u200Cറ'],
  ])('keeps the joiners a script spells with: %s', async (_what, firstName) => {
    const response = await edit({ firstName });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.firstName).toBe(firstName);
  });

  it('refuses a joiner between a Latin and an Arabic letter', async () => {
    expect((await edit({ firstName: 'a\u200Cب' })).statusCode).toBe(400);
    expect((await edit({ firstName: 'ب\u200Ca' })).statusCode).toBe(400);
  });

  it('keeps names in any script and emoji sequences', async () => {
    const response = await edit({ firstName: 'Zoë', lastName: 'محمد 李 👩\u200D🎨 🧑🏽\u200D🎨 ❤\uFE0F' });
    expect(response.statusCode).toBe(201);
    expect(response.json().user).toMatchObject({ firstName: 'Zoë', lastName: 'محمد 李 👩\u200D🎨 🧑🏽\u200D🎨 ❤\uFE0F' });
  });
});
