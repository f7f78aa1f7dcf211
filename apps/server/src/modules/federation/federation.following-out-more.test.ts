import { Temporal } from '@js-temporal/polyfill';
import {
  Accept,
  Create,
  Document,
  Follow,
  Image,
  Mention,
  Note,
  PUBLIC_COLLECTION,
  Reject,
  type Activity,
} from '@fedify/vocab';
import type { LiveServerFrame } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { liveSocket, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';

/**
 * Following out, what else arrives (issue 39): their server's answer to a follow told live to the follower's browser
 * (the `follow` frame), a reply from a third server in the thread of a followed person's work taken as its comment
 * when it concerns someone here, and older Pixelfed's posts typed `Image` taken as works. Between the app on a
 * loopback port and the fake remote server (whose actors sign what they send, and which serves Notes and pictures).
 */

let ctx: TestContext;
let origin: string;
let remote: Remote;
let closeApp: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ ctx, origin, remote, close: closeApp } = await startFederatedApp());
}, 90_000);
afterAll(() => closeApp?.());

const db = () => ctx.database.db;
const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const host = () => new URL(remote.origin).host;
const actorOf = (who: SignedUp) => `${origin}/ap/users/${who.user._id}`;
let activities = 0;
const nextId = (kind: string) => new URL(`/${kind}/more-${(activities += 1)}`, remote.origin);

async function deliver(activity: Activity, as = 'bob') {
  const response = await remote.deliver(`${origin}/ap/inbox`, activity, as);
  expect(response.status, await response.text()).toBe(202);
}

async function drained() {
  await eventually(async () => {
    const counts = await ctx.app.jobs.counts();
    return counts
      .filter((count) => ['federation.inbox', 'federation.remote-work'].includes(count.kind))
      .every((count) => count.queued + count.running === 0);
  }, 'the inbox jobs to be done');
}

/** The remote person `as`'s shadow account here (looked up by `who`). */
async function shadowOf(who: SignedUp, as: string): Promise<string> {
  const found = await ctx.app.inject({
    method: 'GET',
    url: `/api/federation/lookup?q=${encodeURIComponent(`${as}@${host()}`)}`,
    headers: auth(who),
  });
  expect(found.statusCode, found.body).toBe(200);
  const [shadow] = await queryRows<{ id: string }>(
    db(),
    sql`select u.id from users u join remote_actors ra on ra.id = u.remote_actor_id where ra.iri = ${remote.actor(as)}`,
  );
  return shadow!.id;
}

/** `who` follows `as` through the API; answers the shadow account and the Follow's id. */
async function follow(who: SignedUp, as: string): Promise<{ shadowId: string; followId: string }> {
  const shadowId = await shadowOf(who, as);
  const followed = await ctx.app.inject({ method: 'POST', url: `/api/users/follow/${shadowId}`, headers: auth(who) });
  expect(followed.statusCode, followed.body).toBe(200);
  const [row] = await queryRows<{ activity_id: string }>(
    db(),
    sql`select activity_id from follows where follower_id = ${who.user._id}::uuid and followee_id = ${shadowId}::uuid`,
  );
  return { shadowId, followId: row!.activity_id };
}

const followOf = (who: SignedUp, as: string, followId: string) =>
  new Follow({ id: new URL(followId), actor: new URL(actorOf(who)), object: new URL(remote.actor(as)) });

async function accepted(who: SignedUp, as: string): Promise<string> {
  const { shadowId, followId } = await follow(who, as);
  await deliver(
    new Accept({ id: nextId('accepts'), actor: new URL(remote.actor(as)), object: followOf(who, as, followId) }),
    as,
  );
  await eventually(async () => {
    const [row] = await queryRows<{ pending: boolean }>(
      db(),
      sql`select pending from follows where follower_id = ${who.user._id}::uuid and followee_id = ${shadowId}::uuid`,
    );
    return row?.pending === false;
  }, 'the follow accepted');
  return shadowId;
}

async function picture(name: string): Promise<string> {
  const body = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 60, b: 90 } } })
    .png()
    .toBuffer();
  remote.files.set(`/files/${name}.png`, { type: 'image/png', body });
  return `${remote.origin}/files/${name}.png`;
}

const storedWork = async (noteIri: string) =>
  (await queryRows<{ id: string }>(db(), sql`select id from posts where note_iri = ${noteIri}`))[0]?.id;

describe("their server's answer, told live", { timeout: 120_000 }, () => {
  it('sends the follower a `follow` frame when the follow is accepted, and when it is refused', async () => {
    const fan = await signUp(ctx.app);
    const live = await liveSocket(ctx.app, fan.token);
    try {
      const bob = await follow(fan, 'bob');
      await deliver(
        new Accept({
          id: nextId('accepts'),
          actor: new URL(remote.actor('bob')),
          object: followOf(fan, 'bob', bob.followId),
        }),
      );
      const frame = await eventually(
        async () => live.frames.find((item: LiveServerFrame) => item.type === 'follow'),
        'the follow frame',
      );
      expect(frame).toEqual({ type: 'follow', userId: bob.shadowId, accepted: true });

      const carol = await follow(fan, 'carol');
      await deliver(
        new Reject({
          id: nextId('rejects'),
          actor: new URL(remote.actor('carol')),
          object: followOf(fan, 'carol', carol.followId),
        }),
        'carol',
      );
      await eventually(async () => live.frames.filter((item) => item.type === 'follow').length === 2, 'the second');
      expect(live.frames.filter((item) => item.type === 'follow')[1]).toEqual({
        type: 'follow',
        userId: carol.shadowId,
        accepted: false,
      });
      // The profile says so too: following bob (no longer requested), not carol.
      const seen = await ctx.app.inject({ method: 'GET', url: `/api/users/${bob.shadowId}`, headers: auth(fan) });
      expect(seen.json().user.viewer).toMatchObject({ follows: true });
      expect(seen.json().user.viewer.requested).toBeUndefined();
    } finally {
      live.socket.close();
    }
  });
});

