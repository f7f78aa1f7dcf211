import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import megalodon, { type Entity, type WebSocketInterface } from 'megalodon';
import { createTestApp, eventually, signUp, type TestContext } from '../../test/helpers.js';

/**
 * megalodon (the registry's `megalodon`, the library behind the Whalebird desktop app, nobody here wrote it) on a
 * real listening server, through its own Mastodon code paths: it reads the instance, streams the person's Home,
 * posts (masto-core's statuses route), favourites, reads notifications and searches. The web login token is the
 * Bearer token (it counts as every scope).
 */
// megalodon is CommonJS with an `exports.default`: its types name the function `default`; bundled as ESM (vitest
// reads its `module` build) the default import is the function itself.
type Generator = typeof megalodon.default;
const loaded = megalodon as unknown as Generator | { default: Generator };
const generator: Generator = typeof loaded === 'function' ? loaded : loaded.default;

let ctx: TestContext;
let url: string;
beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());

describe('megalodon uses Share Arts as a Mastodon server', () => {
  it('reads the instance, streams an update, posts, favourites, reads notifications and searches', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const followed = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/follow/${artist.user._id}`,
      headers: { authorization: `Bearer ${fan.token}` },
    });
    expect(followed.statusCode).toBeLessThan(300);
    const artistClient = generator('mastodon', url, artist.token);
    const fanClient = generator('mastodon', url, fan.token);

    const instance = (await fanClient.getInstance()).data;
    expect(instance.title).toBe('Share Arts');
    expect(instance.version).toMatch(/^4\.3\.0 \(compatible; Share Arts/);
    expect(instance.configuration.statuses.max_characters).toBe(2000);

    // The fan's Home, streamed (megalodon asks the instance for streaming_api, then opens /api/v1/streaming).
    const stream: WebSocketInterface = await fanClient.userStreaming();
    const updates: Entity.Status[] = [];
    stream.on('update', (status: Entity.Status) => updates.push(status));
    await new Promise((resolve) => stream.on('connect', resolve));

    const posted = (await artistClient.postStatus('Night herons over the marsh #megaherons')).data;
    const status = 'id' in posted && 'content' in posted ? posted : undefined;
    expect(status?.content).toContain('Night herons');
    await eventually(async () => {
      expect(updates.map((update) => update.id)).toContain(status!.id);
    }, 5000);
    stream.stop();

    const favourited = (await fanClient.favouriteStatus(status!.id)).data;
    expect(favourited.favourited).toBe(true);
    const notifications = (await artistClient.getNotifications()).data;
    expect(notifications.map((notification) => notification.type)).toEqual(['favourite', 'follow']);
    expect(notifications[0]?.status?.id).toBe(status!.id);
    expect(notifications[1]?.account?.id).toBe(fan.user._id);

    const found = (await fanClient.search('megaherons', { type: 'hashtags' })).data;
    expect(found.hashtags.map((tag) => tag.name)).toEqual(['megaherons']);
    const people = (await fanClient.search(artist.user.username, { type: 'accounts' })).data;
    expect(people.accounts[0]?.id).toBe(artist.user._id);
    const works = (await fanClient.search('night herons', { type: 'statuses' })).data;
    expect(works.statuses.map((work) => work.id)).toContain(status!.id);
  });
});
