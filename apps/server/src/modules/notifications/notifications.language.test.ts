// A report's outcome in the reader's language (issue 43): the notification's words come from the server, which says
// them in the language the app asks in (Accept-Language), as it does its errors.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '@share-arts/contract';
import { translate } from '../../lib/i18n.js';
import { createTestApp, signUp, uniqueUsername, type SignedUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
let moderator: SignedUp;
const ADMIN = uniqueUsername('boss');

beforeAll(async () => {
  ctx = await createTestApp({ config: { adminUsername: ADMIN } });
  const admin = await signUp(ctx.app, { username: ADMIN });
  moderator = await signUp(ctx.app);
  const named = await ctx.app.inject({
    method: 'PUT',
    url: `/api/admin/users/${moderator.user.username}/role`,
    payload: { role: 'moderator' },
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(named.statusCode).toBe(200);
});
afterAll(() => ctx.close());

const send = (who: SignedUp, method: 'GET' | 'POST', url: string, payload?: object, language?: string) =>
  ctx.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: { authorization: `Bearer ${who.token}`, ...(language ? { 'accept-language': language } : {}) },
  });

it("tells a reporter the outcome in the language they read the app in, and in English's words by default", async () => {
  const author = await signUp(ctx.app);
  const reader = await signUp(ctx.app);
  const created = await send(author, 'POST', '/api/posts', { content: 'A work to report' });
  const postId = created.json().post._id as string;
  expect(
    (await send(reader, 'POST', '/api/reports', { targetType: 'post', targetId: postId, reason: 'spam' })).statusCode,
  ).toBe(201);
  const acted = await send(moderator, 'POST', '/api/moderation/actions', {
    targetType: 'post',
    targetId: postId,
    action: 'hide',
    reason: 'spam',
  });
  expect(acted.statusCode).toBeLessThan(300);

  const outcome = async (language?: string) => {
    const response = await send(reader, 'GET', '/api/notifications', undefined, language);
    expect(response.statusCode).toBe(200);
    const notices = (response.json().notifications as { kind: string; report?: { text: string } }[]).filter(
      (n) => n.kind === 'report-resolved',
    );
    return notices[0]?.report?.text;
  };
  const english = MODERATION_MESSAGES.outcome.hide;
  expect(await outcome()).toBe(english);
  expect(await outcome('en-GB')).toBe(english);
  const japanese = await outcome('ja-JP,ja;q=0.9');
  expect(japanese).toBe(translate('ja', english));
  expect(japanese).not.toBe(english);
  expect(await outcome('ar')).toBe(translate('ar', english));
  expect(await outcome('ar')).not.toBe(english);
});
