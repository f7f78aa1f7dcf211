import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  ACCOUNT_DELETION_ERRORS,
  ERRORS,
  MODERATION_MESSAGES,
  SAFETY_ERRORS,
  type Comment,
  type Post,
  type User,
} from '@share-arts/contract';
import { queryRows } from '../db/client.js';
import { ACCOUNT_GONE } from '../plugins/auth.js';
import { createTestApp, uniqueUsername, type TestContext } from '../test/helpers.js';
import { afterAllTests } from './fixtures.js';
import { writeReliabilitySection } from '../../../../scripts/reliability-report.mjs';

/**
 * Model-based API test (issue 8): random sequences of signups, posts, reactions, comments, votes, follows
 * and bookmarks, sent to the real API, each checked against a small in-memory model of the spec's rules
 * (section 4 of the product spec and design/API.md): the exact status and error message of every answer,
 * the entity the answer shows, and, after every step, every counter and row of the run's entities in the
 * database. At the end of each run the whole run is read back through the API. Each run signs up its own
 * users, so the runs share one database without meeting.
 */

const SEED = Number(process.env.MODEL_SEED ?? Date.now() % 2 ** 31);
const RUNS = Number(process.env.MODEL_RUNS ?? 200);
const MAX_COMMANDS = 60;
const MAX_USERS = 5;
const MAX_POSTS = 6;

interface MUser {
  id: string;
  username: string;
  token: string;
}
interface MPost {
  id: string;
  author: number;
  content: string;
  likes: Set<number>;
  dislikes: Set<number>;
  deleted: boolean;
}
interface MComment {
  id: string;
  post: number;
  author: number;
  content: string;
  edited: boolean;
  up: Set<number>;
  down: Set<number>;
  deleted: boolean;
}
interface Model {
  run: number;
  step: number;
  users: MUser[];
  posts: MPost[];
  comments: MComment[];
  /** `${follower} ${followee}` (user indexes). */
  follows: Set<string>;
  /** `${user} ${post}` (indexes). */
  bookmarks: Set<string>;
  /** Blocks and mutes (issue 23): `${blocker} ${blocked}`, `${muter} ${muted}` (indexes). */
  blocks: Set<string>;
  mutes: Set<string>;
  /** Open reports (issue 23): `${reporter} ${post}` (indexes); nobody acts on them here. */
  reports: Set<string>;
}
type Real = Record<string, never>;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});

// Figures for docs/reliability.md, counted as the requests are sent.
const stats = {
  runs: 0,
  steps: 0,
  longest: 0,
  requests: 0,
  /** Requests of the end-of-run read-backs (included in requests). */
  readBack: 0,
  statuses: {} as Record<number, number>,
  ops: {} as Record<string, { sent: number; ok: number; refused: number }>,
  failure: null as string | null,
};

async function send(options: InjectOptions, label: string): Promise<LightMyRequestResponse> {
  stats.requests += 1;
  const response = await ctx.app.inject(options);
  stats.statuses[response.statusCode] = (stats.statuses[response.statusCode] ?? 0) + 1;
  expect(response.statusCode, `${label}: server fault ${response.body.slice(0, 300)}`).toBeLessThan(500);
  return response;
}

const auth = (user: MUser, minimal = true): Record<string, string> => ({
  authorization: user.token,
  ...(minimal ? { prefer: 'return=minimal' } : {}),
});

const ids = (list: { _id: string }[]) => list.map((entry) => entry._id).sort();
const idsOf = (model: Model, users: Iterable<number>) => [...users].map((i) => model.users[i]!.id).sort();
const livePosts = (model: Model) => model.posts.filter((p) => !p.deleted);
const liveComments = (model: Model, post: number) => model.comments.filter((c) => c.post === post && !c.deleted);
const followersOf = (model: Model, user: number) =>
  [...model.follows].map((f) => f.split(' ').map(Number)).filter(([, b]) => b === user);
const followingOf = (model: Model, user: number) =>
  [...model.follows].map((f) => f.split(' ').map(Number)).filter(([a]) => a === user);
/** A blocked pair, either way: each is hidden from the other. */
const blockedPair = (model: Model, a: number, b: number) =>
  model.blocks.has(`${a} ${b}`) || model.blocks.has(`${b} ${a}`);
/** Of these people, those `viewer` sees in a list of who liked or voted (not the other of a blocked pair). */
const seenBy = (model: Model, viewer: number, users: Set<number>) =>
  [...users].filter((other) => !blockedPair(model, viewer, other));
/** Whether `viewer` sees the comments of `author` (not a blocked pair, not muted; always their own). */
const seesCommentsOf = (model: Model, viewer: number, author: number) =>
  viewer === author || (!blockedPair(model, viewer, author) && !model.mutes.has(`${viewer} ${author}`));
const bookmarksOf = (model: Model, user: number) =>
  [...model.bookmarks].map((b) => b.split(' ').map(Number)).filter(([u]) => u === user);

