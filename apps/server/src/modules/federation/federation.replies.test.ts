import {
  Create,
  Delete,
  Document,
  Like,
  Note,
  PUBLIC_COLLECTION,
  Tombstone,
  Update,
  type Activity,
} from '@fedify/vocab';
import { LIMITS, type Comment, type LiveNotification, type NotificationPage, type Post } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { createPost, liveSocket, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { AP, eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';

/**
 * What arrives (issue 39): a reply from Mastodon or Pixelfed (`Create` of a `Note` with `inReplyTo`) becomes a
 * comment on our work, named by its remote author; its `Update` and `Delete` change or remove it; the actor's
 * `Delete` of itself takes its comments and their counts. The app runs on one loopback port, the fake remote server
 * (whose actors sign what they send) on another; everything is checked through the site's API, the live frames
 * and the stored rows.
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
const sharedInbox = () => `${origin}/ap/inbox`;
const workNote = (postId: string) => `${origin}/ap/posts/${postId}`;
/** The remote actor `as`'s handle, as the site shows it (without the leading @). */
const handleOf = (as: string) => `${as}@${new URL(remote.origin).host}`;
const personOf = (as: string) => ({ handle: handleOf(as), url: `${remote.origin}/@${as}` });

let statuses = 0;

interface NoteValues {
  as?: string;
  /** Who the Note says wrote it (`attributedTo`), when not `as`. */
  attributedTo?: string;
  html?: string;
  summary?: string;
  /** Only to the author's followers (Mastodon's "followers only"). */
  followersOnly?: boolean;
  id?: string;
  pictures?: number;
}

/**
 * A reply to `inReplyTo` shaped as Mastodon's serializer writes one (StatusSerializer: the Note's id under the
 * actor's `statuses`, its page `url`, `to` the Public and `cc` the followers, `attributedTo`, `summary` with
 * `sensitive`, its HTML `content` starting with the mention of the artist).
 */
function replyNote(inReplyTo: string, values: NoteValues = {}): Note {
  const as = values.as ?? 'bob';
  statuses += 1;
  const id = values.id ?? `${remote.origin}/users/${as}/statuses/${statuses}`;
  const followers = new URL(`/users/${as}/followers`, remote.origin);
  return new Note({
    id: new URL(id),
    attribution: new URL(remote.actor(values.attributedTo ?? as)),
    replyTarget: new URL(inReplyTo),
    url: new URL(`/@${as}/${statuses}`, remote.origin),
    tos: values.followersOnly ? [followers] : [PUBLIC_COLLECTION],
    ccs: values.followersOnly ? [] : [followers],
    summary: values.summary ?? null,
    sensitive: values.summary !== undefined,
    content: values.html ?? `<p>Lovely colours (${statuses})</p>`,
    attachments: Array.from(
      { length: values.pictures ?? 0 },
      (_, i) => new Document({ mediaType: 'image/jpeg', url: new URL(`/media/${statuses}-${i}.jpg`, remote.origin) }),
    ),
  });
}

/** The Create of `note` by `as`, its id the Note's with `/activity`, as Mastodon's ActivitySerializer writes it. */
const createOf = (note: Note, as = 'bob') =>
  new Create({ id: new URL(`${note.id!.href}/activity`), actor: new URL(remote.actor(as)), object: note });

async function deliver(activity: Activity, as = 'bob') {
  const response = await remote.deliver(sharedInbox(), activity, as);
  expect(response.status, await response.text()).toBe(202);
}

/** Waits until no activity taken in waits or runs (what an inbox accepted has had its effect, or none). */
async function inboxDrained() {
  await eventually(async () => {
    const counts = await ctx.app.jobs.counts();
    const inbox = counts.find((count) => count.kind === 'federation.inbox');
    return !inbox || inbox.queued + inbox.running === 0;
  }, 'the inbox jobs to be done');
}

/** The work's comments as the comments API answers them (signed out, or as `who`), oldest first. */
async function commentsOf(postId: string, who?: SignedUp): Promise<Comment[]> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/comments/${postId}?limit=50`,
    ...(who ? { headers: auth(who) } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().comments;
}

async function postOf(postId: string): Promise<Post> {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}` });
  expect(response.statusCode, response.body).toBe(200);
  const json = response.json();
  return (json.post ?? json) as Post;
}

