import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { ERRORS } from '@share-arts/contract';
import { parsePo } from 'pofile-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestContext } from '../../test/helpers.js';
import { MAIL_MESSAGES } from './messages.js';
import { acceptedLocale, format } from '../../lib/i18n.js';

/** What a catalogue says for `english` (apps/server/locales/<locale>.po). */
function catalogued(locale: string, english: string): string {
  const po = parsePo(readFileSync(new URL(`../../../locales/${locale}.po`, import.meta.url), 'utf8'));
  const translation = po.items.find((item) => item.msgid === english)?.msgstr[0];
  if (!translation) throw new Error(`${locale}.po has no translation of "${english}"`);
  return translation;
}

describe('the language a request asks for', () => {
  it('is the best of ours for its Accept-Language, by quality, and none when it names none of ours', () => {
    expect(acceptedLocale('ja-JP,ja;q=0.9,en;q=0.8')).toBe('ja');
    expect(acceptedLocale('fr-FR, pt-PT;q=0.5')).toBe('pt-BR');
    expect(acceptedLocale('en;q=0.2, es-MX;q=0.9')).toBe('es');
    expect(acceptedLocale('ar-EG')).toBe('ar');
    expect(acceptedLocale('en-GB')).toBe('en');
    expect(acceptedLocale('fr-FR')).toBeNull();
    expect(acceptedLocale('ja;q=0')).toBeNull();
    expect(acceptedLocale(undefined)).toBeNull();
    expect(acceptedLocale('*;q=1, ;;;, x-y-z-tooooooooooolong')).toBeNull();
  });
});

describe("the server's messages in the reader's language (issue 43)", () => {
  let ctx: TestContext;
  const lines: string[] = [];
  beforeAll(async () => {
    ctx = await createTestApp({ config: { logLevel: 'info', logStream: { write: (line) => lines.push(line) } } });
  });
  afterAll(() => ctx.close());

  const missingPost = (language?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/posts/00000000-0000-4000-8000-000000000000',
      headers: language ? { 'accept-language': language } : {},
    });

  it('answers an error in the language the request accepts; in English, or one we do not speak, as written', async () => {
    const english = await missingPost();
    expect(english.statusCode).toBe(404);
    expect(english.json()).toEqual({ errors: [ERRORS.postNotFound] });
    expect(english.headers['content-language']).toBeUndefined();

    const japanese = await missingPost('ja-JP,ja;q=0.9,en;q=0.8');
    expect(japanese.statusCode).toBe(404);
    expect(japanese.json()).toEqual({
      errors: [catalogued('ja', ERRORS.postNotFound)],
      untranslated: [ERRORS.postNotFound],
    });
    expect(japanese.json().errors[0]).not.toBe(ERRORS.postNotFound);
    expect(japanese.headers['content-language']).toBe('ja');

    expect((await missingPost('en-US')).body).toBe(english.body);
    expect((await missingPost('fr-FR')).body).toBe(english.body);
  });

  it("translates a schema's own message, which is sent with a full stop", async () => {
    const who = await signUp(ctx.app);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: { authorization: `Bearer ${who.token}`, 'accept-language': 'es' },
      payload: { userData: { settings: { language: 'fr' } } },
    });
    expect(refused.statusCode).toBe(400);
    const english = "language must be one of: en, es, pt-BR, ja, ar (or null to follow the browser's)";
    expect(refused.json().errors).toEqual([`${catalogued('es', english).replace(/\.$/, '')}.`]);
    expect(refused.json().untranslated).toEqual([`${english}.`]);
  });

  it('writes mails in the language the person chose, and in English until they choose', async () => {
    const email = `lang${randomBytes(4).toString('hex')}@example.test`;
    const who = await signUp(ctx.app, { email });
    const chosen = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: { authorization: `Bearer ${who.token}` },
      payload: { userData: { settings: { language: 'ar' } } },
    });
    expect(chosen.statusCode, chosen.body).toBe(201);
    const resent = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email/resend',
      headers: { authorization: `Bearer ${who.token}` },
    });
    expect(resent.statusCode, resent.body).toBeLessThan(300);
    const mailsTo = () =>
      lines
        .map((line) => JSON.parse(line) as { mail?: { to: string; subject: string }; msg: string })
        .filter((entry) => entry.mail?.to === email);
    await expect.poll(() => mailsTo().length, { timeout: 20_000 }).toBe(2);
    const [first, second] = mailsTo();
    // The sign-up's mail left before the choice: English; the one asked for after it: Arabic.
    expect(first!.mail!.subject).toBe('Confirm your email address for Share Arts');
    expect(second!.mail!.subject).toBe(format('ar', MAIL_MESSAGES.verifySubject, { app: 'Share Arts' }));
    expect(second!.mail!.subject).toBe(catalogued('ar', MAIL_MESSAGES.verifySubject).replace('{app}', 'Share Arts'));
    expect(second!.msg).toContain(format('ar', MAIL_MESSAGES.hello, { username: who.user.username }));
  });
});