/** A post as the API shows it to `viewer`, against the model. */
function expectPost(model: Model, post: Post, index: number, viewer: number, label: string) {
  const m = model.posts[index]!;
  expect(post._id, label).toBe(m.id);
  expect(post.content, label).toBe(m.content);
  expect(post.userId, label).toBe(model.users[m.author]!.id);
  expect(
    { likeCount: post.likes.likeCount, dislikeCount: post.likes.dislikeCount, commentCount: post.commentCount },
    label,
  ).toEqual({
    likeCount: m.likes.size,
    dislikeCount: m.dislikes.size,
    commentCount: liveComments(model, index).length,
  });
  const seen = (users: Set<number>) => seenBy(model, viewer, users);
  expect(ids(post.likes.likedBy), `${label}: likedBy`).toEqual(idsOf(model, seen(m.likes)));
  expect(ids(post.likes.dislikedBy), `${label}: dislikedBy`).toEqual(idsOf(model, seen(m.dislikes)));
  expect(post.viewer, `${label}: viewer flags`).toEqual({
    liked: m.likes.has(viewer),
    disliked: m.dislikes.has(viewer),
    bookmarked: model.bookmarks.has(`${viewer} ${index}`),
    followsAuthor: model.follows.has(`${viewer} ${m.author}`),
    isAuthor: m.author === viewer,
    mutedWord: null,
  });
}

/** A comment as the API shows it to `viewer`, against the model. */
function expectComment(model: Model, comment: Comment, index: number, viewer: number, label: string) {
  const m = model.comments[index]!;
  expect([comment._id, comment.postId, comment.userId, comment.content, comment.edited], `${label}: comment`).toEqual([
    m.id,
    model.posts[m.post]!.id,
    model.users[m.author]!.id,
    m.content,
    m.edited,
  ]);
  expect([comment.votes.upvoteCount, comment.votes.downvoteCount], `${label}: vote counts`).toEqual([
    m.up.size,
    m.down.size,
  ]);
  // A blocked pair never see each other among the voters; the counts are everyone's.
  const seen = (users: Set<number>) => seenBy(model, viewer, users);
  expect(ids(comment.votes.upvotedBy), `${label}: upvotedBy`).toEqual(idsOf(model, seen(m.up)));
  expect(ids(comment.votes.downvotedBy), `${label}: downvotedBy`).toEqual(idsOf(model, seen(m.down)));
  expect(comment.viewerVote, `${label}: viewerVote`).toBe(m.up.has(viewer) ? 'up' : m.down.has(viewer) ? 'down' : null);
}

/** A user as the API shows it to themself, against the model. */
function expectUser(model: Model, user: User, index: number, label: string) {
  const liveBookmarks = bookmarksOf(model, index);
  expect(
    [user._id, user.followerCount, user.followingCount, user.bookmarkCount, user.postCount],
    `${label}: counts`,
  ).toEqual([
    model.users[index]!.id,
    followersOf(model, index).length,
    followingOf(model, index).length,
    liveBookmarks.length,
    livePosts(model).filter((p) => p.author === index).length,
  ]);
  const followers = followersOf(model, index).map(([a]) => a!);
  const following = followingOf(model, index).map(([, b]) => b!);
  expect(ids(user.followers), `${label}: followers`).toEqual(idsOf(model, followers));
  expect(ids(user.following), `${label}: following`).toEqual(idsOf(model, following));
  expect(ids(user.bookmarks!), `${label}: bookmarks`).toEqual(liveBookmarks.map(([, p]) => model.posts[p!]!.id).sort());
}

