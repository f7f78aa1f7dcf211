import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ERRORS } from '@share-arts/contract';
import { queryRows } from '../db/client.js';
import { createTestApp, signUp, type SignedUp, type TestContext } from '../test/helpers.js';
import { afterAllTests, createComment, createPost, prng } from './fixtures.js';
import { writeReliabilitySection } from '../../../../scripts/reliability-report.mjs';

/**
 * Counters under concurrency (issue 8): 50 users and 10 posts. Every user toggles likes and dislikes,
 * comment votes, follows and bookmarks, all users at once with 16 requests in flight. Each user's actions
 * on one target run in order, so every answer can be checked against what that user did before (a like
 * is refused exactly when the user already likes the post, …) and the rows afterwards are exactly the
 * ones the answers announced. Then every counter equals the rows it counts and no pair is duplicated.
 * Last, 100 identical concurrent requests of one user (like, bookmark, follow, upvote) succeed exactly once.
 */

const SEED = Number(process.env.COUNTERS_SEED ?? 20261122);
const USERS = 50;
const POSTS = 10;
const COMMENTS_PER_POST = 2;
const IN_FLIGHT = 16;
const IDENTICAL = 100;

let ctx: TestContext;
let users: SignedUp[] = [];
let posts: { id: string; author: number }[] = [];
let comments: { id: string; postId: string }[] = [];

const stats = {
  requests: 0,
  peakInFlight: 0,
  statuses: {} as Record<string, Record<number, number>>,
  checked: { posts: 0, comments: 0, users: 0 },
  races: [] as string[],
};

/** A small promise pool: at most `size` requests in flight; a freed slot goes to the next waiting request. */
function promisePool(size: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < size) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    stats.peakInFlight = Math.max(stats.peakInFlight, active);
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