async function notificationsOf(who: SignedUp): Promise<NotificationPage> {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/notifications', headers: auth(who) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every post's comment count against the comments it counts (those no moderator hid or removed). */
async function countersOff(): Promise<unknown[]> {
  return queryRows(
    ctx.database.db,
    sql`select p.id, p.comment_count from posts p
        where p.comment_count <> (select count(*)::int from comments c
                                  where c.post_id = p.id and c.moderation_state is null)`,
  );
}

/** The remote comments stored on a work, as `handle: content`. */
async function storedOf(postId: string): Promise<string[]> {
  const rows = await queryRows<{ entry: string }>(
    ctx.database.db,
    sql`select ra.handle || ': ' || c.content as entry from comments c join remote_actors ra on ra.id = c.remote_actor_id
        where c.post_id = ${postId}::uuid order by c.created_at, c.id`,
  );
  return rows.map((row) => row.entry);
}

describe('a reply from another server', { timeout: 120_000 }, () => {
  it('becomes a comment named by its remote author, counted, notified live, and taken once', async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'A lighthouse at dusk');
    const live = await liveSocket(ctx.app, artist.token);
    live.socket.send(JSON.stringify({ type: 'watch', posts: [work] }));
    const notifications = () => live.frames.filter((frame): frame is LiveNotification => frame.type === 'notification');
    try {
      // Mastodon's HTML: the mention of the artist, a hashtag, a long link shortened for display.
      const note = replyNote(workNote(work), {
        html:
          `<p><span class="h-card" translate="no"><a href="${origin}/${artist.user.username}" class="u-url mention">@<span>${artist.user.username}</span></a></span> ` +
          `Love it! <a href="https://mastodon.example/tags/art" class="mention hashtag" rel="tag">#<span>art</span></a></p>` +
          `<p>See <a href="https://example.com/a/very/long/path" rel="nofollow noopener" target="_blank"><span class="invisible">https://</span><span class="ellipsis">example.com/a/very/lo</span><span class="invisible">ng/path</span></a><br>and <a href="https://example.org/">my shop</a></p>`,
      });
      await deliver(createOf(note));
      const frame = await eventually(
        async () => notifications().find((item) => item.kind === 'comment'),
        'the live notification',
      );
      expect(frame).toMatchObject({
        text: `@${handleOf('bob')} commented on your post`,
        actor: { username: handleOf('bob'), firstName: 'Bob Remote', remote: personOf('bob') },
        postId: work,
      });
      await eventually(
        async () =>
          live.frames.find((item) => item.type === 'counts' && item.postId === work && item.commentCount === 1),
        'the live comment count',
      );

      const [comment] = await commentsOf(work);
      expect(comment).toMatchObject({
        postId: work,
        username: handleOf('bob'),
        firstName: 'Bob Remote',
        remote: personOf('bob'),
        userPhoto: expect.stringContaining('default'),
        content: `@${artist.user.username} Love it! #art\n\nSee https://example.com/a/very/long/path\nand my shop <https://example.org/>`,
        edited: false,
        votes: { upvoteCount: 0, downvoteCount: 0, upvotedBy: [], downvotedBy: [] },
      });
      const post = await postOf(work);
      expect(post.commentCount).toBe(1);
      expect(post.comments[0]).toMatchObject({ _id: comment!._id, remote: personOf('bob') });

      // The same Note again (Mastodon's retry, or its Create arriving through another inbox): one comment.
      await deliver(createOf(note));
      await remote.deliver(`${origin}/ap/users/${artist.user._id}/inbox`, createOf(note), 'bob');
      await inboxDrained();
      expect(await commentsOf(work)).toHaveLength(1);
      expect(notifications().filter((item) => item.kind === 'comment')).toHaveLength(1);
      const page = await notificationsOf(artist);
      expect(page.notifications).toHaveLength(1);
      expect(page.notifications[0]).toMatchObject({ kind: 'comment', actorCount: 1, post: { _id: work } });
      expect(page.notifications[0]!.actors[0]).toMatchObject({ remote: personOf('bob') });

      // Never sent back out: no reply Note of ours for it, nothing queued for it.
      const own = await fetch(`${origin}/ap/comments/${comment!._id}`, { headers: { accept: AP } });
      expect(own.status).toBe(404);
      const sent = await queryRows(
        ctx.database.db,
        sql`select 1 from federated_comments where comment_id = ${comment!._id}::uuid`,
      );
      expect(sent).toEqual([]);
      expect(await countersOff()).toEqual([]);
    } finally {
      live.socket.close();
    }
  });

  it('answering one of our comments, or a remote reply, is a comment on the same work', async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'A thread');
    const local = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/${work}/comment`,
      payload: { commentData: { content: 'Thank you all' } },
      headers: auth(artist),
    });
    expect(local.statusCode, local.body).toBe(201);
    const localId = local.json().comment._id as string;

    const first = replyNote(`${origin}/ap/comments/${localId}`, { html: '<p>You are welcome</p>' });
    await deliver(createOf(first));
    await eventually(async () => (await storedOf(work)).length === 1, 'the reply to our comment');
    // Carol answers bob's reply (a reply in the thread), by its Note's id.
    const second = replyNote(first.id!.href, { as: 'carol', html: '<p>Agreed!</p>' });
    await deliver(createOf(second, 'carol'), 'carol');
    await eventually(async () => (await storedOf(work)).length === 2, 'the reply to the reply');
    expect(await storedOf(work)).toEqual([`${handleOf('bob')}: You are welcome`, `${handleOf('carol')}: Agreed!`]);
    expect((await postOf(work)).commentCount).toBe(3);
    expect(await countersOff()).toEqual([]);
  });

  it('has no effect on a work not public or closed to comments, from a forged author, or followers-only', async () => {
    const artist = await signUp(ctx.app);
    const hiddenArtist = await signUp(ctx.app);
    const open = await createPost(ctx.app, artist, 'Open');
    const signedInOnly = await createPost(ctx.app, hiddenArtist, 'For signed-in eyes');
    const edit = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      payload: { userData: { worksSignedInOnly: true } },
      headers: auth(hiddenArtist),
    });
    expect(edit.statusCode, edit.body).toBeLessThan(300);
    const closed = await createPost(ctx.app, artist, 'No comments please');
    await queryRows(ctx.database.db, sql`update posts set comment_policy = 'nobody' where id = ${closed}::uuid`);

    await deliver(createOf(replyNote(workNote(signedInOnly))));
    await deliver(createOf(replyNote(workNote(closed))));
    await deliver(createOf(replyNote(workNote('00000000-0000-4000-8000-000000000000'))));
    await deliver(createOf(replyNote(`${remote.origin}/users/carol/statuses/999`)));
    // Carol sends a Note that says bob wrote it: words in another's name.
    await deliver(createOf(replyNote(workNote(open), { as: 'carol', attributedTo: 'bob' }), 'carol'), 'carol');
    // A Note whose id is on another host than its actor's.
    await deliver(createOf(replyNote(workNote(open), { id: 'https://elsewhere.example/statuses/1' })));
    // Followers only: not for everyone's eyes, so not a comment everyone sees.
    await deliver(createOf(replyNote(workNote(open), { followersOnly: true })));
    await inboxDrained();

    const viewer = await signUp(ctx.app);
    expect(await commentsOf(signedInOnly, viewer)).toEqual([]);
    expect(await storedOf(closed)).toEqual([]);
    expect(await storedOf(open)).toEqual([]);
    expect((await notificationsOf(artist)).notifications).toEqual([]);
    expect((await notificationsOf(hiddenArtist)).notifications).toEqual([]);
  });

  it('keeps text and links only: no script, no bidi override, no NUL; its warning shown; clipped with its URL', async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Careful');
    const hostile = replyNote(workNote(work), {
      summary: 'spoilers\u202e',
      html:
        '<p>Hi<script>alert("x")</script><style>p{}</style> there&#0;&#x202E;</p>' +
        '<p><a href="javascript:alert(1)">click</a> \u202egnp.exe <b>bold</b> &amp; &lt;tag&gt; \u200bzero\u0007</p>' +
        '<img src="x" onerror="alert(1)"><iframe src="https://evil.example/">frame</iframe>',
      pictures: 2,
    });
    const long = replyNote(workNote(work), { html: `<p>${'word '.repeat(400)}</p>` });
    // A NUL as it is in the JSON: the app refuses the body before anything, with a clear answer.
    const nul = await remote.deliver(
      sharedInbox(),
      createOf(replyNote(workNote(work), { html: '<p>a\u0000b</p>' })),
      'bob',
    );
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({ errors: [expect.stringContaining('NUL')] });
    await deliver(createOf(hostile));
    await deliver(createOf(long));
    await eventually(async () => (await storedOf(work)).length === 2, 'both replies');
    const byNote = async (note: Note) => {
      const [row] = await queryRows<{ content: string }>(
        ctx.database.db,
        sql`select content from comments where note_iri = ${note.id!.href}`,
      );
      return row!.content;
    };
    expect(await byNote(hostile)).toBe(
      'Content warning: spoilers\n\nHi there\uFFFD\n\nclick gnp.exe bold & <tag> zero\n\n' +
        `(with 2 pictures: ${String(hostile.url)})`,
    );
    const clipped = await byNote(long);
    expect([...clipped].length).toBeLessThanOrEqual(LIMITS.commentContentMax);
    expect(clipped).toMatch(/^word word /);
    expect(clipped.endsWith(`… (cut here; the whole reply: ${String(long.url)})`)).toBe(true);
  });
});

describe("a reply's Update and Delete", { timeout: 120_000 }, () => {
  it("change or remove it only when they are its own actor's", async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Edited replies');
    const note = replyNote(workNote(work), { html: '<p>First words</p>' });
    await deliver(createOf(note));
    await eventually(async () => (await storedOf(work)).length === 1, 'the reply');

    const edited = (as: string, html: string) =>
      new Update({
        id: new URL(`${note.id!.href}#updates/${(statuses += 1)}`),
        actor: new URL(remote.actor(as)),
        object: replyNote(workNote(work), { id: note.id!.href, html, as: 'bob' }),
      });
    // Carol's Update of bob's Note: its attributedTo is not carol.
    await deliver(edited('carol', '<p>Carol was here</p>'), 'carol');
    await inboxDrained();
    expect(await storedOf(work)).toEqual([`${handleOf('bob')}: First words`]);

    await deliver(edited('bob', '<p>Second words</p>'));
    await eventually(async () => (await commentsOf(work))[0]?.content === 'Second words', 'the edit to show');
    expect((await commentsOf(work))[0]).toMatchObject({ edited: true, remote: personOf('bob') });

    const deletion = (as: string) =>
      new Delete({
        id: new URL(`${note.id!.href}#delete-${as}`),
        actor: new URL(remote.actor(as)),
        object: new Tombstone({ id: note.id }),
      });
    await deliver(deletion('carol'), 'carol');
    await inboxDrained();
    expect(await storedOf(work)).toHaveLength(1);
    expect((await postOf(work)).commentCount).toBe(1);

    await deliver(deletion('bob'));
    await eventually(async () => (await storedOf(work)).length === 0, 'the reply to go');
    expect((await postOf(work)).commentCount).toBe(0);
    expect((await notificationsOf(artist)).notifications).toEqual([]);
    expect(await countersOff()).toEqual([]);
  });
});

