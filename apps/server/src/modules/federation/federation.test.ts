import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Temporal } from '@js-temporal/polyfill';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import {
  createPost,
  createTestApp,
  multipart,
  signUp,
  uploadPicture,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { INBOX_BODY_LIMIT } from './federation.adapter.js';
import { createDatabaseKvStore } from './federation.kv.js';

/**
 * The fediverse (issue 39, part 1: being found). Each check names the rule of Mastodon's or Pixelfed's parser it
 * stands for: Mastodon's app/services/activitypub/fetch_remote_actor_service.rb (FRA),
 * process_account_service.rb (PAS), fetch_remote_key_service.rb (FRK), app/lib/activitypub/parser/
 * status_parser.rb (SP) and media_attachment_parser.rb (MAP); Pixelfed's app/Util/ActivityPub/Helpers.php (PH).
 */

const ORIGIN = 'https://share.example';
const HOST = 'share.example';
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const AP = 'application/activity+json';
const LD = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

let ctx: TestContext;

beforeAll(async () => {
  // A built web app's index.html, so that a profile's page answers as the pages module draws it.
  const webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-web-'));
  await writeFile(
    path.join(webDistDir, 'index.html'),
    '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Share Arts</title>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n',
  );
  ctx = await createTestApp({
    config: { webDistDir, publicOrigin: ORIGIN, logLevel: process.env.FED_LOG ? 'error' : 'silent' },
  });
}, 60_000);
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const actorId = (who: SignedUp) => `${ORIGIN}/ap/users/${who.user._id}`;

async function get(url: string, accept: string = AP) {
  return ctx.app.inject({ method: 'GET', url, headers: { accept } });
}

async function getJson(url: string, accept: string = AP) {
  const response = await get(url, accept);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function edit(who: SignedUp, userData: Record<string, unknown>) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/edit',
    payload: { userData },
    headers: auth(who),
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

async function post(who: SignedUp, payload: Record<string, unknown>): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload,
    headers: { ...auth(who), prefer: 'return=minimal' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post._id as string;
}

/** What these tests read of a Note. */
interface NoteJson {
  id: string;
  to: string[];
  cc: string[];
  summary: string;
  sensitive: boolean;
  attachment: Record<string, unknown>[];
  content: string;
  tag: unknown[];
  published: string;
}

/** The first page of an actor's outbox: its items and the collection's total. */
async function outbox(who: SignedUp) {
  const collection = await getJson(`/ap/users/${who.user._id}/outbox`);
  expect(collection.type).toBe('OrderedCollection');
  const page = await getJson(new URL(collection.first).pathname + new URL(collection.first).search);
  // An empty page has no orderedItems at all.
  return { total: collection.totalItems as number, items: (page.orderedItems ?? []) as Record<string, unknown>[] };
}

describe('WebFinger, host-meta and NodeInfo', () => {
  it('answers acct:name@host in any letter case with the subject as the account writes it and a self link to the actor', async () => {
    const artist = await signUp(ctx.app, { fullname: 'Mira Okafor' });
    const name = artist.user.username;
    const response = await get(
      `/.well-known/webfinger?resource=acct:${name.toUpperCase()}@${HOST}`,
      'application/jrd+json',
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/jrd\+json/);
    const jrd = response.json();
    // FRA check_webfinger!: the subject's name and host match the actor's (case-insensitively), and the self
    // link's href is the actor's id.
    expect(jrd.subject).toBe(`acct:${name}@${HOST}`);
    expect(jrd.aliases).toEqual([`${ORIGIN}/${name}`, actorId(artist)]);
    const self = jrd.links.find((link: { rel: string }) => link.rel === 'self');
    expect(self).toEqual({ rel: 'self', type: AP, href: actorId(artist) });
    expect(jrd.links).toContainEqual({
      rel: 'http://webfinger.net/rel/profile-page',
      type: 'text/html',
      href: `${ORIGIN}/${name}`,
    });
    // The actor it names says the same name (FRA: preferredUsername is what is checked).
    expect((await getJson(new URL(self.href).pathname)).preferredUsername).toBe(name);
  });

  it('answers 404 for an unknown account and for an account of another host', async () => {
    const artist = await signUp(ctx.app);
    expect((await get(`/.well-known/webfinger?resource=acct:nobody_here_at_all@${HOST}`)).statusCode).toBe(404);
    expect(
      (await get(`/.well-known/webfinger?resource=acct:${artist.user.username}@elsewhere.example`)).statusCode,
    ).toBe(404);
  });

  it('serves host-meta pointing at WebFinger', async () => {
    const response = await get('/.well-known/host-meta', 'application/xrd+xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xrd\+xml/);
    expect(response.body).toContain(`template="${ORIGIN}/.well-known/webfinger?resource={uri}"`);
  });

  it('links NodeInfo 2.1 and answers it with the software, its version, the protocol and the usage', async () => {
    const artist = await signUp(ctx.app);
    await createPost(ctx.app, artist, 'Counted');
    const discovery = await getJson('/.well-known/nodeinfo', 'application/json');
    expect(discovery.links).toContainEqual(
      expect.objectContaining({
        rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1',
        href: `${ORIGIN}/nodeinfo/2.1`,
      }),
    );
    const info = await getJson('/nodeinfo/2.1', 'application/json');
    const { version } = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(info.software).toEqual({ name: 'share-arts', version });
    expect(info.protocols).toEqual(['activitypub']);
    expect(info.openRegistrations).toBe(true);
    expect(info.usage.users.total).toBeGreaterThanOrEqual(1);
    expect(info.usage.users.activeMonth).toBeGreaterThanOrEqual(1);
    expect(info.usage.users.activeHalfyear).toBeGreaterThanOrEqual(info.usage.users.activeMonth);
    expect(info.usage.localPosts).toBeGreaterThanOrEqual(1);
  });
});

describe('the actor', () => {
  it('is a Person as Mastodon takes it: id and url on our host, an inbox, a key its owner names, fields as an array', async () => {
    const artist = await signUp(ctx.app, { fullname: 'Mira Okafor' });
    await edit(artist, {
      bio: 'Paints <foxes> & snow. #winter https://mira.example/about',
      link: 'https://mira.example',
    });
    const actor = await getJson(`/ap/users/${artist.user._id}`, LD);
    expect(actor['@context']).toContain('https://www.w3.org/ns/activitystreams');
    // FRA: a supported type and a preferredUsername.
    expect(actor.type).toBe('Person');
    expect(actor.preferredUsername).toBe(artist.user.username);
    expect(actor.name).toBe('Mira Okafor');
    // PAS: the id on our host; `url` (text/html) kept only when on the id's host (mismatching_origin?).
    expect(new URL(actor.id).host).toBe(HOST);
    const url = typeof actor.url === 'string' ? actor.url : actor.url.href;
    expect(url).toBe(`${ORIGIN}/${artist.user.username}`);
    expect(new URL(url).host).toBe(new URL(actor.id).host);
    // PAS: an actor without an inbox is not taken at all.
    expect(actor.inbox).toBe(`${actorId(artist)}/inbox`);
    expect(actor.endpoints.sharedInbox).toBe(`${ORIGIN}/ap/inbox`);
    for (const collection of ['outbox', 'followers', 'following', 'featured']) {
      expect(actor[collection]).toBe(`${actorId(artist)}/${collection}`);
    }
    // FRK confirmed_owner?: the key's owner is the actor, and the actor names that key.
    expect(actor.publicKey.owner).toBe(actor.id);
    expect(actor.publicKey.id.startsWith(`${actor.id}#`)).toBe(true);
    expect(actor.publicKey.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(actor.assertionMethod).toHaveLength(2);
    // PAS property_values: profile fields only from an `attachment` array of PropertyValue.
    expect(actor.attachment).toEqual([
      {
        type: 'PropertyValue',
        name: 'Website',
        value: '<a href="https://mira.example/" rel="me nofollow noopener" target="_blank">mira.example</a>',
      },
    ]);
    // The bio as HTML: its text escaped, its address and tag links.
    expect(actor.summary).toBe(
      '<p>Paints &lt;foxes&gt; &amp; snow. <a href="https://share.example/tags/winter" class="mention hashtag" rel="tag">#<span>winter</span></a> ' +
        '<a href="https://mira.example/about" rel="nofollow noopener" target="_blank">https://mira.example/about</a></p>',
    );
    expect(actor.manuallyApprovesFollowers).toBe(false);
    expect(actor.discoverable).toBe(true);
    // The AI-training opt-out is on by default (issue 23): not indexable.
    expect(actor.indexable).toBe(false);
    expect(Temporal.Instant.from(actor.published)).toBeTruthy();
  });

  it('shows the avatar as an Image, follows the AI opt-out, and makes one key pair per algorithm however many ask at once', async () => {
    const artist = await signUp(ctx.app);
    const data = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#c85' } })
      .jpeg()
      .toBuffer();
    const { payload, contentType } = multipart([
      { name: 'purpose', data: 'avatar' },
      { name: 'file', data, filename: 'me.jpg', contentType: 'image/jpeg' },
    ]);
    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/api/media',
      payload,
      headers: { 'content-type': contentType, ...auth(artist) },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    await edit(artist, { userPhoto: upload.json().media._id, settings: { aiTrainingOptOut: false } });
    const answers = await Promise.all(Array.from({ length: 5 }, () => getJson(`/ap/users/${artist.user._id}`)));
    expect(new Set(answers.map((actor) => actor.publicKey.publicKeyPem)).size).toBe(1);
    const [keys] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from actor_keys where user_id = ${artist.user._id}::uuid`,
    );
    expect(keys!.n).toBe(2);
    const actor = answers[0]!;
    expect(actor.indexable).toBe(true);
    expect(actor.icon).toMatchObject({ type: 'Image', mediaType: 'image/jpeg' });
    expect(actor.icon.url).toMatch(new RegExp(`^${ORIGIN}/media/.+\\.jpg$`));
  });

  it('answers the profile page as the actor to ActivityPub clients, and as the page to a browser', async () => {
    const artist = await signUp(ctx.app, { fullname: 'Mira Okafor' });
    for (const accept of [AP, LD]) {
      const response = await get(`/${artist.user.username}`, accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/activity\+json/);
      expect(response.headers.vary).toMatch(/Accept/);
      expect(response.json().id).toBe(actorId(artist));
    }
    const page = await get(`/${artist.user.username}`, 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(`<title>Mira Okafor (@${artist.user.username}) · Share Arts</title>`);
    // A browser asking the actor's own address gets the app, not JSON.
    expect((await get(`/ap/users/${artist.user._id}`, 'text/html')).headers['content-type']).toMatch(/^text\/html/);
  });

  it('is not there for a suspended account, nor an unknown one', async () => {
    const artist = await signUp(ctx.app);
    await ctx.database.db.execute(
      sql`update users set suspended_until = 'infinity' where id = ${artist.user._id}::uuid`,
    );
    expect((await get(`/ap/users/${artist.user._id}`)).statusCode).toBe(404);
    expect((await get(`/.well-known/webfinger?resource=acct:${artist.user.username}@${HOST}`)).statusCode).toBe(404);
    expect((await get('/ap/users/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get('/ap/users/not-a-uuid')).statusCode).toBe(404);
  });

  it('refuses unsigned activities sent to an inbox (401) and bodies over the limit (413)', async () => {
    const artist = await signUp(ctx.app);
    for (const url of [`/ap/users/${artist.user._id}/inbox`, '/ap/inbox']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url,
        payload: JSON.stringify({
          '@context': 'https://www.w3.org/ns/activitystreams',
          id: 'https://remote.example/follows/1',
          type: 'Follow',
          actor: 'https://remote.example/users/bob',
          object: actorId(artist),
        }),
        headers: { 'content-type': AP },
      });
      expect(response.statusCode, response.body).toBe(401);
      const large = await ctx.app.inject({
        method: 'POST',
        url,
        payload: JSON.stringify({ type: 'Note', content: 'x'.repeat(INBOX_BODY_LIMIT) }),
        headers: { 'content-type': AP },
      });
      expect(large.statusCode).toBe(413);
    }
    // The inbox of an account that is not there.
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/ap/users/00000000-0000-4000-8000-000000000000/inbox',
      payload: JSON.stringify({ type: 'Follow' }),
      headers: { 'content-type': AP },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('works', () => {
  it('go out as Create(Note): five Image JPEGs with their alt text, a warning as summary with sensitive, tags as an array, "+1 more"', async () => {
    const artist = await signUp(ctx.app, { fullname: 'Mira Okafor' });
    const friend = await signUp(ctx.app);
    const pictures = [];
    for (let i = 1; i <= 5; i += 1)
      pictures.push(await uploadPicture(ctx.app, artist, `Fox study ${i}`, { width: 2400, height: 1600 }));
    const id = await post(artist, {
      content: `Five foxes <in> snow #Foxes #winter with @${friend.user.username}`,
      mediaIds: pictures.map((picture) => picture._id),
      contentWarning: 'nudity',
      licence: 'cc-by',
    });
    const { total, items } = await outbox(artist);
    expect(total).toBe(1);
    const create = items[0] as { type: string; id: string; actor: string; object: NoteJson };
    expect(create.type).toBe('Create');
    expect(create.id).toBe(`${ORIGIN}/ap/posts/${id}#create`);
    expect(create.actor).toBe(actorId(artist));
    const note = create.object;
    expect(note).toMatchObject({
      id: `${ORIGIN}/ap/posts/${id}`,
      type: 'Note',
      attributedTo: actorId(artist),
      url: `${ORIGIN}/posts/${id}`,
    });
    // SP visibility and PH normalizeAudience: to an array holding the public IRI itself; cc the followers.
    expect(note.to).toEqual([PUBLIC]);
    expect(note.cc).toEqual([`${actorId(artist)}/followers`]);
    // SP spoiler_text / sensitive: the warning is the summary, and sensitive is true (Pixelfed keeps the
    // warning only then, issue 39).
    expect(note.summary).toBe('nudity');
    expect(note.sensitive).toBe(true);
    // PH verifyAttachments: an array of Image or Document, a url, a mediaType Pixelfed takes, width and height
    // at most 5,000; MAP: the alt text is `name`.
    expect(note.attachment).toHaveLength(5);
    note.attachment.forEach((attachment: Record<string, unknown>, index: number) => {
      expect(attachment).toMatchObject({ type: 'Image', mediaType: 'image/jpeg', name: `Fox study ${index + 1}` });
      expect(attachment.url).toMatch(new RegExp(`^${ORIGIN}/media/[^/]+-2048\\.jpg$`));
      expect(attachment.url).not.toMatch(/\.(avif|webp)$|original/);
      expect([attachment.width, attachment.height]).toEqual([2048, 1365]);
    });
    // Mastodon shows 4: the fifth is named, with the work's link.
    expect(note.content).toContain(`<p><a href="${ORIGIN}/posts/${id}">+1 more on Share Arts</a></p>`);
    expect(note.content).toContain('Five foxes &lt;in&gt; snow');
    expect(note.content).toContain(
      '<a href="https://share.example/tags/foxes" class="mention hashtag" rel="tag">#<span>Foxes</span></a>',
    );
    expect(note.content).toContain(`<a href="${ORIGIN}/${friend.user.username}" class="u-url mention">`);
    expect(note.content).toContain(
      '<a href="https://creativecommons.org/licenses/by/4.0/" rel="license">CC BY 4.0</a>',
    );
    // Issue 39: `tag` always an array, of Hashtag and Mention.
    expect(note.tag).toEqual([
      { type: 'Hashtag', href: `${ORIGIN}/tags/foxes`, name: '#foxes' },
      { type: 'Hashtag', href: `${ORIGIN}/tags/winter`, name: '#winter' },
      { type: 'Mention', href: actorId(friend), name: `@${friend.user.username}@${HOST}` },
    ]);
    expect(Date.parse(note.published)).not.toBeNaN();

    // The same Note at its own id, and at the work's page to an ActivityPub client.
    const alone = await getJson(`/ap/posts/${id}`);
    expect(alone.id).toBe(note.id);
    expect(alone.attachment).toEqual(note.attachment);
    expect((await getJson(`/posts/${id}`)).id).toBe(note.id);
    // Five pictures of 2,400 px, each made into its variants: slow on a loaded host.
  }, 60_000);

  it('a single picture and a single tag are still arrays', async () => {
    const artist = await signUp(ctx.app);
    const picture = await uploadPicture(ctx.app, artist, 'One fox');
    const id = await createPost(ctx.app, artist, 'Alone #fox', [picture._id]);
    const note = await getJson(`/ap/posts/${id}`);
    expect(note.attachment).toHaveLength(1);
    expect(note.tag).toHaveLength(1);
    expect(note.sensitive).toBe(false);
    expect(note.content).not.toContain('more on Share Arts');
  });

  it('send pixel art as its lossless PNG and an animation as its animated GIF, older pictures as their JPEG', async () => {
    const artist = await signUp(ctx.app);
    /** A media fixture uploaded as a post picture: its id. */
    const upload = async (name: string, alt: string) => {
      const data = await readFile(path.join(import.meta.dirname, '../media/fixtures', name));
      const { payload, contentType } = multipart([
        { name: 'alt', data: alt },
        { name: 'file', data, filename: name, contentType: 'image/png' },
      ]);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/media',
        payload,
        headers: { ...auth(artist), 'content-type': contentType },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().media._id as string;
    };
    const sprite = await upload('pixel-art.png', 'A sprite');
    const loop = await upload('animated.webp', 'A loop');
    // A picture uploaded before the renditions for other servers were written (issue 39): it has none.
    const older = await upload('pixel-art.png', 'An older sprite');
    await ctx.database.db.execute(
      sql`update media set variants = (select jsonb_agg(v) from jsonb_array_elements(variants) v
          where v->>'format' not in ('png', 'gif')) where id = ${older}::uuid`,
    );
    const id = await createPost(ctx.app, artist, 'Sprites', [sprite, loop, older]);
    const note = await getJson(`/ap/posts/${id}`);
    // PH verifyAttachments: image/png and image/gif are among the types Pixelfed takes (never AVIF or WebP); MAP:
    // the width and height are the file's own.
    expect(note.attachment).toEqual([
      {
        type: 'Image',
        mediaType: 'image/png',
        url: `${ORIGIN}/media/${sprite}-1072.png`,
        name: 'A sprite',
        width: 1072,
        height: 804,
      },
      {
        type: 'Image',
        mediaType: 'image/gif',
        url: `${ORIGIN}/media/${loop}-480-animated.gif`,
        name: 'A loop',
        width: 480,
        height: 320,
      },
      {
        type: 'Image',
        mediaType: 'image/jpeg',
        url: `${ORIGIN}/media/${older}-1072.jpg`,
        name: 'An older sprite',
        width: 1072,
        height: 804,
      },
    ]);
    // What the URLs name is what the type says.
    for (const [attachment, format] of [
      [note.attachment[0], 'png'],
      [note.attachment[1], 'gif'],
    ] as const) {
      const file = await ctx.app.inject({ method: 'GET', url: new URL(attachment.url).pathname });
      expect(file.headers['content-type']).toBe(attachment.mediaType);
      expect((await sharp(file.rawPayload).metadata()).format).toBe(format);
    }
  }, 60_000);

  it('pages the outbox newest first with the posts keyset cursors', async () => {
    const artist = await signUp(ctx.app);
    const ids: string[] = [];
    for (let i = 0; i < 23; i += 1) ids.push(await createPost(ctx.app, artist, `Sketch ${i}`));
    const collection = await getJson(`/ap/users/${artist.user._id}/outbox`);
    expect(collection.totalItems).toBe(23);
    const first = await getJson(new URL(collection.first).pathname + new URL(collection.first).search);
    expect(first.orderedItems).toHaveLength(20);
    const second = await getJson(new URL(first.next).pathname + new URL(first.next).search);
    const seen = [...first.orderedItems, ...second.orderedItems].map(
      (item: { object: { id: string } }) => item.object.id,
    );
    expect(seen).toEqual([...ids].reverse().map((id) => `${ORIGIN}/ap/posts/${id}`));
    expect(second.next).toBeUndefined();
  });

  it('leaves out removed and hidden works, and every work of an artist who shows them to signed-in people only', async () => {
    const artist = await signUp(ctx.app);
    const kept = await createPost(ctx.app, artist, 'Kept');
    const removed = await createPost(ctx.app, artist, 'Removed');
    const hidden = await createPost(ctx.app, artist, 'Hidden');
    await ctx.database.db.execute(sql`update posts set moderation_state = 'removed' where id = ${removed}::uuid`);
    await ctx.database.db.execute(sql`update posts set moderation_state = 'hidden' where id = ${hidden}::uuid`);
    const { total, items } = await outbox(artist);
    expect(total).toBe(1);
    expect(items.map((item) => (item.object as { id: string }).id)).toEqual([`${ORIGIN}/ap/posts/${kept}`]);
    expect((await get(`/ap/posts/${removed}`)).statusCode).toBe(404);
    expect((await get(`/ap/posts/${hidden}`)).statusCode).toBe(404);

    const private_ = await signUp(ctx.app);
    const work = await createPost(ctx.app, private_, 'For signed-in eyes');
    const pin = await ctx.app.inject({ method: 'POST', url: `/api/posts/${work}/pin`, headers: auth(private_) });
    expect(pin.statusCode, pin.body).toBeLessThan(300);
    await edit(private_, { worksSignedInOnly: true });
    const actor = await getJson(`/ap/users/${private_.user._id}`);
    expect(actor.discoverable).toBe(false);
    expect(actor.indexable).toBe(false);
    const theirs = await outbox(private_);
    expect(theirs).toEqual({ total: 0, items: [] });
    expect((await getJson(`/ap/users/${private_.user._id}/featured`)).orderedItems ?? []).toEqual([]);
    expect((await get(`/ap/posts/${work}`)).statusCode).toBe(404);
    // Not JSON to anyone: the work's page answers as before.
    expect((await get(`/posts/${work}`)).headers['content-type']).not.toMatch(/activity\+json/);
  });
});

describe('collections', () => {
  it('featured lists the pinned works in their order; followers and following list local actors', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const first = await createPost(ctx.app, artist, 'First');
    const second = await createPost(ctx.app, artist, 'Second');
    for (const id of [second, first]) {
      const pin = await ctx.app.inject({ method: 'POST', url: `/api/posts/${id}/pin`, headers: auth(artist) });
      expect(pin.statusCode, pin.body).toBeLessThan(300);
    }
    const featured = await getJson(`/ap/users/${artist.user._id}/featured`);
    expect(featured.orderedItems.map((note: { id: string }) => note.id)).toEqual([
      `${ORIGIN}/ap/posts/${second}`,
      `${ORIGIN}/ap/posts/${first}`,
    ]);

    const follow = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/follow/${artist.user._id}`,
      headers: auth(fan),
    });
    expect(follow.statusCode, follow.body).toBeLessThan(300);
    const followers = await getJson(`/ap/users/${artist.user._id}/followers`);
    expect(followers.totalItems).toBe(1);
    const page = await getJson(new URL(followers.first).pathname + new URL(followers.first).search);
    expect(page.orderedItems).toEqual([actorId(fan)]);
    const following = await getJson(`/ap/users/${fan.user._id}/following`);
    expect(following.totalItems).toBe(1);
    const followingPage = await getJson(new URL(following.first).pathname + new URL(following.first).search);
    expect(followingPage.orderedItems).toEqual([actorId(artist)]);
  });
});

describe("Fedify's key-value store on the database", () => {
  it('gets, sets, lists by prefix, deletes, and forgets an entry past its ttl', async () => {
    const kv = createDatabaseKvStore(ctx.database.db);
    await kv.set(['_fedify', 'a', 'one'], { n: 1 });
    await kv.set(['_fedify', 'a', 'two'], [2]);
    await kv.set(['_fedify', 'ab'], 'not under a');
    await kv.set(['_fedify', 'short'], true, { ttl: Temporal.Duration.from({ milliseconds: 1 }) });
    expect(await kv.get(['_fedify', 'a', 'one'])).toEqual({ n: 1 });
    expect(await kv.get(['_fedify', 'missing'])).toBeUndefined();
    const listed = [];
    for await (const entry of kv.list(['_fedify', 'a'])) listed.push(entry);
    expect(listed).toEqual([
      { key: ['_fedify', 'a', 'one'], value: { n: 1 } },
      { key: ['_fedify', 'a', 'two'], value: [2] },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await kv.get(['_fedify', 'short'])).toBeUndefined();
    await kv.sweepExpired();
    await kv.set(['_fedify', 'a', 'one'], { n: 3 });
    expect(await kv.get(['_fedify', 'a', 'one'])).toEqual({ n: 3 });
    await kv.delete(['_fedify', 'a', 'one']);
    expect(await kv.get(['_fedify', 'a', 'one'])).toBeUndefined();
  });
});
