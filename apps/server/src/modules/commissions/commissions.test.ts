import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, NOTIFICATION_ACTIONS, type Commissions } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import {
  createPost,
  createTestApp,
  errorOf,
  eventually,
  signUp,
  walkPages,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { COMMISSION_ERRORS } from './index.js';

/**
 * Open for commissions (issue 42): the panel and its 400s, who sees it, the "open" badge of posts and people, the
 * filters of search, tag pages and Explore (keyset pages still whole), "Tell me when they open" notifying once per
 * opening (open, closed, open within a day: once), blocks, the link preview, the export and account deletion.
 */

const ORIGIN = 'https://share.example';
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Share Arts</title>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

let ctx: TestContext;
let webDistDir: string;
beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-commissions-'));
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  ctx = await createTestApp({ config: { webDistDir, publicOrigin: ORIGIN } });
}, 180_000);
afterAll(async () => {
  await ctx.close();
  await rm(webDistDir, { recursive: true, force: true });
});

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const db = () => ctx.database.db;

const call = (who: SignedUp | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: who ? auth(who) : {}, ...(payload === undefined ? {} : { payload }) });

/** A word no other test uses, for names and tags. */
const unique = (() => {
  let n = 0;
  return (prefix: string) => `${prefix}${Date.now().toString(36)}${(n++).toString(36)}`;
})();

