import { Follow } from '@fedify/vocab';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { createPost, multipart, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { AP, eventually, startFederatedApp, type Received, type Remote } from '../../test/fake-remote.js';

/**
 * An imported work (issue 40) is history, not news: between the app on a loopback port and the fake remote server
 * following its artist, a work posted here reaches the follower as a Create, and a work imported just before it
 * never does, while the artist's outbox lists both.
 */

let ctx: TestContext;
let origin: string;
let remote: Remote;
let closeApp: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ ctx, origin, remote, close: closeApp } = await startFederatedApp());
}, 90_000);
afterAll(() => closeApp?.());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const actorOf = (who: SignedUp) => `${origin}/ap/users/${who.user._id}`;
const objectId = (item: Received) =>
  typeof item.json.object === 'string' ? item.json.object : String(item.json.object.id);

async function followFrom(who: SignedUp) {
  const follow = new Follow({
    id: new URL('/follows/imports-1', remote.origin),
    actor: new URL(remote.actor('bob')),
    object: new URL(actorOf(who)),
  });
  const response = await remote.deliver(`${actorOf(who)}/inbox`, follow, 'bob');
  expect(response.status, await response.text()).toBe(202);
  await eventually(async () => remote.received.find((item) => item.json.type === 'Accept'), 'the Accept');
}

async function importOne(who: SignedUp): Promise<string> {
  const zip = new ZipFile();
  const posts = [{ media: [{ uri: 'media/a.jpg', creation_timestamp: 1600000000, title: 'An old harbour' }] }];
  zip.addBuffer(Buffer.from(JSON.stringify(posts)), 'your_instagram_activity/media/posts_1.json');
  zip.addBuffer(
    await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .jpeg()
      .toBuffer(),
    'media/a.jpg',
  );
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const { payload, contentType } = multipart([{ name: 'file', data: Buffer.concat(chunks), filename: 'ig.zip' }]);
  const uploaded = await ctx.app.inject({
    method: 'POST',
    url: '/api/imports',
    payload,
    headers: { ...auth(who), 'content-type': contentType },
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const id = uploaded.json().import._id;
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/imports/${id}/start`,
    headers: auth(who),
    payload: {},
  });
  expect(started.statusCode, started.body).toBe(202);
  const done = await eventually(async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/imports/${id}/items`, headers: auth(who) });
    return response.json().items[0]?.postId as string | undefined;
  }, 'the imported work');
  return done;
}

describe('an imported work and the fediverse', () => {
  it('is in the outbox as history, and never sent as a Create', async () => {
    const artist = await signUp(ctx.app);
    await followFrom(artist);
    const imported = await importOne(artist);
    const posted = await createPost(ctx.app, artist, 'Made today');
    // The work posted after the import arrives; the bus handles events in order, so the import's would have first.
    await eventually(
      async () =>
        remote.received.find(
          (item) => item.json.type === 'Create' && objectId(item) === `${origin}/ap/posts/${posted}`,
        ),
      'the Create of the new work',
    );
    expect(remote.received.filter((item) => objectId(item) === `${origin}/ap/posts/${imported}`)).toEqual([]);

    const outbox = (await fetch(`${actorOf(artist)}/outbox`, { headers: { accept: AP } }).then((r) => r.json())) as {
      first: string;
      totalItems: number;
    };
    const first = new URL(outbox.first);
    const page = (await fetch(first, { headers: { accept: AP } }).then((r) => r.json())) as {
      orderedItems: { object: { id: string } }[];
    };
    expect(outbox.totalItems).toBe(2);
    expect(page.orderedItems.map((item) => item.object.id)).toEqual([
      `${origin}/ap/posts/${posted}`,
      `${origin}/ap/posts/${imported}`,
    ]);
  }, 120_000);
});
