import { readFileSync } from 'node:fs';
import { parsePo } from 'pofile-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uniqueUsername, type TestContext } from '../test/helpers.js';
import { format } from './i18n.js';
import { LIMIT_MESSAGES } from './limit-messages.js';
import { RATE_LIMIT_MESSAGES, RATE_LIMITS } from './rate-limiter.js';

/** What a catalogue says for `english` (apps/server/locales/<locale>.po). */
function catalogued(locale: string, english: string): string {
  const po = parsePo(readFileSync(new URL(`../../locales/${locale}.po`, import.meta.url), 'utf8'));
  const translation = po.items.find((item) => item.msgid === english)?.msgstr[0];
  if (!translation) throw new Error(`${locale}.po has no translation of "${english}"`);
  return translation;
}

/**
 * Messages that carry a number (issue 43): a rate limit's seconds, a schema's limit, a limit checked in code. Each
 * is an ICU message filled in the reader's language, its plural by the language's rules; in English it reads as it
 * did when it was concatenated, byte for byte.
 */
describe('messages with numbers, in the reader’s language', () => {
  let ctx: TestContext;
  const clock = Date.parse('2026-12-07T12:00:00Z');
  beforeAll(async () => {
    ctx = await createTestApp({ config: { rateLimits: true, now: () => clock } });
  });
  afterAll(() => ctx.close());

  it('a rate limit says its seconds in Japanese and Arabic (plural), and in English as before', async () => {
    const { user } = await signUp(ctx.app, { username: uniqueUsername('limited') });
    const login = (language?: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: user.username, password: 'wrong-password' },
        headers: language ? { 'accept-language': language } : {},
        remoteAddress: '198.51.100.43',
      });
    for (let i = 0; i < RATE_LIMITS.loginFailuresPerAccount.max; i++) expect((await login()).statusCode).toBe(401);

    const english = await login();
    expect(english.statusCode).toBe(429);
    const seconds = Number(english.headers['retry-after']);
    expect(seconds).toBe(RATE_LIMITS.loginFailuresPerAccount.windowMs / 1000);
    expect(english.json()).toEqual({ errors: [`Too many requests. Please try again in ${seconds} s.`] });
    expect(english.headers['content-language']).toBeUndefined();

    const japanese = await login('ja-JP,ja;q=0.9');
    expect(japanese.statusCode).toBe(429);
    expect(japanese.headers['content-language']).toBe('ja');
    expect(japanese.json()).toEqual({
      errors: [`リクエストが多すぎます。${seconds} 秒後にもう一度お試しください。`],
      untranslated: [`Too many requests. Please try again in ${seconds} s.`],
    });

    const arabic = await login('ar');
    expect(arabic.json().errors).toEqual([format('ar', RATE_LIMIT_MESSAGES.tryAgain, { seconds })]);
    // 900 s: the plural's "other" form, the number written as Arabic writes it.
    expect(arabic.json().errors[0]).toBe(
      `طلبات كثيرة جدًّا. حاول مرة أخرى بعد ${new Intl.NumberFormat('ar').format(seconds)} ثانية.`,
    );
    // Its plural follows Arabic's categories: two seconds, three to ten, eleven and more.
    expect(format('ar', RATE_LIMIT_MESSAGES.tryAgain, { seconds: 2 })).toBe(
      'طلبات كثيرة جدًّا. حاول مرة أخرى بعد ثانيتين.',
    );
    expect(format('ar', RATE_LIMIT_MESSAGES.tryAgain, { seconds: 5 })).toMatch(/بعد 5 ثوانٍ\.$/);
    expect(format('ar', RATE_LIMIT_MESSAGES.tryAgain, { seconds: 12 })).toMatch(/بعد 12 ثانية\.$/);
  });

  it("a schema's length limit and a limit checked in code name their number in Japanese; English as written", async () => {
    const long = 'x'.repeat(51);
    const signup = (language?: string, body: Record<string, unknown> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: {
          fullname: `Ana ${long}`,
          email: 'ana@example.com',
          username: uniqueUsername(),
          password: 'correct horse battery',
          ...body,
        },
        headers: language ? { 'accept-language': language } : {},
        remoteAddress: '198.51.100.44',
      });
    const english = await signup();
    expect(english.statusCode).toBe(400);
    expect(english.json()).toEqual({ errors: ['First and last name must be at most 50 characters each.'] });
    const japanese = await signup('ja');
    expect(japanese.statusCode).toBe(400);
    expect(japanese.json()).toEqual({
      errors: ['名と姓は、それぞれ50文字以内にしてください。'],
      untranslated: ['First and last name must be at most 50 characters each.'],
    });
    expect(catalogued('ja', LIMIT_MESSAGES.names)).toBe('名と姓は、それぞれ{limit}文字以内にしてください。');

    const beacon = (language?: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/views',
        payload: { username: 'ana', source: 'external', host: 'a'.repeat(254) },
        headers: language ? { 'accept-language': language } : {},
      });
    const plain = await beacon();
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toEqual({ errors: ['host must be at most 253 characters long.'] });
    expect((await beacon('ja')).json()).toEqual({
      errors: ['host は253文字以内にしてください。'],
      untranslated: ['host must be at most 253 characters long.'],
    });
    // In Arabic, with the plural the number takes (253: "many").
    expect((await beacon('ar')).json().errors).toEqual([`يجب ألا يتجاوز طول host \u200f253 حرفًا.`]);
  });
});
