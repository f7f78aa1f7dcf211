import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INQUIRY_ERRORS,
  INQUIRY_LIMITS,
  type Inquiry,
  type InquiryMessage,
  type ModerationTarget,
  type Notification,
} from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import {
  createTestApp,
  errorOf,
  eventually,
  liveSocket,
  multipart,
  signUp,
  storedFiles,
  walkPages,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.js';

const ARTIST_EMAIL = 'inquiries-artist@example.com';

/**
 * Inquiries (issue 42): sending one to an artist, the safety rules (blocks either way, followers only, closed, five a
 * day per sender), the thread and its reference pictures private to its two people, the artist's states, deleting
 * for oneself, reports, the export and account deletion. The limits are on in this file (the per-day limit is the
 * app's rate limiter): it signs up fewer than the ten accounts an address may make in an hour.
 */

let ctx: TestContext;
let smtp: TestSmtpServer;
let artist: SignedUp;
let client: SignedUp;
let stranger: SignedUp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp({ config: { rateLimits: true, smtpUrl: smtp.url } });
  // For the live stream's sockets.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  [artist, client, stranger] = await Promise.all([
    signUp(ctx.app, { email: ARTIST_EMAIL }),
    signUp(ctx.app),
    signUp(ctx.app),
  ]);
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const db = () => ctx.database.db;

const call = (who: SignedUp | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: who ? auth(who) : {}, ...(payload === undefined ? {} : { payload }) });