describe("a reply from a third server in a followed person's thread", { timeout: 120_000 }, () => {
  it('is a comment when its actor is followed here or it mentions someone here; else nothing', async () => {
    const fan = await signUp(ctx.app);
    await accepted(fan, 'bob');
    const workId = nextId('users/bob/statuses');
    const work = new Note({
      id: workId,
      attribution: new URL(remote.actor('bob')),
      url: workId,
      tos: [PUBLIC_COLLECTION],
      content: '<p>A heron</p>',
      published: Temporal.Now.instant(),
      attachments: [new Document({ mediaType: 'image/png', url: new URL(await picture('thread')), name: 'Heron' })],
    });
    await remote.serve(workId.pathname, work);
    await deliver(
      new Create({
        id: nextId('creates'),
        actor: new URL(remote.actor('bob')),
        object: work,
        tos: [PUBLIC_COLLECTION],
      }),
    );
    const postId = await eventually(() => storedWork(workId.href), 'the followed work');

    const reply = (as: string, text: string, mention?: SignedUp) => {
      const id = nextId(`users/${as}/statuses`);
      return new Create({
        id: nextId('creates'),
        actor: new URL(remote.actor(as)),
        tos: [PUBLIC_COLLECTION],
        object: new Note({
          id,
          attribution: new URL(remote.actor(as)),
          replyTarget: workId,
          tos: [PUBLIC_COLLECTION],
          ccs: mention ? [new URL(actorOf(mention))] : [],
          content: `<p>${text}</p>`,
          tags: mention ? [new Mention({ href: new URL(actorOf(mention)), name: `@${mention.user.username}` })] : [],
          published: Temporal.Now.instant(),
        }),
      });
    };
    // carol (nobody here follows her) mentioning the fan: taken; dave (not followed, naming nobody here): not taken;
    // bob himself answering in his thread (followed): taken.
    await deliver(reply('carol', 'Lovely, have you seen it?', fan), 'carol');
    await deliver(reply('dave', 'Nobody here asked for this'), 'dave');
    await deliver(reply('bob', 'Thank you!'));
    await drained();
    const comments = await queryRows<{ iri: string; content: string }>(
      db(),
      sql`select ra.iri, c.content from comments c join remote_actors ra on ra.id = c.remote_actor_id
          where c.post_id = ${postId}::uuid order by c.created_at`,
    );
    expect(comments.map((c) => c.iri).sort()).toEqual([remote.actor('bob'), remote.actor('carol')].sort());
    const [counted] = await queryRows<{ comment_count: number }>(
      db(),
      sql`select comment_count from posts where id = ${postId}::uuid`,
    );
    expect(counted!.comment_count).toBe(2);
    // Shown under the work to its followers here.
    const page = await ctx.app.inject({ method: 'GET', url: `/api/comments/${postId}?limit=50`, headers: auth(fan) });
    expect(page.statusCode, page.body).toBe(200);
    expect(JSON.stringify(page.json())).toContain('Thank you!');
  });
});

describe("older Pixelfed's posts typed Image", { timeout: 120_000 }, () => {
  it('are taken as works: from a followed person’s Create, and looked up by address', async () => {
    const fan = await signUp(ctx.app);
    await accepted(fan, 'carol');
    const image = async (name: string) => {
      const id = nextId('p/carol');
      const object = new Image({
        id,
        attribution: new URL(remote.actor('carol')),
        url: new URL(await picture(name)),
        mediaType: 'image/png',
        name: `Alt of ${name}`,
        content: `<p>Caption of ${name}</p>`,
        tos: [PUBLIC_COLLECTION],
        published: Temporal.Now.instant(),
      });
      await remote.serve(id.pathname, object);
      return object;
    };
    const pushed = await image('image-post');
    await deliver(
      new Create({
        id: nextId('creates'),
        actor: new URL(remote.actor('carol')),
        object: pushed,
        tos: [PUBLIC_COLLECTION],
      }),
      'carol',
    );
    const postId = await eventually(() => storedWork(pushed.id!.href), 'the Image post');
    const [row] = await queryRows<{ content: string; alt: string; remote_url: string }>(
      db(),
      sql`select p.content, m.alt, m.remote_url from posts p join post_media pm on pm.post_id = p.id
          join media m on m.id = pm.media_id where p.id = ${postId}::uuid`,
    );
    expect(row).toEqual({
      content: 'Caption of image-post',
      alt: 'Alt of image-post',
      remote_url: `${remote.origin}/files/image-post.png`,
    });

    const looked = await image('image-looked-up');
    const found = await ctx.app.inject({
      method: 'GET',
      url: `/api/federation/lookup?q=${encodeURIComponent(looked.id!.href)}`,
      headers: auth(fan),
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({ kind: 'work', postId: await storedWork(looked.id!.href) });
  });
});
