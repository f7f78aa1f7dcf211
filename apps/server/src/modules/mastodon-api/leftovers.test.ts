import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.js';
import { IDEMPOTENCY_ERRORS } from '../../lib/idempotency.js';
import { createTestApp, multipart, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { MASTO_SCHEDULE_ERRORS, SCHEDULED_LIMITS } from './scheduled.js';

/**
 * Small leftovers of issue 45 in the Mastodon client API, on the real database: a status create's Idempotency-Key
 * kept in `idempotency_keys` (lib/idempotency.ts, 24 hours) for works, replies and scheduled statuses; `focus` in
 * `media_attributes[]` of a status edit; Mastodon's limits of scheduled statuses (25 a day, 300 in all).
 */

let ctx: TestContext;
let ana: SignedUp;
let ben: SignedUp;

beforeAll(async () => {
  ctx = await createTestApp();
  ana = await signUp(ctx.app);
  ben = await signUp(ctx.app);
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: SignedUp, method: Method, path: string, payload?: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method,
    url: path,
    headers: { authorization: `Bearer ${who.token}`, ...headers },
    ...(payload ? { payload } : {}),
  });

const keyRow = async (who: SignedUp, key: string) =>
  (
    await queryRows<{ scope: string; result_id: string | null }>(
      ctx.database.db,
      sql`select scope, result_id from idempotency_keys where user_id = ${who.user._id}::uuid and key = ${key}`,
    )
  )[0];

describe('POST /api/v1/statuses with an Idempotency-Key', () => {
  it('answers the first work again for the same key, kept in the database, and the same key is anyone else’s too', async () => {
    const send = (who: SignedUp) =>
      call(who, 'POST', '/api/v1/statuses', { status: 'a work sent twice' }, { 'idempotency-key': 'work-1' });
    const first = await send(ana);
    expect(first.statusCode, first.body).toBe(200);
    const again = await send(ana);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    expect(again.json().content).toBe(first.json().content);
    expect(await keyRow(ana, 'work-1')).toEqual({ scope: 'masto-status', result_id: `post:${first.json().id}` });
    const [count] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from posts where author_id = ${ana.user._id}::uuid and content = 'a work sent twice'`,
    );
    expect(count!.n).toBe(1);
    // Another person's key of the same words is their own.
    const bens = await send(ben);
    expect(bens.json().id).not.toBe(first.json().id);
  });

  it('replays a reply and a scheduled status as what they made, and forgets a refused create', async () => {
    const work = await call(ana, 'POST', '/api/v1/statuses', { status: 'a work to answer' });
    const reply = () =>
      call(
        ben,
        'POST',
        '/api/v1/statuses',
        { status: 'nice', in_reply_to_id: work.json().id },
        { 'idempotency-key': 'r' },
      );
    const firstReply = await reply();
    expect(firstReply.statusCode, firstReply.body).toBe(200);
    const secondReply = await reply();
    expect(secondReply.json()).toMatchObject({ id: firstReply.json().id, in_reply_to_id: work.json().id });
    expect(await keyRow(ben, 'r')).toMatchObject({ result_id: `comment:${firstReply.json().id}` });
    const context = await call(ana, 'GET', `/api/v1/statuses/${work.json().id}/context`);
    expect(context.json().descendants).toHaveLength(1);

    const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const schedule = () =>
      call(ben, 'POST', '/api/v1/statuses', { status: 'later', scheduled_at: at }, { 'idempotency-key': 'sched' });
    const scheduled = await schedule();
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const replayed = await schedule();
    expect(replayed.json()).toEqual(scheduled.json());
    const [drafts] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from drafts where author_id = ${ben.user._id}::uuid and content = 'later'`,
    );
    expect(drafts!.n).toBe(1);

    // Refused (422), then corrected and sent with the same key: made once.
    const refused = await call(ben, 'POST', '/api/v1/statuses', { status: '' }, { 'idempotency-key': 'fix-me' });
    expect(refused.statusCode).toBe(422);
    expect(await keyRow(ben, 'fix-me')).toBeUndefined();
    const corrected = await call(ben, 'POST', '/api/v1/statuses', { status: 'fixed' }, { 'idempotency-key': 'fix-me' });
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json().content).toContain('fixed');

    // A key that is not 1 to 255 visible ASCII characters: 422 saying what to send.
    const long = await call(ben, 'POST', '/api/v1/statuses', { status: 'x' }, { 'idempotency-key': 'k'.repeat(256) });
    expect(long.statusCode).toBe(422);
    expect(long.json().error).toBe(`Validation failed: ${IDEMPOTENCY_ERRORS.key}`);
  });
});