async function send(who: SignedUp, to: SignedUp, body: object = {}): Promise<Inquiry> {
  const response = await call(who, 'POST', '/api/inquiries', {
    artist: to.user.username,
    body: 'A portrait of my cat as a knight, in ink.',
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().inquiry;
}

/** A JPEG with an EXIF block, of `width` × `height`. */
const picture = (width = 2400, height = 1600) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .withMetadata({ exif: { IFD0: { Copyright: 'secret location' } } })
    .jpeg()
    .toBuffer();

async function addReference(who: SignedUp, inquiryId: string, data?: Buffer) {
  const { payload, contentType } = multipart([
    { name: 'file', data: data ?? (await picture()), filename: 'ref.jpg', contentType: 'image/jpeg' },
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/inquiries/${inquiryId}/references`,
    payload,
    headers: { ...auth(who), 'content-type': contentType },
  });
}

async function notificationsOf(who: SignedUp): Promise<Notification[]> {
  const response = await call(who, 'GET', '/api/notifications');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().notifications;
}

const ids = (page: { inquiries: Inquiry[] }) => page.inquiries.map((inquiry) => inquiry._id);

const count = async (table: 'inquiries' | 'inquiry_messages' | 'inquiry_references', inquiryId: string) => {
  const column = table === 'inquiries' ? sql`id` : sql`inquiry_id`;
  const [row] = await queryRows<{ n: number }>(
    db(),
    sql`select count(*)::int as n from ${sql.raw(table)} where ${column} = ${inquiryId}::uuid`,
  );
  return row!.n;
};

function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return reject(streamErr);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
          stream.on('error', reject);
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe('sending an inquiry', () => {
  it('reaches the artist’s inbox and notifies them, live; the client sees it among those they sent', async () => {
    const live = await liveSocket(ctx.app, artist.token);
    const sent = await send(client, artist, { budget: { amount: 250, currency: 'EUR' }, deadline: '2099-12-31' });
    await eventually(async () => {
      const frame = live.frames.find((f) => f.type === 'notification' && f.kind === 'inquiry');
      expect(frame).toMatchObject({
        text: `${client.user.username} sent you an inquiry`,
        inquiry: { _id: sent._id, state: 'open' },
      });
    }, 10_000);
    live.socket.close();
    expect(sent).toMatchObject({
      artist: { username: artist.user.username },
      client: { username: client.user.username },
      body: 'A portrait of my cat as a knight, in ink.',
      budget: { amount: 250, currency: 'EUR' },
      deadline: '2099-12-31',
      state: 'open',
      declineReason: null,
      references: [],
      messageCount: 0,
      viewer: { role: 'client', otherLeft: false },
    });
    const inbox = (await call(artist, 'GET', '/api/inquiries?as=artist')).json();
    expect(ids(inbox)).toContain(sent._id);
    expect(inbox.inquiries.find((i: Inquiry) => i._id === sent._id).viewer).toEqual({
      role: 'artist',
      otherLeft: false,
    });
    expect(ids((await call(client, 'GET', '/api/inquiries?as=client')).json())).toContain(sent._id);
    expect(ids((await call(client, 'GET', '/api/inquiries?as=artist')).json())).not.toContain(sent._id);

    const told = (await notificationsOf(artist)).find((n) => n.inquiry?._id === sent._id);
    expect(told).toMatchObject({ kind: 'inquiry', actors: [{ username: client.user.username }] });
  });

  it('is mailed to an artist who chose mail, by a job', async () => {
    const on = await call(artist, 'PUT', '/api/inquiries/settings', { mail: true });
    expect(on.json().settings).toEqual({ accepting: 'everyone', mail: true });
    const sent = await send(stranger, artist, { body: 'A banner for my stream, please.' });
    for (;;) {
      const mail = await smtp.next(ARTIST_EMAIL);
      if (!mail.subject.includes('inquiry')) continue; // the sign-up's confirmation
      expect(mail.subject).toBe(`${stranger.user.username} sent you an inquiry on Share Arts`);
      expect(mail.text).toContain('A banner for my stream, please.');
      expect(mail.text).toContain(`/inquiries/${sent._id}`);
      break;
    }
    await call(artist, 'PUT', '/api/inquiries/settings', { mail: false });
  });

  it('refuses what cannot be sent, each with a sentence that says why', async () => {
    const to = (body: object) =>
      call(client, 'POST', '/api/inquiries', { artist: artist.user.username, body: 'A sketch', ...body });
    const self = await call(client, 'POST', '/api/inquiries', { artist: client.user.username, body: 'Me' });
    expect([self.statusCode, errorOf(self)]).toEqual([400, INQUIRY_ERRORS.yourself]);
    const nobody = await call(client, 'POST', '/api/inquiries', { artist: 'nobody_here_at_all', body: 'Hi' });
    expect([nobody.statusCode, errorOf(nobody)]).toEqual([404, INQUIRY_ERRORS.artistNotFound]);
    const blank = await to({ body: '   ' });
    expect([blank.statusCode, errorOf(blank)]).toEqual([400, INQUIRY_ERRORS.bodyBlank]);
    const past = await to({ deadline: '2001-01-01' });
    expect([past.statusCode, errorOf(past)]).toEqual([400, INQUIRY_ERRORS.deadlinePast]);
    const notADay = await to({ deadline: '2099-02-30' });
    expect([notADay.statusCode, errorOf(notADay)]).toEqual([400, INQUIRY_ERRORS.badDeadline]);
    expect((await to({ body: 'x'.repeat(INQUIRY_LIMITS.bodyMax + 1) })).statusCode).toBe(400);
    expect((await to({ budget: { amount: 10, currency: 'euro' } })).statusCode).toBe(400);
    expect((await call(null, 'POST', '/api/inquiries', { artist: artist.user.username, body: 'Hi' })).statusCode).toBe(
      401,
    );
  });
});

describe('safety', () => {
  it('refuses inquiries between a blocked pair, either way, and hides their threads while the block lasts', async () => {
    const earlier = await send(stranger, client);
    const block = await call(client, 'POST', `/api/users/${stranger.user.username}/block`);
    expect(block.statusCode, block.body).toBe(200);
    for (const [from, to] of [
      [stranger, client],
      [client, stranger],
    ] as const) {
      const refused = await call(from, 'POST', '/api/inquiries', { artist: to.user.username, body: 'Hello' });
      expect([refused.statusCode, errorOf(refused)]).toEqual([404, INQUIRY_ERRORS.artistNotFound]);
      expect((await call(from, 'GET', `/api/inquiries/to/${to.user.username}`)).statusCode).toBe(404);
      expect((await call(from, 'GET', `/api/inquiries/${earlier._id}`)).statusCode).toBe(404);
      expect((await call(from, 'POST', `/api/inquiries/${earlier._id}/messages`, { body: 'Hi' })).statusCode).toBe(404);
    }
    expect(ids((await call(client, 'GET', '/api/inquiries?as=artist')).json())).not.toContain(earlier._id);
    await call(client, 'DELETE', `/api/users/${stranger.user.username}/block`);
    expect((await call(client, 'GET', `/api/inquiries/${earlier._id}`)).statusCode).toBe(200);
  });

  it('lets an artist take inquiries from followers only, or close them', async () => {
    const followersOnly = await call(artist, 'PUT', '/api/inquiries/settings', { accepting: 'followers' });
    expect(followersOnly.json()).toEqual({ settings: { accepting: 'followers', mail: false } });
    const policy = await call(stranger, 'GET', `/api/inquiries/to/${artist.user.username}`);
    expect(policy.json()).toEqual({
      accepting: 'followers',
      canSend: false,
      reason: INQUIRY_ERRORS.followersOnly,
    });
    const refused = await call(stranger, 'POST', '/api/inquiries', { artist: artist.user.username, body: 'Hi' });
    expect([refused.statusCode, errorOf(refused)]).toEqual([403, INQUIRY_ERRORS.followersOnly]);

    const follow = await call(stranger, 'POST', `/api/users/follow/${artist.user._id}`);
    expect(follow.statusCode, follow.body).toBeLessThan(300);
    expect((await call(stranger, 'GET', `/api/inquiries/to/${artist.user.username}`)).json().canSend).toBe(true);
    await send(stranger, artist);

    await call(artist, 'PUT', '/api/inquiries/settings', { accepting: 'closed' });
    const closed = await call(stranger, 'POST', '/api/inquiries', { artist: artist.user.username, body: 'Again' });
    expect([closed.statusCode, errorOf(closed)]).toEqual([403, INQUIRY_ERRORS.closed]);
    const settings = await call(artist, 'PUT', '/api/inquiries/settings', { accepting: 'everyone' });
    expect(settings.json().settings).toEqual({ accepting: 'everyone', mail: false });
    expect((await call(artist, 'GET', '/api/inquiries/settings')).json().settings.accepting).toBe('everyone');
  });

  it(`takes at most ${INQUIRY_LIMITS.perSenderPerDay} new inquiries a day from one sender`, async () => {
    const sender = await signUp(ctx.app);
    for (let i = 0; i < INQUIRY_LIMITS.perSenderPerDay; i += 1) await send(sender, artist, { body: `Request ${i}` });
    const refused = await call(sender, 'POST', '/api/inquiries', { artist: artist.user.username, body: 'One more' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Answers within a thread are not new inquiries.
    const [first] = (await call(sender, 'GET', '/api/inquiries?as=client')).json().inquiries as Inquiry[];
    expect((await call(sender, 'POST', `/api/inquiries/${first!._id}/messages`, { body: 'And…' })).statusCode).toBe(
      201,
    );
  });
});

describe('a thread', () => {
  it('is read by its two people only, with its reference pictures, which no public address serves', async () => {
    const inquiry = await send(client, artist);
    const before = await storedFiles(ctx);
    const added = await addReference(client, inquiry._id);
    expect(added.statusCode, added.body).toBe(201);
    const { reference } = added.json();
    expect(reference.url).toBe(`/api/inquiries/${inquiry._id}/references/${reference._id}`);
    expect(Math.max(reference.width, reference.height)).toBe(INQUIRY_LIMITS.referenceSide);
    // Nothing went into the pictures' storage, which /media/* serves to anyone.
    expect(await storedFiles(ctx)).toEqual(before);

    for (const who of [client, artist]) {
      const read = await call(who, 'GET', reference.url);
      expect(read.statusCode).toBe(200);
      expect(read.headers['content-type']).toBe('image/jpeg');
      expect(read.headers['cache-control']).toContain('private');
      const meta = await sharp(read.rawPayload).metadata();
      expect([meta.format, meta.width, meta.exif]).toEqual(['jpeg', reference.width, undefined]);
    }
    for (const url of [`/api/inquiries/${inquiry._id}`, `/api/inquiries/${inquiry._id}/messages`, reference.url]) {
      expect((await call(stranger, 'GET', url)).statusCode, url).toBe(404);
      expect((await call(null, 'GET', url)).statusCode, url).toBe(401);
    }
    expect(
      (await call(stranger, 'POST', `/api/inquiries/${inquiry._id}/messages`, { body: 'Me too' })).statusCode,
    ).toBe(404);
    expect((await call(stranger, 'DELETE', `/api/inquiries/${inquiry._id}`)).statusCode).toBe(404);
    expect((await addReference(stranger, inquiry._id)).statusCode).toBe(404);
    const byArtist = await addReference(artist, inquiry._id);
    expect([byArtist.statusCode, errorOf(byArtist)]).toEqual([403, INQUIRY_ERRORS.clientOnly]);
    const notPicture = await addReference(client, inquiry._id, Buffer.from('<html>not a picture</html>'));
    expect([notPicture.statusCode, errorOf(notPicture)]).toEqual([415, INQUIRY_ERRORS.notPicture]);

    const small = await picture(64, 48);
    for (let i = 1; i < INQUIRY_LIMITS.referencesMax; i += 1) {
      expect((await addReference(client, inquiry._id, small)).statusCode).toBe(201);
    }
    const sixth = await addReference(client, inquiry._id, small);
    expect([sixth.statusCode, errorOf(sixth)]).toEqual([400, INQUIRY_ERRORS.tooManyReferences]);
    const shown = (await call(artist, 'GET', `/api/inquiries/${inquiry._id}`)).json().inquiry as Inquiry;
    expect(shown.references).toHaveLength(INQUIRY_LIMITS.referencesMax);
    expect(shown.references[1]).toMatchObject({ width: 64, height: 48 });
  });

  it('takes answers from both, pages its messages oldest first, and moves through the artist’s states', async () => {
    const inquiry = await send(client, artist);
    const said: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const who = i % 2 === 0 ? artist : client;
      const answer = await call(who, 'POST', `/api/inquiries/${inquiry._id}/messages`, { body: `Message ${i}` });
      expect(answer.statusCode, answer.body).toBe(201);
      expect((answer.json().message as InquiryMessage).author.username).toBe(who.user.username);
      said.push(`Message ${i}`);
    }
    const pages = await walkPages<InquiryMessage>(
      ctx.app,
      (cursor) => `/api/inquiries/${inquiry._id}/messages?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      'messages',
      auth(client),
    );
    expect(pages.flat().map((message) => message.body)).toEqual(said);
    expect((await notificationsOf(client)).find((n) => n.inquiry?._id === inquiry._id)).toMatchObject({
      kind: 'inquiry-message',
    });
    // Five messages of one thread are one line in the artist's list: the latest replaces the one before.
    expect(
      (await notificationsOf(artist)).filter((n) => n.kind === 'inquiry-message' && n.inquiry?._id === inquiry._id),
    ).toHaveLength(1);

    const state = (who: SignedUp, body: object) => call(who, 'POST', `/api/inquiries/${inquiry._id}/state`, body);
    const byClient = await state(client, { state: 'accepted' });
    expect([byClient.statusCode, errorOf(byClient)]).toEqual([403, INQUIRY_ERRORS.artistOnly]);
    const noReason = await state(artist, { state: 'declined' });
    expect([noReason.statusCode, errorOf(noReason)]).toEqual([400, INQUIRY_ERRORS.reasonRequired]);
    const accepted = await state(artist, { state: 'accepted' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().inquiry.state).toBe('accepted');
    expect((await call(client, 'GET', `/api/inquiries/${inquiry._id}`)).json().inquiry.state).toBe('accepted');
    expect((await notificationsOf(client)).find((n) => n.kind === 'inquiry-state')).toMatchObject({
      inquiry: { _id: inquiry._id, state: 'accepted' },
    });
    expect((await state(artist, { state: 'done' })).json().inquiry.state).toBe('done');
    const again = await state(artist, { state: 'accepted' });
    expect([again.statusCode, errorOf(again)]).toEqual([409, INQUIRY_ERRORS.badTransition('done', 'accepted')]);

    const other = await send(client, artist);
    const declined = await call(artist, 'POST', `/api/inquiries/${other._id}/state`, {
      state: 'declined',
      reason: 'My queue is full until spring.',
    });
    expect(declined.json().inquiry).toMatchObject({
      state: 'declined',
      declineReason: 'My queue is full until spring.',
    });
    const stateNotes = (await notificationsOf(client)).filter(
      (n) => n.kind === 'inquiry-state' && n.inquiry?._id === inquiry._id,
    );
    expect(stateNotes).toHaveLength(1);
  });

  it('can be deleted by each for themselves; the rows and pictures go once both did', async () => {
    const inquiry = await send(client, artist);
    expect((await addReference(client, inquiry._id, await picture(80, 60))).statusCode).toBe(201);
    await call(artist, 'POST', `/api/inquiries/${inquiry._id}/messages`, { body: 'Happy to!' });

    expect((await call(client, 'DELETE', `/api/inquiries/${inquiry._id}`)).statusCode).toBe(204);
    expect((await call(client, 'GET', `/api/inquiries/${inquiry._id}`)).statusCode).toBe(404);
    expect(ids((await call(client, 'GET', '/api/inquiries?as=client')).json())).not.toContain(inquiry._id);
    expect((await notificationsOf(client)).some((n) => n.inquiry?._id === inquiry._id)).toBe(false);
    const seen = (await call(artist, 'GET', `/api/inquiries/${inquiry._id}`)).json().inquiry as Inquiry;
    expect(seen.viewer).toEqual({ role: 'artist', otherLeft: true });
    const answer = await call(artist, 'POST', `/api/inquiries/${inquiry._id}/messages`, { body: 'Still there?' });
    expect([answer.statusCode, errorOf(answer)]).toEqual([409, INQUIRY_ERRORS.otherLeft]);
    expect(await count('inquiries', inquiry._id)).toBe(1);

    expect((await call(artist, 'DELETE', `/api/inquiries/${inquiry._id}`)).statusCode).toBe(204);
    expect(await count('inquiries', inquiry._id)).toBe(0);
    expect(await count('inquiry_messages', inquiry._id)).toBe(0);
    expect(await count('inquiry_references', inquiry._id)).toBe(0);
    expect((await call(artist, 'GET', `/api/inquiries/${inquiry._id}`)).statusCode).toBe(404);
  });
});

describe('reports', () => {
  it('take an inquiry to the moderators, who see the thread and the person reported', async () => {
    // Someone new: the client has sent the day's five inquiries by now.
    const rude = await signUp(ctx.app);
    const inquiry = await send(rude, artist, { body: 'Draw this, or else.' });
    await call(artist, 'POST', `/api/inquiries/${inquiry._id}/messages`, { body: 'No, thank you.' });
    const report = (who: SignedUp) =>
      call(who, 'POST', '/api/reports', { targetType: 'inquiry', targetId: inquiry._id, reason: 'harassment' });
    expect((await report(stranger)).statusCode).toBe(404);
    const made = await report(artist);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().report).toMatchObject({ targetType: 'inquiry', targetId: inquiry._id });

    const grant = (role: string) =>
      db().execute(sql`update users set role = ${role} where id = ${stranger.user._id}::uuid`);
    await grant('moderator');
    const targets: ModerationTarget[] = [];
    let cursor: string | null = null;
    do {
      const page = await call(stranger, 'GET', `/api/moderation/reports${cursor ? `?cursor=${cursor}` : ''}`);
      expect(page.statusCode, page.body).toBe(200);
      targets.push(...page.json().targets);
      cursor = page.json().nextCursor;
    } while (cursor);
    const target = targets.find((t) => t.targetId === inquiry._id)!;
    expect(target).toMatchObject({ targetType: 'inquiry', author: { username: rude.user.username } });
    expect(target.content!.text).toContain('Draw this, or else.');
    expect(target.content!.text).toContain('No, thank you.');

    const act = (action: string) =>
      call(stranger, 'POST', '/api/moderation/actions', {
        targetType: 'inquiry',
        targetId: inquiry._id,
        action,
        reason: 'Reviewed',
      });
    expect((await act('hide')).statusCode).toBe(400);
    const dismissed = await act('dismiss');
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect((await notificationsOf(artist)).find((n) => n.kind === 'report-resolved')).toMatchObject({
      report: { targetType: 'inquiry', outcome: 'dismiss' },
    });
    await grant('user');
  });
});