async function save(who: SignedUp, body: object): Promise<Commissions> {
  const response = await call(who, 'PUT', '/api/commissions', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().commissions;
}

async function panelOf(who: SignedUp | null, artist: SignedUp) {
  return call(who, 'GET', `/api/users/${artist.user.username}/commissions`);
}

const follow = async (who: SignedUp, whom: SignedUp) => {
  const response = await call(who, 'POST', `/api/users/follow/${whom.user._id}`);
  expect(response.statusCode, response.body).toBe(200);
};

const OPEN = {
  open: true,
  kinds: ['portrait', 'illustration'],
  kindsNote: ' Pets and their people ',
  slots: { total: 5, taken: 3 },
  price: { currency: 'EUR', min: 40, max: 250 },
  turnaroundDays: 21,
  terms: 'Half up front.\nNo NSFW.',
  termsUrl: 'https://example.com/terms',
  languages: ['en', 'pt-br', 'FR'],
};

describe('the panel', () => {
  it('is filled in by its artist and read by anyone, in its canonical form', async () => {
    const artist = await signUp(ctx.app);
    const never = await panelOf(null, artist);
    expect(never.statusCode).toBe(200);
    expect(never.json().commissions).toMatchObject({
      open: false,
      kinds: [],
      slots: null,
      price: null,
      updatedAt: null,
    });

    const first = await createPost(ctx.app, artist, 'A dog portrait');
    const second = await createPost(ctx.app, artist, 'A cat portrait');
    const saved = await save(artist, { ...OPEN, examples: [second, first] });
    expect(saved).toMatchObject({
      open: true,
      kinds: ['illustration', 'portrait'],
      kindsNote: 'Pets and their people',
      slots: { total: 5, taken: 3 },
      price: { currency: 'EUR', min: 40, max: 250 },
      turnaroundDays: 21,
      terms: 'Half up front.\nNo NSFW.',
      termsUrl: 'https://example.com/terms',
      languages: ['en', 'pt-BR', 'fr'],
      viewer: { isOwner: true, watching: false, canWatch: false },
    });
    expect(saved.examples.map((example) => example._id)).toEqual([second, first]);
    expect(saved.examples[0]).toMatchObject({ content: 'A cat portrait', picture: null, contentWarning: null });
    expect(saved.openedAt).not.toBeNull();

    const seen = (await panelOf(null, artist)).json().commissions as Commissions;
    expect(seen).toMatchObject({ open: true, viewer: { isOwner: false, watching: false, canWatch: false } });
    expect(seen.examples).toHaveLength(2);
    // Any letter case of the username.
    expect((await call(null, 'GET', `/api/users/${artist.user.username.toUpperCase()}/commissions`)).statusCode).toBe(
      200,
    );
    expect((await call(null, 'GET', '/api/users/no_such_person_here/commissions')).statusCode).toBe(404);

    // A PUT replaces the whole panel: closing with nothing else empties the rest, and keeps when they last opened.
    const closed = await save(artist, { open: false });
    expect(closed).toMatchObject({ open: false, kinds: [], price: null, slots: null, examples: [], languages: [] });
    expect(closed.openedAt).toBe(saved.openedAt);
  });

  it('refuses what is wrong with a sentence saying what to fix', async () => {
    const artist = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const theirs = await createPost(ctx.app, other, 'Not yours');
    const mine = await createPost(ctx.app, artist, 'Mine');
    const refused = async (body: object, message: string | RegExp) => {
      const response = await call(artist, 'PUT', '/api/commissions', { open: true, ...body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      if (typeof message === 'string') expect(errorOf(response)).toBe(message);
      else expect(errorOf(response)).toMatch(message);
    };
    await refused({ slots: { total: 3, taken: 4 } }, COMMISSION_ERRORS.slotsTaken);
    await refused({ slots: { total: 0, taken: 0 } }, /^slots\.total must be a whole number from 1 to 99/);
    await refused({ price: { currency: 'EUR', min: 300, max: 100 } }, COMMISSION_ERRORS.priceOrder);
    await refused({ price: { currency: 'XYZ', min: 1, max: 2 } }, /^currency must be an ISO 4217 code/);
    await refused({ price: { currency: 'EUR', min: -1, max: 2 } }, /^a price must be a whole number/);
    await refused({ termsUrl: 'http://example.com/terms' }, /^termsUrl must be an https:\/\/ link/);
    await refused({ termsUrl: 'javascript:alert(1)' }, /^termsUrl must be an https:\/\/ link/);
    await refused({ terms: 't'.repeat(2001) }, /^terms must be at most 2000 characters/);
    await refused({ languages: ['english!'] }, /^each language must be a BCP 47 tag/);
    await refused({ languages: ['en-x'] }, COMMISSION_ERRORS.language('en-x'));
    await refused({ kinds: ['murals'] }, /^kind must be one of illustration/);
    await refused({ turnaroundDays: 0 }, /^turnaroundDays must be a whole number of days from 1 to 365/);
    await refused({ examples: [theirs] }, COMMISSION_ERRORS.notYourWork);
    await refused({ examples: [mine, mine] }, COMMISSION_ERRORS.examplesTwice);
    await refused({ examples: ['not-an-id'] }, COMMISSION_ERRORS.notYourWork);
    await refused({ examples: Array.from({ length: 7 }, () => mine) }, /^examples must be at most 6 ids/);
    // A work a moderator hid, and a work from another server, are not public works of the artist.
    const hidden = await createPost(ctx.app, artist, 'Hidden');
    await queryRows(
      db(),
      sql`update posts set moderation_state = 'hidden', moderation_reason = 'x' where id = ${hidden}::uuid`,
    );
    await refused({ examples: [hidden] }, COMMISSION_ERRORS.notYourWork);
    const remote = await createPost(ctx.app, artist, 'Fetched');
    await queryRows(
      db(),
      sql`update posts set note_iri = ${`https://elsewhere.example/notes/${remote}`} where id = ${remote}::uuid`,
    );
    await refused({ examples: [remote] }, COMMISSION_ERRORS.notYourWork);
    // Nothing was written by any of them.
    expect((await panelOf(null, artist)).json().commissions.updatedAt).toBeNull();
    expect((await call(null, 'PUT', '/api/commissions', { open: true })).statusCode).toBe(401);
  });

  it('is not there between a blocked pair, for anyone when the artist is suspended, and hides works not shown', async () => {
    const artist = await signUp(ctx.app);
    const example = await createPost(ctx.app, artist, 'Example');
    const hidden = await createPost(ctx.app, artist, 'Soon hidden');
    await save(artist, { ...OPEN, examples: [example, hidden] });
    await queryRows(
      db(),
      sql`update posts set moderation_state = 'hidden', moderation_reason = 'x' where id = ${hidden}::uuid`,
    );
    expect((await panelOf(null, artist)).json().commissions.examples.map((e: { _id: string }) => e._id)).toEqual([
      example,
    ]);
    // The artist still sees their own hidden work.
    expect((await panelOf(artist, artist)).json().commissions.examples).toHaveLength(2);

    const blocked = await signUp(ctx.app);
    const blocker = await signUp(ctx.app);
    expect((await call(artist, 'POST', `/api/users/${blocked.user.username}/block`)).statusCode).toBe(200);
    expect((await call(blocker, 'POST', `/api/users/${artist.user.username}/block`)).statusCode).toBe(200);
    for (const who of [blocked, blocker]) {
      const refused = await panelOf(who, artist);
      expect(refused.statusCode).toBe(404);
      expect(errorOf(refused)).toBe(ERRORS.userNotFound);
      expect((await call(who, 'POST', `/api/users/${artist.user.username}/commissions/watch`)).statusCode).toBe(404);
    }
    // Nor does the blocked person see the badge: the people search and the tag page leave the artist out.
    const tag = unique('blk');
    await createPost(ctx.app, artist, `Open #${tag}`);
    const tagged = (await call(blocked, 'GET', `/api/tags/${tag}/posts?open=true`)).json().posts;
    expect(tagged).toEqual([]);
    expect((await call(null, 'GET', `/api/tags/${tag}/posts?open=true`)).json().posts).toHaveLength(1);

    // Signed out, an artist who shows works to signed-in people only shows the panel without its works.
    await queryRows(db(), sql`update users set works_signed_in_only = true where id = ${artist.user._id}::uuid`);
    const signedOut = (await panelOf(null, artist)).json().commissions;
    expect(signedOut).toMatchObject({ open: true, examples: [] });
    const signedIn = await signUp(ctx.app);
    expect((await panelOf(signedIn, artist)).json().commissions.examples).toHaveLength(1);

    await queryRows(db(), sql`update users set suspended_until = 'infinity' where id = ${artist.user._id}::uuid`);
    expect((await panelOf(null, artist)).statusCode).toBe(404);
    expect((await panelOf(artist, artist)).statusCode).toBe(200);
  });
});

describe('the open badge and the filters', () => {
  /** Three artists named by one word: open illustrators in EUR, open logos in USD, and closed. */
  async function threeArtists() {
    const word = unique('quill');
    const make = (n: number) => signUp(ctx.app, { fullname: `${word} Artist${n}` });
    const [euro, dollar, closed] = await Promise.all([make(1), make(2), make(3)]);
    await save(euro!, {
      open: true,
      kinds: ['illustration', 'portrait'],
      price: { currency: 'EUR', min: 50, max: 200 },
    });
    await save(dollar!, { open: true, kinds: ['logo'], price: { currency: 'USD', min: 300, max: 900 } });
    await save(closed!, { open: false, kinds: ['illustration'], price: { currency: 'EUR', min: 10, max: 20 } });
    return { word, euro: euro!, dollar: dollar!, closed: closed! };
  }

  const ids = (list: { _id: string }[]) => list.map((item) => item._id).sort();

  it('narrows people search to open artists by kind and price in one currency, and badges them', async () => {
    const { word, euro, dollar, closed } = await threeArtists();
    const search = (query: string) => call(null, 'GET', `/api/search?q=${word}&type=users${query}`);
    const all = (await search('')).json().users;
    expect(ids(all)).toEqual(ids([euro.user, dollar.user, closed.user].map((u) => ({ _id: u._id }))));
    const badge = new Map(all.map((u: { _id: string; openForCommissions?: boolean }) => [u._id, u.openForCommissions]));
    expect(badge.get(euro.user._id)).toBe(true);
    expect(badge.get(closed.user._id)).toBeUndefined();

    expect(ids((await search('&open=true')).json().users)).toEqual([euro.user._id, dollar.user._id].sort());
    expect(ids((await search('&kind=logo')).json().users)).toEqual([dollar.user._id]);
    // A budget of 100 EUR: the EUR artist whose range starts below it; the USD artist is never compared.
    expect(ids((await search('&currency=EUR&priceMax=100')).json().users)).toEqual([euro.user._id]);
    expect(ids((await search('&currency=USD&priceMax=100')).json().users)).toEqual([]);
    expect(ids((await search('&currency=USD&priceMin=800')).json().users)).toEqual([dollar.user._id]);
    expect(ids((await search('&currency=EUR&priceMin=201')).json().users)).toEqual([]);
    // type=all narrows its people too.
    expect(ids((await call(null, 'GET', `/api/search?q=${word}&kind=portrait`)).json().users)).toEqual([euro.user._id]);

    const noCurrency = await search('&priceMax=100');
    expect(noCurrency.statusCode).toBe(400);
    expect(errorOf(noCurrency)).toBe(COMMISSION_ERRORS.filterCurrency);
    const reversed = await search('&currency=EUR&priceMin=10&priceMax=5');
    expect(reversed.statusCode).toBe(400);
    expect(errorOf(reversed)).toBe(COMMISSION_ERRORS.filterOrder);
    expect((await search('&kind=murals')).statusCode).toBe(400);

    // Pages by keyset: one person a page, each open artist once.
    const pages = await walkPages<{ _id: string }>(
      ctx.app,
      (cursor) => `/api/search?q=${word}&type=users&open=true&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      'users',
    );
    expect(ids(pages.flat())).toEqual([euro.user._id, dollar.user._id].sort());

    // The profile says it too.
    const profile = (await call(null, 'GET', `/api/users/by-username/${euro.user.username}`)).json();
    expect(profile.user?.openForCommissions ?? profile.openForCommissions).toBe(true);
  });

  it('narrows a tag page and Explore to the works of open artists, badged, in whole keyset pages', async () => {
    const { euro, dollar, closed } = await threeArtists();
    const tag = unique('inked');
    const works: Record<string, string[]> = { euro: [], dollar: [], closed: [] };
    for (let i = 0; i < 3; i++) {
      works.euro!.push(await createPost(ctx.app, euro, `Euro ${i} #${tag}`));
      works.closed!.push(await createPost(ctx.app, closed, `Closed ${i} #${tag}`));
      works.dollar!.push(await createPost(ctx.app, dollar, `Dollar ${i} #${tag}`));
    }
    const tagPages = (query: string) =>
      walkPages<{ _id: string; authorOpenForCommissions?: boolean }>(
        ctx.app,
        (cursor) => `/api/tags/${tag}/posts?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`,
        'posts',
      );
    const unfiltered = (await tagPages('')).flat();
    expect(unfiltered).toHaveLength(9);
    for (const post of unfiltered) {
      expect(post.authorOpenForCommissions ?? false).toBe(!works.closed!.includes(post._id));
    }
    const open = await tagPages('&open=true');
    expect(open.map((page) => page.length)).toEqual([2, 2, 2]);
    // Newest first, as a tag page is: the loop above posted euro, closed, dollar, three times.
    const newestOpen = [2, 1, 0].flatMap((i) => [works.dollar![i]!, works.euro![i]!]);
    expect(open.flat().map((post) => post._id)).toEqual(newestOpen);
    expect((await tagPages('&kind=logo')).flat().map((post) => post._id)).toEqual([...works.dollar!].reverse());
    expect((await tagPages('&currency=EUR&priceMax=60&sort=oldest')).flat().map((post) => post._id)).toEqual(
      works.euro,
    );
    const bad = await call(null, 'GET', `/api/tags/${tag}/posts?priceMin=5`);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe(COMMISSION_ERRORS.filterCurrency);

    // Explore: the same filter on everyone's posts; the newest works of these artists come first.
    const explore = (await call(null, 'GET', '/api/posts?kind=logo&limit=3')).json().posts as { _id: string }[];
    expect(explore.map((post) => post._id)).toEqual([...works.dollar!].reverse());
    expect((await call(null, 'GET', '/api/posts?currency=USD&priceMin=10000')).json().posts).toEqual([]);

    // Closing drops the badge from the cached posts at once, and the artist from the filters.
    await save(dollar, { open: false });
    // The cached post hears of it by the event the save published (at once in-process on PGlite; on PostgreSQL once
    // the outbox relays it after the commit).
    await eventually(async () => {
      const after = (await call(null, 'GET', `/api/posts/${works.dollar![0]}`)).json();
      expect((after.post ?? after).authorOpenForCommissions).toBeUndefined();
    }, 5000);
    expect((await tagPages('&kind=logo')).flat()).toEqual([]);
  });
});

describe('Tell me when they open', () => {
  const opened = async (who: SignedUp, artist: SignedUp) =>
    (await call(who, 'GET', '/api/notifications'))
      .json()
      .notifications.filter(
        (n: { kind: string; actors: { _id: string }[] }) =>
          n.kind === 'commissions-open' && n.actors[0]?._id === artist.user._id,
      );

  it('notifies each follower who asked once per opening: open, closed, open within a day notifies once', async () => {
    const artist = await signUp(ctx.app);
    const watcher = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    const quiet = await signUp(ctx.app);
    const blocked = await signUp(ctx.app);

    // Only followers may ask; not oneself.
    const notFollowing = await call(stranger, 'POST', `/api/users/${artist.user.username}/commissions/watch`);
    expect(notFollowing.statusCode).toBe(400);
    expect(errorOf(notFollowing)).toBe(COMMISSION_ERRORS.notFollowing);
    const self = await call(artist, 'POST', `/api/users/${artist.user.username}/commissions/watch`);
    expect(self.statusCode).toBe(400);
    expect(errorOf(self)).toBe(COMMISSION_ERRORS.watchSelf);
    expect((await call(null, 'POST', `/api/users/${artist.user.username}/commissions/watch`)).statusCode).toBe(401);

    for (const who of [watcher, quiet, blocked]) await follow(who, artist);
    expect((await panelOf(watcher, artist)).json().commissions.viewer).toEqual({
      isOwner: false,
      watching: false,
      canWatch: true,
    });
    for (const who of [watcher, blocked]) {
      const asked = await call(who, 'POST', `/api/users/${artist.user.username}/commissions/watch`);
      expect(asked.statusCode, asked.body).toBe(200);
      expect(asked.json().commissions.viewer.watching).toBe(true);
    }
    // Asking twice is fine.
    expect((await call(watcher, 'POST', `/api/users/${artist.user.username}/commissions/watch`)).statusCode).toBe(200);
    // The blocked one asked before the block; a block never carries a notification.
    expect((await call(artist, 'POST', `/api/users/${blocked.user.username}/block`)).statusCode).toBe(200);
    // Saving while closed notifies nobody.
    await save(artist, { open: false, kinds: ['comic'] });
    expect(await opened(watcher, artist)).toHaveLength(0);

    // Open: one notification, which says so.
    await save(artist, { ...OPEN });
    const first = await opened(watcher, artist);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ read: false, post: null });
    expect(NOTIFICATION_ACTIONS['commissions-open']).toBe('is open for commissions');
    expect((await call(watcher, 'GET', '/api/notifications/unread-count')).json().unreadCount).toBe(1);
    // Saving again while open is no opening.
    await save(artist, { ...OPEN, slots: { total: 5, taken: 4 } });
    // Closed, then open again within the day: still the one notification.
    await save(artist, { open: false });
    await save(artist, { ...OPEN });
    expect(await opened(watcher, artist)).toHaveLength(1);
    expect((await call(watcher, 'GET', '/api/notifications/unread-count')).json().unreadCount).toBe(1);
    // Nobody else was told: not a follower who did not ask, not the blocked pair, not the artist.
    expect(await opened(quiet, artist)).toHaveLength(0);
    expect(await opened(blocked, artist)).toHaveLength(0);
    const artistsOwn = (await call(artist, 'GET', '/api/notifications')).json().notifications;
    expect(artistsOwn.filter((n: { kind: string }) => n.kind === 'commissions-open')).toEqual([]);

    // A day later (the watcher's last telling moved back a day), the next opening tells them again.
    await queryRows(
      db(),
      sql`update commission_watchers set notified_at = notified_at - interval '25 hours'
          where artist_id = ${artist.user._id}::uuid`,
    );
    await save(artist, { open: false });
    await save(artist, { ...OPEN });
    expect(await opened(watcher, artist)).toHaveLength(2);

    // Stopping: a later opening tells them nothing; unfollowing also ends it.
    const stopped = await call(watcher, 'DELETE', `/api/users/${artist.user.username}/commissions/watch`);
    expect(stopped.json().commissions.viewer.watching).toBe(false);
    await queryRows(db(), sql`update commission_watchers set notified_at = null`);
    await save(artist, { open: false });
    await save(artist, { ...OPEN });
    expect(await opened(watcher, artist)).toHaveLength(2);
    await call(quiet, 'POST', `/api/users/${artist.user.username}/commissions/watch`);
    await call(quiet, 'POST', `/api/users/unfollow/${artist.user._id}`);
    await save(artist, { open: false });
    await save(artist, { ...OPEN });
    expect(await opened(quiet, artist)).toHaveLength(0);
  });
});

/** Every entry of a zip, by name. */
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

describe('an account’s commissions', () => {
  it('say "Open for commissions" in the profile’s link preview', async () => {
    const artist = await signUp(ctx.app, { fullname: 'Mira Okafor' });
    await call(artist, 'POST', '/api/users/edit', { userData: { bio: 'Ink & gouache.' } });
    await save(artist, { ...OPEN });
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/${artist.user.username}`,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<meta property="og:description" content="Open for commissions. Ink &amp; gouache.">');
    await save(artist, { open: false });
    const closed = await ctx.app.inject({
      method: 'GET',
      url: `/${artist.user.username}`,
      headers: { accept: 'text/html' },
    });
    expect(closed.body).toContain('<meta property="og:description" content="Ink &amp; gouache.">');
  });

  it('are in the export, and go with the account', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const example = await createPost(ctx.app, artist, 'Example');
    await save(artist, { ...OPEN, examples: [example] });
    await follow(fan, artist);
    await call(fan, 'POST', `/api/users/${artist.user.username}/commissions/watch`);

    const link = await call(artist, 'POST', '/api/account/export');
    expect(link.statusCode, link.body).toBe(201);
    const entries = await unzip((await ctx.app.inject({ method: 'GET', url: link.json().url })).rawPayload);
    const exported = JSON.parse(entries.get('commissions.json')!.toString('utf8'));
    expect(exported).toMatchObject({
      panel: {
        open: true,
        kinds: ['portrait', 'illustration'],
        slots: { total: 5, taken: 3 },
        price: { currency: 'EUR', min: 40, max: 250 },
        languages: ['en', 'pt-BR', 'fr'],
        examples: [example],
      },
      watching: [],
    });
    expect(entries.get('README.txt')!.toString('utf8')).toContain('commissions.json');
    const fanLink = await call(fan, 'POST', '/api/account/export');
    const fanZip = await unzip((await ctx.app.inject({ method: 'GET', url: fanLink.json().url })).rawPayload);
    expect(JSON.parse(fanZip.get('commissions.json')!.toString('utf8'))).toMatchObject({
      panel: null,
      watching: [{ artistId: artist.user._id, username: artist.user.username, notifiedAt: null }],
    });

    expect((await call(artist, 'POST', '/api/account/delete', { password: artist.password })).statusCode).toBe(200);
    const left = await queryRows<{ n: number }>(
      db(),
      sql`select (select count(*) from commission_profiles where user_id = ${artist.user._id}::uuid)
               + (select count(*) from commission_examples where user_id = ${artist.user._id}::uuid)
               + (select count(*) from commission_watchers where artist_id = ${artist.user._id}::uuid) as n`,
    );
    expect(Number(left[0]!.n)).toBe(0);
  });
});