/** After every step: every counter and row that touches the run's users and posts equals the model. */
async function expectDatabase(model: Model, label: string) {
  const userIds = JSON.stringify(model.users.map((u) => u.id));
  const postIds = JSON.stringify(model.posts.map((p) => p.id));
  const [row] = await queryRows<Record<string, unknown[]>>(
    ctx.database.db,
    sql`with u as (select value::uuid as id from json_array_elements_text(${userIds}::json)),
             p as (select value::uuid as id from json_array_elements_text(${postIds}::json))
        select
          coalesce((select json_agg(json_build_array(x.id, x.like_count, x.dislike_count, x.comment_count, x.content))
                    from posts x where x.id in (select id from p) or x.author_id in (select id from u)), '[]') as posts,
          coalesce((select json_agg(r.post_id || ' ' || r.user_id || ' ' || r.kind) from post_reactions r
                    where r.post_id in (select id from p) or r.user_id in (select id from u)), '[]') as reactions,
          coalesce((select json_agg(json_build_array(c.id, c.post_id, c.author_id, c.upvote_count, c.downvote_count))
                    from comments c where c.post_id in (select id from p) or c.author_id in (select id from u)),
                   '[]') as comments,
          coalesce((select json_agg(v.comment_id || ' ' || v.user_id || ' ' || v.kind) from comment_votes v
                    where v.user_id in (select id from u)
                       or v.comment_id in (select id from comments where post_id in (select id from p))), '[]') as votes,
          coalesce((select json_agg(json_build_array(x.id, x.follower_count, x.following_count, x.bookmark_count,
                                                     x.post_count))
                    from users x where x.id in (select id from u)), '[]') as users,
          coalesce((select json_agg(f.follower_id || ' ' || f.followee_id) from follows f
                    where f.follower_id in (select id from u) or f.followee_id in (select id from u)), '[]') as follows,
          coalesce((select json_agg(b.user_id || ' ' || b.post_id) from bookmarks b
                    where b.user_id in (select id from u) or b.post_id in (select id from p)), '[]') as bookmarks,
          coalesce((select json_agg(r.reporter_id || ' ' || r.target_id || ' ' || r.status) from reports r
                    where r.reporter_id in (select id from u)), '[]') as reports`,
  );
  const sorted = (list: unknown[]) => list.map((x) => JSON.stringify(x)).sort();
  const actual = Object.fromEntries(Object.entries(row!).map(([key, list]) => [key, sorted(list)]));
  const uid = (i: number) => model.users[i]!.id;
  const pid = (i: number) => model.posts[i]!.id;
  const live = livePosts(model);
  const comments = model.comments.filter((c) => !c.deleted);
  const expected = {
    posts: sorted(
      live.map((p) => [
        p.id,
        p.likes.size,
        p.dislikes.size,
        liveComments(model, model.posts.indexOf(p)).length,
        p.content,
      ]),
    ),
    reactions: sorted(
      live.flatMap((p) => [
        ...[...p.likes].map((u) => `${p.id} ${uid(u)} like`),
        ...[...p.dislikes].map((u) => `${p.id} ${uid(u)} dislike`),
      ]),
    ),
    comments: sorted(comments.map((c) => [c.id, pid(c.post), uid(c.author), c.up.size, c.down.size])),
    votes: sorted(
      comments.flatMap((c) => [
        ...[...c.up].map((u) => `${c.id} ${uid(u)} up`),
        ...[...c.down].map((u) => `${c.id} ${uid(u)} down`),
      ]),
    ),
    users: sorted(
      model.users.map((u, i) => [
        u.id,
        followersOf(model, i).length,
        followingOf(model, i).length,
        bookmarksOf(model, i).length,
        live.filter((p) => p.author === i).length,
      ]),
    ),
    follows: sorted(
      [...model.follows].map((f) =>
        f
          .split(' ')
          .map((i) => uid(Number(i)))
          .join(' '),
      ),
    ),
    bookmarks: sorted(
      [...model.bookmarks].map((b) => b.split(' ').map(Number)).map(([u, p]) => `${uid(u!)} ${pid(p!)}`),
    ),
    reports: sorted(
      [...model.reports].map((r) => r.split(' ').map(Number)).map(([u, p]) => `${uid(u!)} ${pid(p!)} open`),
    ),
  };
  expect(actual, `${label}: the database drifted from the model`).toEqual(expected);
}

type Op =
  | 'signup'
  | 'post'
  | 'editPost'
  | 'deletePost'
  | 'like'
  | 'dislike'
  | 'comment'
  | 'editComment'
  | 'deleteComment'
  | 'upvote'
  | 'downvote'
  | 'follow'
  | 'unfollow'
  | 'bookmark'
  | 'unbookmark'
  | 'block'
  | 'unblock'
  | 'mute'
  | 'unmute'
  | 'report'
  | 'deleteAccount';

interface Args {
  /** The acting user (index, modulo the run's users). */
  u: number;
  /** The target: a user, post or comment index (modulo their number). */
  t: number;
  /** Sends blank content (a write that must be refused). */
  blank: boolean;
  /** Sends `Prefer: return=minimal`. */
  minimal: boolean;
}

type Refusal = [status: number, message: string];