async function send(op: string, options: InjectOptions): Promise<LightMyRequestResponse> {
  stats.requests += 1;
  const response = await ctx.app.inject(options);
  const seen = (stats.statuses[op] ??= {});
  seen[response.statusCode] = (seen[response.statusCode] ?? 0) + 1;
  expect(response.statusCode, `${op} ${options.url}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  return response;
}

const post = (op: string, url: string, who: SignedUp) =>
  send(op, { method: 'POST', url, headers: { authorization: who.token, prefer: 'return=minimal' } });
const errorOf = (response: LightMyRequestResponse) => response.json().errors[0] as string;

beforeAll(async () => {
  ctx = await createTestApp();
  const setup = promisePool(IN_FLIGHT);
  users = await Promise.all(Array.from({ length: USERS }, () => setup(() => signUp(ctx.app))));
  posts = await Promise.all(
    Array.from({ length: POSTS }, (_, i) =>
      setup(async () => ({ id: await createPost(ctx.app, users[i]!, `Counter post ${i}`), author: i })),
    ),
  );
  comments = await Promise.all(
    posts.flatMap((p, i) =>
      Array.from({ length: COMMENTS_PER_POST }, (_, k) =>
        setup(async () => ({
          id: await createComment(ctx.app, users[(i + 10 + k * 7) % USERS]!, p.id),
          postId: p.id,
        })),
      ),
    ),
  );
}, 120_000);

/** Every counter of the database against the rows it counts, and every pair key checked for duplicates. */
async function counterMismatches() {
  const [row] = await queryRows<{
    posts: unknown[];
    comments: unknown[];
    users: unknown[];
    duplicates: unknown[];
    checked: { posts: number; comments: number; users: number };
  }>(
    ctx.database.db,
    sql`select
      coalesce((select json_agg(x) from (
        select p.id, p.like_count, p.dislike_count, p.comment_count,
               (select count(*)::int from post_reactions r where r.post_id = p.id and r.kind = 'like') as likes,
               (select count(*)::int from post_reactions r where r.post_id = p.id and r.kind = 'dislike') as dislikes,
               (select count(*)::int from comments c where c.post_id = p.id and c.moderation_state is null) as comment_rows
        from posts p) x
        where like_count <> likes or dislike_count <> dislikes or comment_count <> comment_rows), '[]') as posts,
      coalesce((select json_agg(x) from (
        select c.id, c.upvote_count, c.downvote_count,
               (select count(*)::int from comment_votes v where v.comment_id = c.id and v.kind = 'up') as ups,
               (select count(*)::int from comment_votes v where v.comment_id = c.id and v.kind = 'down') as downs
        from comments c) x
        where upvote_count <> ups or downvote_count <> downs), '[]') as comments,
      coalesce((select json_agg(x) from (
        select u.id, u.follower_count, u.following_count, u.bookmark_count, u.post_count,
               (select count(*)::int from follows f where f.followee_id = u.id) as followers,
               (select count(*)::int from follows f where f.follower_id = u.id) as following,
               (select count(*)::int from bookmarks b where b.user_id = u.id) as saved,
               (select count(*)::int from posts p where p.author_id = u.id) as authored
        from users u) x
        where follower_count <> followers or following_count <> following or bookmark_count <> saved
           or post_count <> authored), '[]') as users,
      coalesce((select json_agg(x) from (
        select 'post_reactions' as t, post_id::text as a, user_id::text as b from post_reactions
          group by post_id, user_id having count(*) > 1
        union all select 'comment_votes', comment_id::text, user_id::text from comment_votes
          group by comment_id, user_id having count(*) > 1
        union all select 'follows', follower_id::text, followee_id::text from follows
          group by follower_id, followee_id having count(*) > 1
        union all select 'bookmarks', user_id::text, post_id::text from bookmarks
          group by user_id, post_id having count(*) > 1) x), '[]') as duplicates,
      json_build_object('posts', (select count(*)::int from posts), 'comments', (select count(*)::int from comments),
                        'users', (select count(*)::int from users)) as checked`,
  );
  stats.checked = row!.checked;
  return { posts: row!.posts, comments: row!.comments, users: row!.users, duplicates: row!.duplicates };
}

/** The rows of the four pair tables, as sorted `a b kind` strings. */
async function pairRows() {
  const [row] = await queryRows<Record<'reactions' | 'votes' | 'follows' | 'bookmarks', string[] | null>>(
    ctx.database.db,
    sql`select
      (select json_agg(post_id || ' ' || user_id || ' ' || kind) from post_reactions) as reactions,
      (select json_agg(comment_id || ' ' || user_id || ' ' || kind) from comment_votes) as votes,
      (select json_agg(follower_id || ' ' || followee_id) from follows) as follows,
      (select json_agg(user_id || ' ' || post_id) from bookmarks) as bookmarks`,
  );
  return Object.fromEntries(Object.entries(row!).map(([key, list]) => [key, [...(list ?? [])].sort()]));
}

/**
 * One user's actions on one target, in order. `state` is what the user's earlier answers established;
 * each answer must agree with it (accepted exactly when the rules allow, given that state).
 */
interface Chain {
  kind: 'reactions' | 'votes' | 'follows' | 'bookmarks';
  key: string;
  state: string | null;
  steps: { op: string; url: string; who: SignedUp; next: string | null }[];
}

function buildChains(): Chain[] {
  const rand = prng(SEED);
  const chains: Chain[] = [];
  const length = () => 1 + rand.int(3);
  for (const [u, who] of users.entries()) {
    for (const p of posts) {
      const steps = Array.from({ length: length() }, () => {
        const op = rand.pick(['like', 'dislike'] as const);
        return { op, url: `/api/posts/${op}/${p.id}`, who, next: op };
      });
      chains.push({ kind: 'reactions', key: `${p.id} ${who.user._id}`, state: null, steps });
    }
    for (const c of comments.filter(() => rand.next() < 0.3)) {
      const steps = Array.from({ length: length() }, () => {
        const op = rand.pick(['upvote', 'downvote'] as const);
        return { op, url: `/api/comments/${op}/${c.postId}/${c.id}`, who, next: op === 'upvote' ? 'up' : 'down' };
      });
      chains.push({ kind: 'votes', key: `${c.id} ${who.user._id}`, state: null, steps });
    }
    for (const target of users.filter((_, t) => t !== u && rand.next() < 0.2)) {
      const steps = Array.from({ length: length() }, () => {
        const op = rand.pick(['follow', 'unfollow'] as const);
        return { op, url: `/api/users/${op}/${target.user._id}`, who, next: op === 'follow' ? '' : null };
      });
      chains.push({ kind: 'follows', key: `${who.user._id} ${target.user._id}`, state: null, steps });
    }
    for (const p of posts.filter(() => rand.next() < 0.4)) {
      const steps = Array.from({ length: length() }, () => {
        const op = rand.pick(['bookmark', 'remove-bookmark'] as const);
        return { op, url: `/api/users/${op}/${p.id}`, who, next: op === 'bookmark' ? '' : null };
      });
      chains.push({ kind: 'bookmarks', key: `${who.user._id} ${p.id}`, state: null, steps });
    }
  }
  // Shuffled, so that each user's chains interleave with everyone else's.
  for (let i = chains.length - 1; i > 0; i--) {
    const j = rand.int(i + 1);
    [chains[i], chains[j]] = [chains[j]!, chains[i]!];
  }
  return chains;
}

/**
 * What the rules allow for `op` from a user whose earlier answers left them in `state`: accepted, refused
 * (with one of these messages), or either ('maybe': a dislike at likeCount 0 is refused, and other users'
 * likes decide the count).
 */
function rules(op: string, state: string | null): { accept: boolean | 'maybe'; refusals: string[] } {
  const refuse = (...refusals: string[]) => ({ accept: false, refusals });
  const accept = { accept: true, refusals: [] };
  switch (op) {
    case 'like':
      return state === 'like' ? refuse(ERRORS.alreadyLiked) : accept;
    case 'dislike':
      if (state === 'dislike') return refuse(ERRORS.alreadyDisliked, ERRORS.likeBelowZero);
      // A user who likes the post keeps likeCount at 1 or more: the dislike must be accepted.
      return state === 'like' ? accept : { accept: 'maybe', refusals: [ERRORS.likeBelowZero] };
    case 'upvote':
      return state === 'up' ? refuse(ERRORS.alreadyUpvoted) : accept;
    case 'downvote':
      return state === 'down' ? refuse(ERRORS.alreadyDownvoted) : accept;
    case 'follow':
      return state !== null ? refuse(ERRORS.alreadyFollowing) : accept;
    case 'unfollow':
      return state === null ? refuse(ERRORS.notFollowing) : accept;
    case 'bookmark':
      return state !== null ? refuse(ERRORS.alreadyBookmarked) : accept;
    default:
      return state === null ? refuse(ERRORS.notBookmarked) : accept;
  }
}

afterAllTests(async (failed) => {
  const statuses = Object.entries(stats.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([op, seen]) =>
        `| ${op} | ${Object.values(seen).reduce((a, b) => a + b, 0)} | ${Object.entries(seen)
          .map(([status, n]) => `${status} × ${n}`)
          .join(', ')} |`,
    );
  await writeReliabilitySection(
    'counters',
    [
      `\`src/security/counters.test.ts\`: ${users.length} users, ${posts.length} posts, ${comments.length} comments; ` +
        `every user toggles likes, comment votes, follows and bookmarks at once, ${IN_FLIGHT} requests in flight ` +
        `(peak observed ${stats.peakInFlight}). Seed ${SEED} (replay with \`COUNTERS_SEED=${SEED}\`).`,
      '',
      `- Requests sent: ${stats.requests}. Faults found: ${
        failed.length === 0 ? 0 : `${failed.length} (failed: ${failed.join('; ')}); see the test output`
      }.`,
      ...(failed.length > 0
        ? []
        : [
            "- Every answer agreed with the user's own earlier answers, and the rows afterwards are exactly the " +
              'ones the answers announced.',
            `- Counters checked against their rows: ${stats.checked.posts} posts (likes, dislikes, comments), ` +
              `${stats.checked.comments} comments (up and down votes), ${stats.checked.users} users (followers, ` +
              'following, bookmarks, posts): 0 mismatches; 0 duplicated pairs.',
          ]),
      ...stats.races.map((race) => `- ${race}`),
      '',
      '| request | sent | statuses |',
      '| --- | ---: | --- |',
      ...statuses,
    ].join('\n'),
  );
  await ctx.close();
});