describe('a reported inquiry’s reference pictures', () => {
  it('are shown to moderators while a report is open, through their own route, and to no one else', async () => {
    const client = await signUp(ctx.app);
    const inquiry = await send(client, artist, { body: 'Like these, please.' });
    const added = await addReference(client, inquiry._id, await picture(120, 90));
    expect(added.statusCode, added.body).toBe(201);
    const referenceId = added.json().reference._id as string;
    const url = `/api/moderation/inquiries/${inquiry._id}/references/${referenceId}`;
    const grant = (role: string) =>
      db().execute(sql`update users set role = ${role} where id = ${stranger.user._id}::uuid`);
    await grant('moderator');
    try {
      // Not reported: private to the two, a moderator too gets 404.
      expect((await call(stranger, 'GET', url)).statusCode).toBe(404);
      const made = await call(artist, 'POST', '/api/reports', {
        targetType: 'inquiry',
        targetId: inquiry._id,
        reason: 'other',
      });
      expect(made.statusCode, made.body).toBe(201);

      const targets: ModerationTarget[] = [];
      let cursor: string | null = null;
      do {
        const page = await call(stranger, 'GET', `/api/moderation/reports${cursor ? `?cursor=${cursor}` : ''}`);
        targets.push(...page.json().targets);
        cursor = page.json().nextCursor;
      } while (cursor);
      const target = targets.find((t) => t.targetId === inquiry._id)!;
      expect(target.content).toMatchObject({ references: [url], processPictures: [], pictures: [] });

      // The moderator reads the very bytes the two people read.
      const seen = await call(stranger, 'GET', url);
      expect(seen.statusCode).toBe(200);
      expect(seen.headers['content-type']).toBe('image/jpeg');
      expect(seen.headers['cache-control']).toContain('private');
      const theirs = await call(client, 'GET', `/api/inquiries/${inquiry._id}/references/${referenceId}`);
      expect(seen.rawPayload.equals(theirs.rawPayload)).toBe(true);
      // Anyone but a moderator: 403, the inquiry's own people too; signed out 401; bad ids 404 (not a 500).
      expect((await call(client, 'GET', url)).statusCode).toBe(403);
      expect((await call(null, 'GET', url)).statusCode).toBe(401);
      expect((await call(stranger, 'GET', `/api/moderation/inquiries/${inquiry._id}/references/nope`)).statusCode).toBe(
        404,
      );
      expect(
        (await call(stranger, 'GET', `/api/moderation/inquiries/${crypto.randomUUID()}/references/${referenceId}`))
          .statusCode,
      ).toBe(404);

      // The report dealt with: private again.
      const dismissed = await call(stranger, 'POST', '/api/moderation/actions', {
        targetType: 'inquiry',
        targetId: inquiry._id,
        action: 'dismiss',
        reason: 'Reviewed',
      });
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect((await call(stranger, 'GET', url)).statusCode).toBe(404);
    } finally {
      await grant('user');
    }
  });
});