describe('people here and a remote comment', { timeout: 120_000 }, () => {
  it('vote on it and report it; the artist deletes it; nobody edits it; a moderator hides it', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Discussed');
    await deliver(createOf(replyNote(workNote(work), { html: '<p>Spam? Maybe</p>' })));
    await deliver(createOf(replyNote(workNote(work), { html: '<p>Kind words</p>' })));
    await eventually(async () => (await storedOf(work)).length === 2, 'the replies');
    const [first, second] = await commentsOf(work);

    const vote = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/upvote/${work}/${second!._id}`,
      headers: auth(fan),
    });
    expect(vote.statusCode, vote.body).toBe(201);
    expect(vote.json().comment).toMatchObject({ votes: { upvoteCount: 1 }, viewerVote: 'up', remote: personOf('bob') });

    const editAttempt = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/edit/${work}/${second!._id}`,
      payload: { content: 'Not yours' },
      headers: auth(artist),
    });
    expect(editAttempt.statusCode).toBe(400);

    const report = await ctx.app.inject({
      method: 'POST',
      url: '/api/reports',
      payload: { targetType: 'comment', targetId: first!._id, reason: 'spam' },
      headers: auth(fan),
    });
    expect(report.statusCode, report.body).toBe(201);

    const moderator = await signUp(ctx.app);
    await queryRows(ctx.database.db, sql`update users set role = 'moderator' where id = ${moderator.user._id}::uuid`);
    const moderate = (action: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/moderation/actions',
        payload: { targetType: 'comment', targetId: first!._id, action, reason: 'Spam' },
        headers: auth(moderator),
      });
    // No account here to suspend.
    expect((await moderate('suspend')).statusCode).toBe(400);
    const hidden = await moderate('hide');
    expect(hidden.statusCode, hidden.body).toBeLessThan(300);
    expect((await commentsOf(work)).map((comment) => comment._id)).toEqual([second!._id]);
    expect((await postOf(work)).commentCount).toBe(1);

    const removed = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/delete/${work}/${second!._id}`,
      headers: auth(artist),
    });
    expect(removed.statusCode, removed.body).toBe(201);
    expect(removed.json().post.commentCount).toBe(0);
    expect(await countersOff()).toEqual([]);
  });
});

describe("a remote actor's Delete of itself", { timeout: 120_000 }, () => {
  it('takes its comments with it, the comment and like counts exact', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Busy');
    const other = await createPost(ctx.app, artist, 'Quiet');
    await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/${work}/comment`,
      payload: { commentData: { content: 'Local words stay' } },
      headers: auth(fan),
    });
    await deliver(createOf(replyNote(workNote(work), { as: 'carol' }), 'carol'), 'carol');
    await deliver(createOf(replyNote(workNote(work), { as: 'carol' }), 'carol'), 'carol');
    await deliver(createOf(replyNote(workNote(other), { as: 'carol' }), 'carol'), 'carol');
    await deliver(createOf(replyNote(workNote(work), { as: 'bob' })));
    // A like of the same work by carol: its count goes down in the same deletion.
    await deliver(
      new Like({
        id: new URL('/users/carol/likes/replies-1', remote.origin),
        actor: new URL(remote.actor('carol')),
        object: new URL(workNote(work)),
      }),
      'carol',
    );
    await eventually(async () => (await storedOf(work)).length === 3, 'the replies');
    await eventually(async () => (await postOf(work)).likes.likeCount === 1, 'the like');
    expect((await postOf(work)).commentCount).toBe(4);

    await deliver(
      new Delete({
        id: new URL('/users/carol#delete-replies', remote.origin),
        actor: new URL(remote.actor('carol')),
        object: new URL(remote.actor('carol')),
      }),
      'carol',
    );
    await eventually(async () => (await postOf(work)).commentCount === 2, "carol's comments to go");
    expect((await postOf(other)).commentCount).toBe(0);
    expect((await postOf(work)).likes.likeCount).toBe(0);
    expect(await storedOf(work)).toEqual([`${handleOf('bob')}: Lovely colours (${statuses})`]);
    expect((await commentsOf(work)).map((comment) => comment.content)).toEqual([
      'Local words stay',
      `Lovely colours (${statuses})`,
    ]);
    expect(await countersOff()).toEqual([]);
  });
});

describe('a server suspended by a moderator', { timeout: 120_000 }, () => {
  it("takes its people's comments with it, the counts exact", async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Before the block');
    await deliver(createOf(replyNote(workNote(work))));
    await deliver(createOf(replyNote(workNote(work))));
    await eventually(async () => (await storedOf(work)).length === 2, 'the replies');
    expect((await postOf(work)).commentCount).toBe(2);

    const moderator = await signUp(ctx.app);
    await queryRows(ctx.database.db, sql`update users set role = 'moderator' where id = ${moderator.user._id}::uuid`);
    const block = await ctx.app.inject({
      method: 'POST',
      url: '/api/moderation/servers',
      payload: { domain: new URL(remote.origin).hostname, severity: 'suspend', reason: 'Spam waves' },
      headers: auth(moderator),
    });
    expect(block.statusCode, block.body).toBe(201);
    expect(await storedOf(work)).toEqual([]);
    expect((await postOf(work)).commentCount).toBe(0);
    expect(await commentsOf(work)).toEqual([]);
    expect(await countersOff()).toEqual([]);
    const lifted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/moderation/servers/${block.json().block._id}`,
      headers: auth(moderator),
    });
    expect(lifted.statusCode, lifted.body).toBeLessThan(300);
  });
});