class Step implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly op: Op,
    readonly args: Args,
  ) {}

  check(m: Readonly<Model>): boolean {
    switch (this.op) {
      case 'signup':
        return m.users.length < MAX_USERS;
      case 'post':
        return m.posts.length < MAX_POSTS;
      case 'follow':
      case 'unfollow':
      case 'block':
      case 'unblock':
      case 'mute':
      case 'unmute':
        return true;
      case 'report':
        return m.posts.length > 0;
      // Rare (half of its draws pass), so that a run still has people with posts, follows and votes.
      case 'deleteAccount':
        return m.users.length >= 2 && this.args.t % 2 === 0;
      case 'editComment':
      case 'deleteComment':
      case 'upvote':
      case 'downvote':
        return m.comments.length > 0;
      default:
        return m.posts.length > 0;
    }
  }

  toString(): string {
    const { u, t, blank, minimal } = this.args;
    const sendsContent = ['post', 'editPost', 'comment', 'editComment'].includes(this.op);
    return `${this.op}(u${u},t${t}${blank && sendsContent ? ',blank' : ''}${minimal ? '' : ',full'})`;
  }

  async run(m: Model): Promise<void> {
    m.step += 1;
    stats.steps += 1;
    const op = this.op;
    const { blank, minimal } = this.args;
    const u = m.users.length > 0 ? this.args.u % m.users.length : 0;
    const me = m.users[u]!;
    const label = `run ${m.run} step ${m.step} ${this.toString()}`;
    const content = blank ? ' \n\t ' : `${op} ${m.run}.${m.step} #model${m.step % 3}`;

    // What the model expects: refusals that apply (any one of them may answer), or success.
    const refusals: Refusal[] = [];
    let request: InjectOptions;
    let okStatus = 201;
    let apply: (response: LightMyRequestResponse) => void | Promise<void>;

    // The target: for an even t, one the step can succeed on when there is one (an own post to edit, a
    // followed user to unfollow, …); otherwise any, deleted ones included.
    const t = this.args.t;
    const target = (preferred: number[], count: number) =>
      preferred.length > 0 && t % 2 === 0 ? preferred[(t >> 1) % preferred.length]! : t % Math.max(1, count);
    const indexes = <T>(list: T[], keep: (item: T) => boolean) => list.flatMap((item, i) => (keep(item) ? [i] : []));
    const postsPreferred: Partial<Record<Op, number[]>> = {
      editPost: indexes(m.posts, (x) => !x.deleted && x.author === u),
      deletePost: indexes(m.posts, (x) => !x.deleted && x.author === u),
      dislike: indexes(m.posts, (x) => x.likes.size > 0 && !x.dislikes.has(u)),
      unbookmark: bookmarksOf(m, u).map(([, x]) => x!),
    };
    const commentsPreferred: Partial<Record<Op, number[]>> = {
      editComment: indexes(m.comments, (x) => !x.deleted && x.author === u),
      deleteComment: indexes(m.comments, (x) => !x.deleted && (x.author === u || m.posts[x.post]!.author === u)),
    };
    const p = target(postsPreferred[op] ?? [], m.posts.length);
    const post = m.posts[p];
    const c = target(commentsPreferred[op] ?? [], m.comments.length);
    const comment = m.comments[c];
    const v = target(op === 'unfollow' ? followingOf(m, u).map(([, b]) => b!) : [], m.users.length);
    const postGone: Refusal = [404, ERRORS.postNotFound];
    // A blocked pair: the other's posts are not there (answered as a post that does not exist).
    const hiddenPost = post !== undefined && blockedPair(m, u, post.author);

    switch (op) {
      case 'signup': {
        const username = uniqueUsername('model');
        request = {
          method: 'POST',
          url: '/api/auth/signup',
          payload: { fullname: 'Model Person', email: 'model@example.com', username, password: 'model password 1' },
        };
        apply = (r) => {
          const body = r.json();
          expect(body.createdUser.username, label).toBe(username);
          m.users.push({ id: body.createdUser._id, username, token: body.encodedToken });
        };
        break;
      }
      case 'post': {
        request = { method: 'POST', url: '/api/posts', payload: { content }, headers: auth(me, minimal) };
        if (blank) refusals.push([400, ERRORS.postContentEmpty]);
        apply = (r) => {
          const created = r.json().post as Post;
          m.posts.push({ id: created._id, author: u, content, likes: new Set(), dislikes: new Set(), deleted: false });
          expectPost(m, created, m.posts.length - 1, u, label);
        };
        break;
      }
      case 'editPost': {
        request = {
          method: 'POST',
          url: `/api/posts/edit/${post!.id}`,
          payload: { postData: { content } },
          headers: auth(me, minimal),
        };
        if (post!.deleted) refusals.push(postGone);
        else if (post!.author !== u) refusals.push([400, ERRORS.editPostNotOwner]);
        if (blank) refusals.push([400, ERRORS.postContentEmpty]);
        apply = (r) => {
          post!.content = content;
          expectPost(m, r.json().post, p, u, label);
        };
        break;
      }
      case 'deletePost': {
        request = { method: 'DELETE', url: `/api/posts/${post!.id}`, headers: auth(me, minimal) };
        if (post!.deleted) refusals.push(postGone);
        else if (post!.author !== u) refusals.push([400, ERRORS.deletePostNotOwner]);
        apply = (r) => {
          expect(r.json().post, label).toBeUndefined();
          post!.deleted = true;
          post!.likes.clear();
          post!.dislikes.clear();
          for (const each of m.comments) if (each.post === p) each.deleted = true;
          for (const key of [...m.bookmarks]) if (key.endsWith(` ${p}`)) m.bookmarks.delete(key);
        };
        break;
      }
      case 'like':
      case 'dislike': {
        request = { method: 'POST', url: `/api/posts/${op}/${post!.id}`, headers: auth(me, minimal) };
        if (post!.deleted || hiddenPost) refusals.push(postGone);
        else if (op === 'like') {
          if (post!.likes.has(u)) refusals.push([400, ERRORS.alreadyLiked]);
        } else {
          // The spec refuses a dislike at likeCount 0 or when already disliked; either message may answer.
          if (post!.likes.size === 0) refusals.push([400, ERRORS.likeBelowZero]);
          if (post!.dislikes.has(u)) refusals.push([400, ERRORS.alreadyDisliked]);
        }
        apply = (r) => {
          // Our documented deviation: likeCount counts like rows, so a dislike by someone who had not liked
          // leaves it as it is.
          const [add, remove] = op === 'like' ? [post!.likes, post!.dislikes] : [post!.dislikes, post!.likes];
          remove.delete(u);
          add.add(u);
          expectPost(m, r.json().post, p, u, label);
        };
        break;
      }
      case 'comment': {
        request = {
          method: 'POST',
          url: `/api/posts/${post!.id}/comment`,
          payload: { commentData: { content } },
          headers: auth(me, minimal),
        };
        if (post!.deleted || hiddenPost) refusals.push(postGone);
        if (blank) refusals.push([400, ERRORS.commentContentEmpty]);
        apply = (r) => {
          const body = r.json();
          m.comments.push({
            id: body.comment._id,
            post: p,
            author: u,
            content,
            edited: false,
            up: new Set(),
            down: new Set(),
            deleted: false,
          });
          expectComment(m, body.comment, m.comments.length - 1, u, label);
          expectPost(m, body.post, p, u, label);
        };
        break;
      }
      case 'editComment':
      case 'deleteComment':
      case 'upvote':
      case 'downvote': {
        const path = { editComment: 'edit', deleteComment: 'delete', upvote: 'upvote', downvote: 'downvote' }[op];
        const parent = m.posts[comment!.post]!;
        request = {
          method: 'POST',
          url: `/api/comments/${path}/${parent.id}/${comment!.id}`,
          headers: auth(me, minimal),
          ...(op === 'editComment' ? { payload: { content } } : {}),
        };
        const voting = op === 'upvote' || op === 'downvote';
        if (parent.deleted) refusals.push(postGone, [404, ERRORS.commentNotFound]);
        else if (blockedPair(m, u, parent.author)) refusals.push(postGone);
        else if (comment!.deleted) refusals.push([404, ERRORS.commentNotFound]);
        else if (voting && blockedPair(m, u, comment!.author)) refusals.push([404, ERRORS.commentNotFound]);
        else if (op === 'editComment' && comment!.author !== u) refusals.push([400, ERRORS.editCommentNotOwner]);
        else if (op === 'deleteComment' && comment!.author !== u && parent.author !== u)
          refusals.push([400, ERRORS.deleteCommentNotOwner]);
        else if (op === 'upvote' && comment!.up.has(u)) refusals.push([400, ERRORS.alreadyUpvoted]);
        else if (op === 'downvote' && comment!.down.has(u)) refusals.push([400, ERRORS.alreadyDownvoted]);
        if (op === 'editComment' && blank) refusals.push([400, ERRORS.commentContentEmpty]);
        apply = (r) => {
          const body = r.json();
          if (op === 'editComment') {
            comment!.content = content;
            comment!.edited = true;
          } else if (op === 'deleteComment') {
            comment!.deleted = true;
            expect(body.comment, label).toBeUndefined();
          } else {
            const [add, remove] = op === 'upvote' ? [comment!.up, comment!.down] : [comment!.down, comment!.up];
            remove.delete(u);
            add.add(u);
            if (!minimal) {
              const listed = (body.comments as Comment[]).map((each) => each._id).sort();
              expect(listed, `${label}: the post's comments`).toEqual(
                liveComments(m, comment!.post)
                  .filter((each) => seesCommentsOf(m, u, each.author))
                  .map((each) => each.id)
                  .sort(),
              );
            }
          }
          if (op !== 'deleteComment') expectComment(m, body.comment, c, u, label);
          if (body.post) expectPost(m, body.post, comment!.post, u, label);
        };
        break;
      }
      case 'follow':
      case 'unfollow': {
        okStatus = 200;
        const target = m.users[v]!;
        request = { method: 'POST', url: `/api/users/${op}/${target.id}`, headers: auth(me, minimal) };
        const following = m.follows.has(`${u} ${v}`);
        if (v === u) refusals.push([400, ERRORS.cannotFollowSelf]);
        else if (m.blocks.has(`${u} ${v}`)) refusals.push([403, SAFETY_ERRORS.blocked]);
        else if (m.blocks.has(`${v} ${u}`)) refusals.push([404, ERRORS.userNotFound]);
        if (op === 'follow' && following) refusals.push([400, ERRORS.alreadyFollowing]);
        if (op === 'unfollow' && !following) refusals.push([400, ERRORS.notFollowing]);
        apply = (r) => {
          if (op === 'follow') m.follows.add(`${u} ${v}`);
          else m.follows.delete(`${u} ${v}`);
          const body = r.json();
          expectUser(m, body.user, u, `${label}: user`);
          expect(body.followUser._id, label).toBe(target.id);
          expect([body.followUser.followerCount, body.followUser.viewer.follows], `${label}: followUser`).toEqual([
            followersOf(m, v).length,
            op === 'follow',
          ]);
          const followers = followersOf(m, v)
            .map(([a]) => a!)
            .filter((other) => !blockedPair(m, u, other));
          expect(ids(body.followUser.followers), `${label}: followUser.followers`).toEqual(idsOf(m, followers));
        };
        break;
      }
      case 'bookmark':
      case 'unbookmark': {
        okStatus = 200;
        const path = op === 'bookmark' ? 'bookmark' : 'remove-bookmark';
        request = { method: 'POST', url: `/api/users/${path}/${post!.id}`, headers: auth(me, minimal) };
        const saved = m.bookmarks.has(`${u} ${p}`);
        if (post!.deleted || (op === 'bookmark' && hiddenPost)) refusals.push(postGone);
        else if (op === 'bookmark' && saved) refusals.push([400, ERRORS.alreadyBookmarked]);
        else if (op === 'unbookmark' && !saved) refusals.push([400, ERRORS.notBookmarked]);
        apply = (r) => {
          if (op === 'bookmark') m.bookmarks.add(`${u} ${p}`);
          else m.bookmarks.delete(`${u} ${p}`);
          const body = r.json();
          if (minimal) expect(body, label).toEqual({});
          else
            // The saved posts the answer lists are those the viewer may see: not a blocked pair's (still saved).
            expect(ids(body.bookmarks), `${label}: bookmarks`).toEqual(
              bookmarksOf(m, u)
                .filter(([, each]) => !blockedPair(m, u, m.posts[each!]!.author))
                .map(([, each]) => m.posts[each!]!.id)
                .sort(),
            );
        };
        break;
      }
      case 'block':
      case 'unblock':
      case 'mute':
      case 'unmute': {
        okStatus = 200;
        const on = op === 'block' || op === 'mute';
        const kind = op === 'block' || op === 'unblock' ? 'block' : 'mute';
        const target = m.users[v]!;
        request = { method: on ? 'POST' : 'DELETE', url: `/api/users/${target.username}/${kind}`, headers: auth(me) };
        if (v === u)
          refusals.push([400, kind === 'block' ? SAFETY_ERRORS.cannotBlockSelf : SAFETY_ERRORS.cannotMuteSelf]);
        apply = (r) => {
          const set = kind === 'block' ? m.blocks : m.mutes;
          if (on) set.add(`${u} ${v}`);
          else set.delete(`${u} ${v}`);
          // A block ends the follows both ways.
          if (op === 'block') for (const pair of [`${u} ${v}`, `${v} ${u}`]) m.follows.delete(pair);
          expect(r.json(), label).toEqual(kind === 'block' ? { blocked: on } : { muted: on });
        };
        break;
      }
      case 'report': {
        // A post, in the order the server checks: there is one, it is not yours, you can see it (its author
        // has not blocked you; your own block of them does not stop a report: issue 38), and you have no open
        // report on it yet.
        const post = m.posts[p]!;
        request = {
          method: 'POST',
          url: '/api/reports',
          headers: auth(me),
          payload: { targetType: 'post', targetId: post.id, reason: 'spam', note: content },
        };
        if (post.deleted) refusals.push([404, MODERATION_MESSAGES.reportTargetNotFound('post')]);
        else if (post.author === u) refusals.push([400, MODERATION_MESSAGES.reportYourself]);
        else if (m.blocks.has(`${post.author} ${u}`))
          refusals.push([404, MODERATION_MESSAGES.reportTargetNotFound('post')]);
        else if (m.reports.has(`${u} ${p}`)) refusals.push([409, MODERATION_MESSAGES.alreadyReported]);
        apply = (r) => {
          m.reports.add(`${u} ${p}`);
          expect(r.json().report, label).toMatchObject({
            targetType: 'post',
            targetId: post.id,
            reason: 'spam',
            note: content.trim(),
            status: 'open',
          });
        };
        break;
      }
      case 'deleteAccount': {
        // Issue 24: the account and all it owns go (a blank step sends a wrong password: refused, nothing
        // changes); then a new person signs up in its place, so the run keeps its number of people.
        okStatus = 200;
        request = {
          method: 'POST',
          url: '/api/account/delete',
          headers: auth(me),
          payload: { password: blank ? 'not the password' : 'model password 1' },
        };
        if (blank) refusals.push([401, ACCOUNT_DELETION_ERRORS.wrongPassword]);
        apply = async (r) => {
          expect(r.json().deleted, label).toBe(true);
          forgetAccount(m, u);
          await expectAccountGone(me, label);
          const username = uniqueUsername('model');
          const signup = await send(
            {
              method: 'POST',
              url: '/api/auth/signup',
              payload: { fullname: 'Model Person', email: 'model@example.com', username, password: 'model password 1' },
            },
            label,
          );
          expect(signup.statusCode, `${label}: the new person's sign-up`).toBe(201);
          m.users[u] = { id: signup.json().createdUser._id, username, token: signup.json().encodedToken };
        };
        break;
      }
    }

    const counted = (stats.ops[op] ??= { sent: 0, ok: 0, refused: 0 });
    counted.sent += 1;
    const response = await send(request, label);
    if (refusals.length > 0) {
      counted.refused += 1;
      const got: Refusal = [response.statusCode, response.body.startsWith('{') ? response.json().errors?.[0] : ''];
      expect(
        refusals,
        `${label}: expected a refusal, got ${response.statusCode} ${response.body.slice(0, 200)}`,
      ).toContainEqual(got);
    } else {
      counted.ok += 1;
      expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBe(okStatus);
      await apply(response);
    }
    await expectDatabase(m, label);
  }
}