describe(`counters under concurrency (seed ${SEED}; replay with COUNTERS_SEED=${SEED})`, () => {
  it(`${USERS} users toggling at once, ${IN_FLIGHT} in flight: answers agree, counters equal their rows`, async () => {
    const chains = buildChains();
    const limit = promisePool(IN_FLIGHT);
    await Promise.all(
      chains.map(async (chain) => {
        for (const step of chain.steps) {
          const response = await limit(() => post(step.op, step.url, step.who));
          const label = `${step.op} ${step.url} by ${step.who.user.username} after ${JSON.stringify(chain.state)}`;
          const allowed = rules(step.op, chain.state);
          if (response.statusCode === 400) {
            expect(allowed.accept, `${label}: refused with ${errorOf(response)}`).not.toBe(true);
            expect(allowed.refusals, `${label}: refused with ${errorOf(response)}`).toContain(errorOf(response));
          } else {
            expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBe(
              step.url.startsWith('/api/users/') ? 200 : 201,
            );
            expect(allowed.accept, `${label}: accepted`).not.toBe(false);
            chain.state = step.next;
          }
        }
      }),
    );
    expect(stats.peakInFlight).toBe(IN_FLIGHT);

    const expected: Record<string, string[]> = { reactions: [], votes: [], follows: [], bookmarks: [] };
    for (const chain of chains) {
      if (chain.state !== null) expected[chain.kind]!.push(chain.state ? `${chain.key} ${chain.state}` : chain.key);
    }
    for (const list of Object.values(expected)) list.sort();
    expect(await pairRows()).toEqual(expected);
    expect(await counterMismatches()).toEqual({ posts: [], comments: [], users: [], duplicates: [] });

    // The API shows the same counts.
    for (const p of posts) {
      const response = await send('read', { method: 'GET', url: `/api/posts/${p.id}` });
      const likes = expected.reactions!.filter((r) => r.startsWith(p.id) && r.endsWith(' like')).length;
      expect(response.json().post.likes.likeCount).toBe(likes);
    }
    console.log(`counters: seed ${SEED}, ${chains.length} chains, ${stats.requests} requests`);
  }, 300_000);

  it('follows in opposite directions at once all succeed (no deadlock), and their counters stay exact', async () => {
    // Neighbours on a ring follow each other at the same moment, then unfollow: every pair of requests
    // touches the same two users' rows from opposite ends.
    const ring = await Promise.all(Array.from({ length: 24 }, () => signUp(ctx.app)));
    for (let round = 0; round < 3; round++) {
      for (const op of ['follow', 'unfollow']) {
        const responses = await Promise.all(
          ring.flatMap((a, i) => {
            const b = ring[(i + 1) % ring.length]!;
            return [
              post(`${op} (ring)`, `/api/users/${op}/${b.user._id}`, a),
              post(`${op} (ring)`, `/api/users/${op}/${a.user._id}`, b),
            ];
          }),
        );
        for (const response of responses) expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      }
    }
    expect(await counterMismatches()).toEqual({ posts: [], comments: [], users: [], duplicates: [] });
    stats.races.push(
      `${ring.length} users on a ring following and unfollowing both neighbours at once, 3 rounds: ` +
        `${3 * 4 * ring.length} requests, all 200.`,
    );
  });

  it(`${IDENTICAL} identical concurrent requests of one user succeed exactly once`, async () => {
    const me = await signUp(ctx.app);
    const target = users[1]!;
    const p = posts[2]!;
    const c = comments[3]!;
    const cases = [
      {
        op: 'like',
        url: `/api/posts/like/${p.id}`,
        ok: 201,
        n: sql`select like_count as n from posts where id = ${p.id}`,
      },
      {
        op: 'bookmark',
        url: `/api/users/bookmark/${p.id}`,
        ok: 200,
        n: sql`select bookmark_count as n from users where id = ${me.user._id}`,
      },
      {
        op: 'follow',
        url: `/api/users/follow/${target.user._id}`,
        ok: 200,
        n: sql`select follower_count as n from users where id = ${target.user._id}`,
      },
      {
        op: 'upvote',
        url: `/api/comments/upvote/${c.postId}/${c.id}`,
        ok: 201,
        n: sql`select upvote_count as n from comments where id = ${c.id}`,
      },
    ];
    for (const race of cases) {
      const count = async () => (await queryRows<{ n: number }>(ctx.database.db, race.n))[0]!.n;
      const before = await count();
      const responses = await Promise.all(
        Array.from({ length: IDENTICAL }, () => post(`${race.op} ×${IDENTICAL}`, race.url, me)),
      );
      const statuses = responses.map((r) => r.statusCode);
      expect(
        statuses.filter((s) => s === race.ok),
        race.op,
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 400),
        race.op,
      ).toHaveLength(IDENTICAL - 1);
      const after = await count();
      expect(after - before, `${race.op}: the count moved by exactly one`).toBe(1);
      stats.races.push(
        `${IDENTICAL} identical concurrent ${race.op} requests of one user: 1 × ${race.ok}, ` +
          `${IDENTICAL - 1} × 400; the count went from ${before} to ${after}.`,
      );
    }
    expect(await counterMismatches()).toEqual({ posts: [], comments: [], users: [], duplicates: [] });
  });
});
