import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import { createRestAPIClient, type mastodon } from 'masto';
import { createTestApp, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * The Mastodon API driven by masto.js (a client nobody here wrote) on a listening server: an artist posts a work
 * of 4 pictures with alt texts (v2 media), a follower reads Home, likes, comments (in_reply_to_id), and reads the
 * context. Signed in with the web app's token (Bearer), which counts as every scope; the OAuth flow itself is the
 * oauth module's tests'.
 */
let ctx: TestContext;
let url: string;
let artist: SignedUp;
let reader: SignedUp;
let artistClient: mastodon.rest.Client;
let readerClient: mastodon.rest.Client;

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`;
  artist = await signUp(ctx.app, { fullname: 'Mira Ko' });
  reader = await signUp(ctx.app, { fullname: 'Tom Reed' });
  artistClient = createRestAPIClient({ url, accessToken: artist.token });
  readerClient = createRestAPIClient({ url, accessToken: reader.token });
});
afterAll(() => ctx.close());

const picture = (r: number) =>
  sharp({ create: { width: 1200, height: 900, channels: 3, background: { r, g: 80, b: 120 } } })
    .jpeg()
    .toBuffer();

it('masto.js: post a work of 4 pictures, follow, read Home, like, comment and read the context', async () => {
  const me = await artistClient.v1.accounts.verifyCredentials();
  expect(me.id).toBe(artist.user._id);
  expect(me.acct).toBe(artist.user.username);

  // Four pictures through v2 media, each with its alt text.
  const attachments: mastodon.v1.MediaAttachment[] = [];
  for (let i = 0; i < 4; i += 1) {
    const file = new Blob([new Uint8Array(await picture(40 * i))], { type: 'image/jpeg' });
    attachments.push(await artistClient.v2.media.create({ file, description: `study ${i + 1}`, focus: '0,0' }));
  }
  expect(attachments.map((attachment) => attachment.description)).toEqual(['study 1', 'study 2', 'study 3', 'study 4']);
  expect(attachments.every((attachment) => attachment.url?.startsWith(url))).toBe(true);

  const work = await artistClient.v1.statuses.create({
    status: 'Four studies of the #harbour',
    mediaIds: attachments.map((attachment) => attachment.id),
    spoilerText: '',
    visibility: 'public',
    language: 'en',
  });
  expect(work.mediaAttachments.map((attachment) => attachment.description)).toEqual([
    'study 1',
    'study 2',
    'study 3',
    'study 4',
  ]);
  expect(work.tags.map((tag) => tag.name)).toEqual(['harbour']);

  // The reader follows the artist and finds the work on Home.
  const relationship = await readerClient.v1.accounts.$select(artist.user._id).follow();
  expect(relationship.following).toBe(true);
  const home = await readerClient.v1.timelines.home.list({ limit: 20 });
  expect(home.map((status) => status.id)).toContain(work.id);
  const shown = home.find((status) => status.id === work.id)!;
  expect(shown.account.id).toBe(artist.user._id);
  expect(shown.mediaAttachments).toHaveLength(4);

  // Like it, then comment on it.
  const liked = await readerClient.v1.statuses.$select(work.id).favourite();
  expect(liked.favourited).toBe(true);
  expect(liked.favouritesCount).toBe(1);
  const comment = await readerClient.v1.statuses.create({
    status: 'The light in the third one!',
    inReplyToId: work.id,
  });
  expect(comment.inReplyToId).toBe(work.id);
  expect(comment.inReplyToAccountId).toBe(artist.user._id);

  // The context holds the comment as a descendant.
  const context = await readerClient.v1.statuses.$select(work.id).context.fetch();
  expect(context.ancestors).toEqual([]);
  expect(context.descendants.map((status) => status.id)).toEqual([comment.id]);

  // The work as the artist's followers see it again: one like, one reply.
  const again = await readerClient.v1.statuses.$select(work.id).fetch();
  expect(again.favouritesCount).toBe(1);
  expect(again.repliesCount).toBe(1);

  // masto.js pages by the Link header: the artist's works, one per page.
  for (let i = 0; i < 2; i += 1) await artistClient.v1.statuses.create({ status: `sketch ${i}` });
  const seen: string[] = [];
  for await (const page of readerClient.v1.accounts.$select(artist.user._id).statuses.list({ limit: 1 })) {
    seen.push(...page.map((status) => status.id));
    if (seen.length > 10) break;
  }
  expect(seen).toHaveLength(3);
  expect(new Set(seen).size).toBe(3);
  expect(seen.at(-1)).toBe(work.id);
}, 180_000);

it('masto.js: a refused request is an error carrying Mastodon’s message', async () => {
  await expect(artistClient.v1.statuses.$select('00000000-0000-4000-8000-000000000000').fetch()).rejects.toMatchObject({
    message: 'Record not found',
  });
  await expect(artistClient.v1.statuses.create({ status: 'secret', visibility: 'direct' })).rejects.toMatchObject({
    message: expect.stringMatching(/^Validation failed: /),
  });
});