describe('PUT /api/v1/statuses/{id} media_attributes[]', () => {
  it('keeps each picture’s focus and description, and writes nothing when one entry is wrong', async () => {
    const picture = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a6' } })
      .jpeg()
      .toBuffer();
    const form = multipart([{ name: 'file', data: picture, filename: 'p.jpg', contentType: 'image/jpeg' }]);
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/media',
      headers: { authorization: `Bearer ${ana.token}`, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const mediaId = uploaded.json().id as string;
    const work = await call(ana, 'POST', '/api/v1/statuses', { status: 'with a focus', media_ids: [mediaId] });
    expect(work.statusCode, work.body).toBe(200);

    const edited = await call(ana, 'PUT', `/api/v1/statuses/${work.json().id}`, {
      status: 'with a focus',
      media_ids: [mediaId],
      media_attributes: [{ id: mediaId, description: 'a green field', focus: '0.3,-0.4' }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().media_attachments[0]).toMatchObject({
      id: mediaId,
      description: 'a green field',
      meta: { focus: { x: 0.3, y: -0.4 } },
    });
    const [row] = await queryRows<{ focus_x: number; focus_y: number; alt: string }>(
      ctx.database.db,
      sql`select focus_x, focus_y, alt from media where id = ${mediaId}::uuid`,
    );
    expect(row).toEqual({ focus_x: 0.3, focus_y: -0.4, alt: 'a green field' });

    const wrong = await call(ana, 'PUT', `/api/v1/statuses/${work.json().id}`, {
      media_attributes: [
        { id: mediaId, description: 'not kept' },
        { id: mediaId, focus: '2,0' },
      ],
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error).toBe('Validation failed: Focus must be two numbers from -1.0 to 1.0, as "x,y"');
    const read = await call(ana, 'GET', `/api/v1/statuses/${work.json().id}`);
    expect(read.json().media_attachments[0]).toMatchObject({
      description: 'a green field',
      meta: { focus: { x: 0.3, y: -0.4 } },
    });
  });
});

describe("Mastodon's limits of scheduled statuses", () => {
  it('refuses a 26th status on one day (UTC), and a move onto a full day, with Mastodon’s words', async () => {
    const cara = await signUp(ctx.app);
    const day = new Date(Date.now() + 3 * 86_400_000);
    day.setUTCHours(0, 0, 0, 0);
    const on = (minutes: number, base = day) => new Date(base.getTime() + minutes * 60_000).toISOString();
    for (let i = 0; i < SCHEDULED_LIMITS.daily; i += 1) {
      const made = await call(cara, 'POST', '/api/v1/statuses', { status: `day ${i}`, scheduled_at: on(60 + i) });
      expect(made.statusCode, made.body).toBe(200);
    }
    const over = await call(cara, 'POST', '/api/v1/statuses', { status: 'one too many', scheduled_at: on(23 * 60) });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({ error: `Validation failed: ${MASTO_SCHEDULE_ERRORS.overDaily}` });
    expect(over.json().error).toBe('Validation failed: You have exceeded the limit of 25 scheduled posts for today');

    // The next day is free; moving it back onto the full day is refused, moving one within the day is not.
    const next = await call(cara, 'POST', '/api/v1/statuses', { status: 'next day', scheduled_at: on(24 * 60 + 30) });
    expect(next.statusCode, next.body).toBe(200);
    const moveBack = await call(cara, 'PUT', `/api/v1/scheduled_statuses/${next.json().id}`, { scheduled_at: on(90) });
    expect(moveBack.statusCode).toBe(422);
    expect(moveBack.json().error).toBe(`Validation failed: ${MASTO_SCHEDULE_ERRORS.overDaily}`);
    const list = await call(cara, 'GET', '/api/v1/scheduled_statuses');
    const sameDay = list.json()[0].id as string;
    const within = await call(cara, 'PUT', `/api/v1/scheduled_statuses/${sameDay}`, { scheduled_at: on(600) });
    expect(within.statusCode, within.body).toBe(200);
    expect(within.json().scheduled_at).toBe(on(600));
    const [count] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from drafts where author_id = ${cara.user._id}::uuid and scheduled_at is not null`,
    );
    expect(count!.n).toBe(SCHEDULED_LIMITS.daily + 1);
  });

  it('refuses a status past 300 scheduled in all', async () => {
    // The drafts module keeps at most 100 drafts, so 300 are written here as rows, spread over many days.
    const dan = await signUp(ctx.app);
    await queryRows(
      ctx.database.db,
      sql`insert into drafts (author_id, content, rights, scheduled_at, time_zone)
          select ${dan.user._id}::uuid, 'row ' || i, '{"contentWarning":null,"commentPolicy":"everyone","licence":"all-rights-reserved","aiGenerated":false,"downloadable":false}'::jsonb,
            now() + make_interval(days => 2 + i / 20), 'UTC'
          from generate_series(1, ${SCHEDULED_LIMITS.total}) as i`,
    );
    const over = await call(dan, 'POST', '/api/v1/statuses', {
      status: 'the 301st',
      scheduled_at: new Date(Date.now() + 200 * 86_400_000).toISOString(),
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().error).toBe('Validation failed: You have exceeded the limit of 300 scheduled posts');
  });
});