describe('an account’s inquiries', () => {
  it('are in its export with their pictures, and go with the account', async () => {
    const buyer = await signUp(ctx.app);
    const inquiry = await send(buyer, artist, { budget: { amount: 90, currency: 'USD' } });
    const reference = (await addReference(buyer, inquiry._id, await picture(120, 90))).json().reference;
    await call(artist, 'POST', `/api/inquiries/${inquiry._id}/messages`, { body: 'When do you need it?' });

    const link = await call(buyer, 'POST', '/api/account/export');
    expect(link.statusCode, link.body).toBe(201);
    const entries = await unzip((await ctx.app.inject({ method: 'GET', url: link.json().url })).rawPayload);
    const exported = JSON.parse(entries.get('inquiries.json')!.toString('utf8'));
    const file = `inquiries/${inquiry._id}/${reference._id}.jpg`;
    expect(exported).toEqual([
      expect.objectContaining({
        id: inquiry._id,
        role: 'client',
        artist: artist.user.username,
        client: buyer.user.username,
        budget: { amount: 90, currency: 'USD' },
        state: 'open',
        messages: [expect.objectContaining({ author: artist.user.username, body: 'When do you need it?' })],
        references: [expect.objectContaining({ id: reference._id, file, width: 120, height: 90 })],
      }),
    ]);
    expect((await sharp(entries.get(file)!).metadata()).width).toBe(120);

    const gone = await call(buyer, 'POST', '/api/account/delete', { password: buyer.password });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await count('inquiries', inquiry._id)).toBe(0);
    expect(await count('inquiry_references', inquiry._id)).toBe(0);
    expect((await call(artist, 'GET', `/api/inquiries/${inquiry._id}`)).statusCode).toBe(404);
    expect((await notificationsOf(artist)).some((n) => n.inquiry?._id === inquiry._id)).toBe(false);
  });
});