/**
 * The model after user `u` deleted their account: their posts (with the comments, likes and bookmarks on
 * them) and comments are deleted, their likes, votes, follows both ways, bookmarks, blocks, mutes and the
 * reports they made are gone, and so are the open reports of their posts (of those still there: a report
 * of a post deleted earlier stays, as the report of any deleted post does).
 */
function forgetAccount(m: Model, u: number) {
  const theirs = new Set(indexesOf(m.posts, (x) => x.author === u));
  // The open reports of a post they had deleted before stay (the server finds the post no more).
  const standing = new Set(indexesOf(m.posts, (x) => x.author === u && !x.deleted));
  for (const [i, post] of m.posts.entries()) {
    if (theirs.has(i)) {
      post.deleted = true;
      post.likes.clear();
      post.dislikes.clear();
    }
    post.likes.delete(u);
    post.dislikes.delete(u);
  }
  for (const each of m.comments) {
    if (each.author === u || theirs.has(each.post)) each.deleted = true;
    each.up.delete(u);
    each.down.delete(u);
  }
  const involves = (key: string, at: 'a' | 'b' | 'either') => {
    const [a, b] = key.split(' ').map(Number);
    return at === 'a' ? a === u : at === 'b' ? b === u : a === u || b === u;
  };
  for (const set of [m.follows, m.blocks, m.mutes])
    for (const key of [...set]) if (involves(key, 'either')) set.delete(key);
  for (const key of [...m.bookmarks])
    if (involves(key, 'a') || theirs.has(Number(key.split(' ')[1]))) m.bookmarks.delete(key);
  for (const key of [...m.reports])
    if (involves(key, 'a') || standing.has(Number(key.split(' ')[1]))) m.reports.delete(key);
}

