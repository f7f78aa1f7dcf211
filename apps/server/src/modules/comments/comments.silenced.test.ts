import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addRemoteComment } from '../../actions/comments.js';
import { upsertShadowAccount } from '../../actions/remote-people.js';
import { queryRows } from '../../db/client.js';
import { createPost, signUp, createTestApp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * Replies from a silenced server (issue 39, `server_blocks.severity = 'silence'`) in a work's comments: as Mastodon's
 * StatusFilter treats a limited account's posts in a thread, they are shown only to those who follow their author
 * here (the work's artist included only if they follow); a comment from an account here or from a server that is
 * not silenced is shown to everyone. The remote people and their replies are written by the federation module's own
 * actions (what an inbox `Create(Note)` does), on the real database.
 */

let ctx: TestContext;
let artist: SignedUp;
let fan: SignedUp;
let stranger: SignedUp;
let postId: string;
let quietUserId: string;

const db = () => ctx.database.db;

function person(iri: string, username: string) {
  const host = new URL(iri).host;
  return {
    iri,
    handle: `${username}@${host}`,
    username,
    inbox: `${iri}/inbox`,
    sharedInbox: null,
    name: username,
    iconUrl: null,
    profileUrl: null,
    outbox: null,
    bio: '',
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  artist = await signUp(ctx.app);
  fan = await signUp(ctx.app);
  stranger = await signUp(ctx.app);
  postId = await createPost(ctx.app, artist, 'A painting with replies from afar');
  // A subdomain of the silenced domain, as Mastodon's domain blocks cover.
  const quiet = await upsertShadowAccount(db(), person('https://social.quiet.example/users/bob', 'bob'));
  const loud = await upsertShadowAccount(db(), person('https://loud.example/users/amy', 'amy'));
  quietUserId = quiet.userId;
  await queryRows(
    db(),
    sql`insert into server_blocks (domain, severity, created_by_username) values ('quiet.example', 'silence', 'test')`,
  );
  for (const [actor, words] of [
    [quiet.remoteActorId, 'from a quiet server'],
    [loud.remoteActorId, 'from a loud server'],
  ] as const) {
    const iri = `https://${words.replaceAll(' ', '-')}.example/notes/1`;
    expect(
      await addRemoteComment(db(), { postId, remoteActorId: actor, noteIri: iri, noteUrl: iri, content: words }),
    ).toBeTruthy();
  }
  const local = await ctx.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comment`,
    headers: { authorization: `Bearer ${stranger.token}` },
    payload: { commentData: { content: 'from here' } },
  });
  expect(local.statusCode, local.body).toBe(201);
  // The fan follows the quiet person (their server accepted the follow).
  await queryRows(
    db(),
    sql`insert into follows (follower_id, followee_id) values (${fan.user._id}::uuid, ${quietUserId}::uuid)`,
  );
});
afterAll(() => ctx.close());

async function comments(who: SignedUp | null): Promise<string[]> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/comments/${postId}`,
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().comments as { content: string }[]).map((comment) => comment.content);
}

async function descendants(who: SignedUp): Promise<string[]> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/statuses/${postId}/context`,
    headers: { authorization: `Bearer ${who.token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().descendants as { content: string }[]).map((status) => status.content.replace(/<[^>]+>/g, ''));
}

const everyone = ['from a loud server', 'from here'];
const all = ['from a quiet server', 'from a loud server', 'from here'];

describe('replies from a silenced server', () => {
  it('are shown only to those who follow their author, in the comments and in the Mastodon context', async () => {
    expect(await comments(fan)).toEqual(all);
    expect(await comments(artist)).toEqual(everyone);
    expect(await comments(stranger)).toEqual(everyone);
    expect(await comments(null)).toEqual(everyone);
    expect(await descendants(fan)).toEqual(all);
    expect(await descendants(artist)).toEqual(everyone);
    // The work still counts every reply (as Mastodon's replies_count does); the newest comments it shows are what
    // anyone sees (the post's cache is the same for every reader).
    const post = await ctx.app.inject({
      method: 'GET',
      url: `/api/posts/${postId}`,
      headers: { authorization: `Bearer ${fan.token}` },
    });
    expect(post.json().post.commentCount).toBe(3);
    expect((post.json().post.comments as { content: string }[]).map((comment) => comment.content).sort()).toEqual(
      [...everyone].sort(),
    );
  });

  it('are not shown on a follow their server has not accepted yet, and are shown to all once the silence is lifted', async () => {
    await queryRows(
      db(),
      sql`update follows set pending = true where follower_id = ${fan.user._id}::uuid and followee_id = ${quietUserId}::uuid`,
    );
    expect(await comments(fan)).toEqual(everyone);
    await queryRows(db(), sql`delete from server_blocks where domain = 'quiet.example'`);
    expect(await comments(artist)).toEqual(all);
    expect(await comments(null)).toEqual(all);
    expect(await descendants(stranger)).toEqual(all);
  });
});
