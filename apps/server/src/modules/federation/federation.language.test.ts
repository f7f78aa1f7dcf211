import { Temporal } from '@js-temporal/polyfill';
import { Create, Document, LanguageString, Note, PUBLIC_COLLECTION, Update } from '@fedify/vocab';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { signUp, uploadPicture, type SignedUp, type TestContext } from '../../test/helpers.js';
import { eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';
import { noteLanguage } from './federation.remote-works.js';

/**
 * A post's language across servers (issue 43). Out: a work whose artist said its language is a Note with that
 * language as `contentMap`'s one key beside `content` (Mastodon's app/lib/activitypub/parser/status_parser.rb takes a
 * status's language from `contentMap`'s first key; Pixelfed reads it too); a work without one has `content` alone.
 * In: a followed person's Note keeps the language of its `contentMap` (its one key, or of several the one whose words
 * are its `content`), canonical; else none. The app on a loopback port, the fake remote server on another.
 */

let ctx: TestContext;
let origin: string;
let remote: Remote;
let closeApp: (() => Promise<void>) | undefined;
let alice: SignedUp;

beforeAll(async () => {
  ({ ctx, origin, remote, close: closeApp } = await startFederatedApp());
  alice = await signUp(ctx.app);
}, 90_000);
afterAll(() => closeApp?.());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const AP = 'application/activity+json';

async function noteOf(postId: string) {
  const response = await ctx.app.inject({ method: 'GET', url: `/ap/posts/${postId}`, headers: { accept: AP } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { content: string; contentMap?: Record<string, string> };
}

describe('a work sent out', () => {
  it("carries its language as contentMap beside content, and none when its artist said none; an edit's change too", async () => {
    const artist = await signUp(ctx.app);
    const picture = await uploadPicture(ctx.app, artist, 'A harbour at dusk');
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: '夕暮れの港 #harbour', mediaIds: [picture._id], language: 'ja' },
      headers: { ...auth(artist), prefer: 'return=minimal' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json().post._id as string;
    const note = await noteOf(postId);
    expect(note.content).toContain('夕暮れの港');
    // One language, the same words as content.
    expect(note.contentMap).toEqual({ ja: note.content });

    const changed = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/edit/${postId}`,
      payload: { postData: { language: 'pt-br' } },
      headers: auth(artist),
    });
    expect(changed.statusCode, changed.body).toBe(201);
    // JSON-LD writes a language tag in lower case; tags are case-insensitive (BCP 47): Mastodon's parser matches
    // them by their lower case (NORMALIZED_LOCALE_NAMES), ours canonicalises them (noteLanguage).
    expect((await noteOf(postId)).contentMap).toEqual({ 'pt-br': note.content });

    const cleared = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/edit/${postId}`,
      payload: { postData: { language: null } },
      headers: auth(artist),
    });
    expect(cleared.statusCode, cleared.body).toBe(201);
    const plain = await noteOf(postId);
    expect(plain.content).toBe(note.content);
    expect(plain).not.toHaveProperty('contentMap');
  });
});

describe("a followed person's work taken in", () => {
  let statuses = 0;

  /** A public Note with one picture as Mastodon writes a status, its words given as `contents`, served at its id. */
  async function workNote(contents: (string | LanguageString)[]): Promise<Note> {
    statuses += 1;
    const body = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 90, b: 40 } } })
      .png()
      .toBuffer();
    remote.files.set(`/files/language-${statuses}.png`, { type: 'image/png', body });
    const id = new URL(`/users/bob/statuses/language-${statuses}`, remote.origin);
    const note = new Note({
      id,
      attribution: new URL(remote.actor('bob')),
      url: new URL(`/@bob/language-${statuses}`, remote.origin),
      tos: [PUBLIC_COLLECTION],
      ccs: [new URL('/users/bob/followers', remote.origin)],
      contents,
      published: Temporal.Instant.from('2026-11-02T10:00:00Z'),
      attachments: [
        new Document({
          mediaType: 'image/png',
          url: new URL(`/files/language-${statuses}.png`, remote.origin),
          name: 'A study',
        }),
      ],
    });
    await remote.serve(id.pathname, note);
    return note;
  }

  async function send(activity: Create | Update) {
    const response = await remote.deliver(`${origin}/ap/inbox`, activity, 'bob');
    expect(response.status).toBe(202);
  }

  const storedLanguage = (note: Note) =>
    eventually(async () => {
      const [row] = await queryRows<{ language: string | null }>(
        ctx.database.db,
        sql`select language from posts where note_iri = ${note.id!.href}`,
      );
      return row && { language: row.language };
    }, 'the remote work');

  beforeAll(async () => {
    // Alice finds Bob (his shadow account) and follows him, as her accepted follow would.
    const found = await ctx.app.inject({
      method: 'GET',
      url: `/api/federation/lookup?q=${encodeURIComponent(`bob@${new URL(remote.origin).host}`)}`,
      headers: auth(alice),
    });
    expect(found.statusCode, found.body).toBe(200);
    await queryRows(
      ctx.database.db,
      sql`insert into follows (follower_id, followee_id, pending)
          select ${alice.user._id}::uuid, u.id, false from users u join remote_actors ra on ra.id = u.remote_actor_id
          where ra.iri = ${remote.actor('bob')} on conflict do nothing`,
    );
  });

  it("keeps the language of its contentMap, canonical, and changes it with the Note's Update", async () => {
    const html = '<p>Estudo de luz</p>';
    const note = await workNote([html, new LanguageString(html, 'pt-br')]);
    await send(new Create({ id: new URL(`${note.id!.href}/activity`), actor: note.attributionId, object: note }));
    expect((await storedLanguage(note)).language).toBe('pt-BR');

    // Its Update says another language: the work follows it.
    const changed = note.clone({ contents: [html, new LanguageString(html, 'es')] });
    await send(new Update({ id: new URL(`${note.id!.href}#u1`), actor: note.attributionId, object: changed }));
    await eventually(async () => {
      const [row] = await queryRows<{ language: string | null }>(
        ctx.database.db,
        sql`select language from posts where note_iri = ${note.id!.href}`,
      );
      return row?.language === 'es';
    }, 'the update');
  });

  it('keeps none when its Note says none', async () => {
    const note = await workNote(['<p>No language said</p>']);
    await send(new Create({ id: new URL(`${note.id!.href}/activity`), actor: note.attributionId, object: note }));
    expect((await storedLanguage(note)).language).toBeNull();
  });
});

describe("a Note's language (noteLanguage)", () => {
  const html = '<p>Words</p>';
  const note = (contents: (string | LanguageString)[]) => new Note({ contents });

  it("is contentMap's one language, canonical (Mastodon's first key)", () => {
    expect(noteLanguage(note([html, new LanguageString(html, 'ja')]))).toBe('ja');
    expect(noteLanguage(note([new LanguageString(html, 'zh-hant-tw')]))).toBe('zh-Hant-TW');
    // Mastodon's `und` (undetermined) is no language.
    expect(noteLanguage(note([html, new LanguageString(html, 'und')]))).toBeNull();
  });

  it('is, of several, the one whose words are content; none when none or several match', () => {
    const other = '<p>Palabras</p>';
    expect(noteLanguage(note([html, new LanguageString(other, 'es'), new LanguageString(html, 'en')]))).toBe('en');
    expect(noteLanguage(note([html, new LanguageString(other, 'es'), new LanguageString(other, 'pt')]))).toBeNull();
    expect(noteLanguage(note([html, new LanguageString(html, 'es'), new LanguageString(html, 'pt')]))).toBeNull();
    expect(noteLanguage(note([html]))).toBeNull();
  });
});