const indexesOf = <T>(list: T[], keep: (item: T) => boolean) => list.flatMap((item, i) => (keep(item) ? [i] : []));

/** A deleted account: its token answers 404, and no row of the tables it wrote names it. */
async function expectAccountGone(user: MUser, label: string) {
  const feed = await send({ method: 'GET', url: '/api/feed', headers: auth(user) }, label);
  expect([feed.statusCode, feed.json().errors[0]], `${label}: its token`).toEqual([404, ACCOUNT_GONE]);
  const [row] = await queryRows<{ rows: number }>(
    ctx.database.db,
    sql`select (select count(*) from users where id = ${user.id}::uuid)
             + (select count(*) from posts where author_id = ${user.id}::uuid)
             + (select count(*) from comments where author_id = ${user.id}::uuid)
             + (select count(*) from post_reactions where user_id = ${user.id}::uuid)
             + (select count(*) from comment_votes where user_id = ${user.id}::uuid)
             + (select count(*) from follows where ${user.id}::uuid in (follower_id, followee_id))
             + (select count(*) from bookmarks where user_id = ${user.id}::uuid)
             + (select count(*) from blocks where ${user.id}::uuid in (blocker_id, blocked_id))
             + (select count(*) from mutes where ${user.id}::uuid in (muter_id, muted_id))
             + (select count(*) from reports where ${user.id}::uuid in (reporter_id, target_id))
             + (select count(*) from notifications where ${user.id}::uuid in (recipient_id, actor_id))
             + (select count(*) from media where owner_id = ${user.id}::uuid) as rows`,
  );
  expect(Number(row!.rows), `${label}: rows naming the deleted account`).toBe(0);
}

