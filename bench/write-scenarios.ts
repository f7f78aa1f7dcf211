/**
 * The write scenarios of issue 26, shared by bench:api and bench/writes.ts. Each connection acts as one
 * bench user (number `user`, 2 to 51 at 50 connections) and toggles: like then dislike (the heart's
 * "unlike"), or follow then unfollow.
 *
 * - like/dislike mix: each user on a post of its own (bench-post-(1000 + user)): no contention on a row.
 * - viral post: every user on the same post, the most liked one.
 * - popular artist: 50 posts of the most followed user, user n on post n mod 50 (each like notifies them).
 * - follow/unfollow mix: each user follows someone of its own in the middle of the bench users.
 *
 * After a run, `checkCounts` counts the reaction and follow rows of every row the load touched and
 * compares them with the stored counters: a like that counted twice or not at all shows there.
 */
import { hash } from 'node:crypto';
import type pg from 'pg';

export const uuidOf = (text: string) => {
  const hex = hash('md5', text, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
export const benchUserId = (n: number) => uuidOf(`bench-user-${n}`);

export interface WriteScenario {
  name: string;
  /** The two requests connection `user` alternates. */
  requests(user: number): { method: 'POST'; path: string; headers?: Record<string, string> }[];
}

export interface WriteTargets {
  scenarios: WriteScenario[];
  /** The posts whose likes the scenarios change, and the users whose follows they change. */
  posts: string[];
  users: string[];
}

const toggle = (kind: 'posts' | 'users', on: string, off: string, id: string) => [
  { method: 'POST' as const, path: `/api/${kind}/${on}/${id}`, headers: { prefer: 'return=minimal' } },
  { method: 'POST' as const, path: `/api/${kind}/${off}/${id}`, headers: { prefer: 'return=minimal' } },
];

/** The scenarios on a seeded database (`connections` users, numbered from 2). */
export async function writeTargets(client: pg.Client, connections: number): Promise<WriteTargets> {
  const {
    rows: [sizes],
  } = await client.query<{ users: number }>('select count(*)::int as users from users');
  // Someone in the middle of the bench users (who exist in a small database too), not followed yet.
  const followBase = Math.floor((sizes!.users - 5) / 2);
  const ownPost = (user: number) => uuidOf(`bench-post-${1000 + user}`);
  const {
    rows: [viral],
  } = await client.query<{ id: string }>('select id from posts order by like_count desc, id limit 1');
  const { rows: artistPosts } = await client.query<{ id: string }>(
    `select p.id from posts p
     where p.author_id = (select u.id from users u where (select count(*) from posts x where x.author_id = u.id) >= 50
                          order by u.follower_count desc limit 1)
     order by p.created_at desc, p.id limit 50`,
  );
  if (artistPosts.length < 50) throw new Error('No user has 50 posts: seed with bench:seed first.');
  const users = Array.from({ length: connections }, (_, i) => i + 2);
  return {
    scenarios: [
      { name: 'like/dislike mix', requests: (user) => toggle('posts', 'like', 'dislike', ownPost(user)) },
      { name: 'viral post (50 on one post)', requests: () => toggle('posts', 'like', 'dislike', viral!.id) },
      {
        name: 'popular artist (50 posts of one author)',
        requests: (user) => toggle('posts', 'like', 'dislike', artistPosts[user % 50]!.id),
      },
      {
        name: 'follow/unfollow mix',
        requests: (user) => toggle('users', 'follow', 'unfollow', benchUserId(followBase + user)),
      },
    ],
    posts: [...users.map(ownPost), viral!.id, ...artistPosts.map((p) => p.id)],
    users: [...users.map(benchUserId), ...users.map((user) => benchUserId(followBase + user))],
  };
}

/** Every touched post's like and dislike counts and every touched user's follow counts against their rows. */
export async function checkCounts(
  client: pg.Client,
  targets: WriteTargets,
): Promise<{ checked: number; wrong: string[] }> {
  const { rows: posts } = await client.query<{ id: string; stored: string; counted: string }>(
    `select p.id, p.like_count || '/' || p.dislike_count as stored, r.likes || '/' || r.dislikes as counted
     from posts p cross join lateral (
       select count(*) filter (where kind = 'like') as likes, count(*) filter (where kind = 'dislike') as dislikes
       from post_reactions where post_id = p.id) r
     where p.id = any($1::uuid[])`,
    [[...new Set(targets.posts)]],
  );
  const { rows: users } = await client.query<{ id: string; stored: string; counted: string }>(
    `select u.id, u.follower_count || '/' || u.following_count as stored,
       (select count(*) from follows where followee_id = u.id) || '/' || (select count(*) from follows where follower_id = u.id) as counted
     from users u where u.id = any($1::uuid[])`,
    [[...new Set(targets.users)]],
  );
  const wrong = [...posts, ...users]
    .filter((row) => row.stored !== row.counted)
    .map((row) => `${row.id}: stored ${row.stored}, rows ${row.counted}`);
  return { checked: posts.length + users.length, wrong };
}