/** At the end of a run, the whole run read back through the API, as each user sees it. */
async function expectThroughApi(m: Model) {
  const before = stats.requests;
  for (const [i, post] of m.posts.entries()) {
    const viewer = i % m.users.length;
    const label = `run ${m.run} end: post p${i}`;
    const one = await send({ method: 'GET', url: `/api/posts/${post.id}`, headers: auth(m.users[viewer]!) }, label);
    if (post.deleted || blockedPair(m, viewer, post.author)) {
      expect([one.statusCode, one.json().errors[0]], label).toEqual([404, ERRORS.postNotFound]);
      continue;
    }
    expect(one.statusCode, label).toBe(200);
    expectPost(m, one.json().post, i, viewer, label);
    const list = await send(
      { method: 'GET', url: `/api/comments/${post.id}?limit=50`, headers: auth(m.users[viewer]!) },
      label,
    );
    expect(list.statusCode, label).toBe(200);
    const comments = list.json().comments as Comment[];
    expect(ids(comments), `${label}: comments`).toEqual(
      liveComments(m, i)
        .filter((c) => seesCommentsOf(m, viewer, c.author))
        .map((c) => c.id)
        .sort(),
    );
    for (const comment of comments) {
      expectComment(
        m,
        comment,
        m.comments.findIndex((c) => c.id === comment._id),
        viewer,
        label,
      );
    }
  }
  for (const [i, user] of m.users.entries()) {
    const label = `run ${m.run} end: user u${i}`;
    const me = await send({ method: 'GET', url: `/api/users/${user.id}`, headers: auth(user) }, label);
    expect(me.statusCode, label).toBe(200);
    expectUser(m, me.json().user, i, label);
    const liked = await send({ method: 'GET', url: '/api/posts/liked?limit=50', headers: auth(user) }, label);
    expect(ids(liked.json().posts), `${label}: liked tab`).toEqual(
      livePosts(m)
        .filter((p) => p.likes.has(i) && !blockedPair(m, i, p.author))
        .map((p) => p.id)
        .sort(),
    );
    const saved = await send({ method: 'GET', url: '/api/users/bookmark?limit=50', headers: auth(user) }, label);
    expect(ids(saved.json().bookmarks), `${label}: saved tab`).toEqual(
      bookmarksOf(m, i)
        .filter(([, p]) => !blockedPair(m, i, m.posts[p!]!.author))
        .map(([, p]) => m.posts[p!]!.id)
        .sort(),
    );
  }
  stats.readBack += stats.requests - before;
}

/** Two users to start each run with (more come from signup steps). */
async function freshModel(run: number): Promise<Model> {
  const model: Model = {
    run,
    step: 0,
    users: [],
    posts: [],
    comments: [],
    follows: new Set(),
    bookmarks: new Set(),
    blocks: new Set(),
    mutes: new Set(),
    reports: new Set(),
  };
  const signup = new Step('signup', { u: 0, t: 0, blank: false, minimal: true });
  await signup.run(model);
  await signup.run(model);
  return model;
}

const args = fc.record({
  u: fc.nat(MAX_USERS - 1),
  t: fc.nat(63),
  blank: fc.nat(11).map((n) => n === 0),
  minimal: fc.nat(3).map((n) => n !== 0),
});
const step = (op: Op) => args.map((a) => new Step(op, a));
/** Reactions, votes and follows are the interesting rules: they come more often. */
const STEPS = [
  step('signup'),
  step('post'),
  step('post'),
  step('editPost'),
  step('deletePost'),
  step('like'),
  step('like'),
  step('dislike'),
  step('dislike'),
  step('comment'),
  step('comment'),
  step('editComment'),
  step('deleteComment'),
  step('upvote'),
  step('upvote'),
  step('downvote'),
  step('downvote'),
  step('follow'),
  step('follow'),
  step('unfollow'),
  step('unfollow'),
  step('bookmark'),
  step('unbookmark'),
  step('unbookmark'),
  step('block'),
  step('unblock'),
  step('mute'),
  step('unmute'),
  step('report'),
  step('deleteAccount'),
];

afterAllTests(async (failed) => {
  const statuses = Object.entries(stats.statuses)
    .map(([status, n]) => `${status} × ${n}`)
    .join(', ');
  const rows = Object.entries(stats.ops)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, n]) => `| ${op} | ${n.sent} | ${n.ok} | ${n.refused} |`);
  await writeReliabilitySection(
    'model',
    [
      `\`src/security/model.test.ts\`: ${stats.runs} runs of up to ${MAX_COMMANDS} random steps ` +
        `(${stats.steps} steps, the longest ${stats.longest}) against a model of the spec's rules; ` +
        `status, message, the answer and every counter and row of the run checked after each step.`,
      '',
      `- Seed ${SEED} (replay with \`MODEL_SEED=${SEED}\`).`,
      `- Requests sent: ${stats.requests} (${stats.requests - stats.readBack} steps, ${stats.readBack} end-of-run ` +
        `read-backs). Statuses seen: ${statuses}.`,
      `- Faults found: ${
        failed.length === 0
          ? 0
          : `${failed.length}: ${stats.failure?.split('\n').find((line) => line.startsWith('Counterexample')) ?? failed.join('; ')}`
      }.`,
      '',
      '| step | sent | accepted | refused as the model expected |',
      '| --- | ---: | ---: | ---: |',
      ...rows,
    ].join('\n'),
  );
  await ctx.close();
});

describe(`model-based API test (seed ${SEED}; replay with MODEL_SEED=${SEED})`, () => {
  it(`${RUNS} random runs agree with the model after every step`, async () => {
    let run = 0;
    const property = fc.asyncProperty(fc.commands(STEPS, { maxCommands: MAX_COMMANDS, size: 'max' }), async (steps) => {
      run += 1;
      stats.runs += 1;
      const model = await freshModel(run);
      await fc.asyncModelRun(() => ({ model, real: {} }), steps);
      stats.longest = Math.max(stats.longest, model.step);
      await expectThroughApi(model);
    });
    try {
      await fc.assert(property, { seed: SEED, numRuns: RUNS });
    } catch (error) {
      stats.failure = (error as Error).message;
      console.error(`model-based test failed: replay with MODEL_SEED=${SEED}`);
      throw error;
    }
    console.log(`model-based test: seed ${SEED}, ${stats.runs} runs, ${stats.steps} steps, ${stats.requests} requests`);
  }, 600_000);
});
