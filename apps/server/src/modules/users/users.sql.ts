import { eq, sql, type SQL } from 'drizzle-orm';
import { USER_CARD_LIST_CAP, USER_LIST_CAP } from '@share-arts/contract';
import { queryRows, queryRowsAfterLock, statementTemplate, type Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { notePublish, publish, publishSql } from '../../events/events.js';
import { notificationCtes } from '../../events/notification-rules.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { notBlockedWith } from '../safety/index.js';
import { openForCommissionsOf } from '../commissions/index.js';

export interface SummaryRow {
  _id: string;
  username: string;
  firstName: string;
  lastName: string;
  photoUrl: string | null;
}

export interface UserRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  email_verified: boolean;
  bio: string;
  link: string;
  photo_url: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  follower_count: number;
  following_count: number;
  post_count: number;
  bookmark_count: number;
  works_signed_in_only: boolean;
  ai_training_opt_out: boolean;
  sensitive_media: 'show' | 'blur' | 'hide';
  hide_ai_generated: boolean;
  allow_collecting: boolean;
  language: string | null;
  role: 'user' | 'moderator' | 'admin';
  /** Open for commissions (issue 42): the profile's badge and panel. */
  open_for_commissions: boolean;
  followers: SummaryRow[];
  following: SummaryRow[];
  /** Empty unless the viewer is this user. */
  bookmarks: string[];
  viewer_follows: boolean;
  follows_viewer: boolean;
  /** The viewer's follow of this person on another server waits for their server's Accept (issue 39). */
  viewer_requested: boolean;
  /** A shadow account (following out, issue 39): the remote person it is, by their handle and pages. */
  remote: RemoteOfRow | null;
  /** The account it moved to (issue 40, moving away), null when it did not move. */
  moved_to: PersonRow | null;
  /** Blocks and mutes (issue 23): the viewer's own choices, and whether this user blocked the viewer. */
  viewer_blocked: boolean;
  viewer_muted: boolean;
  blocked_viewer: boolean;
}

/** The remote person a shadow account is (following out, issue 39): their handle, profile page and actor id. */
export interface RemoteOfRow {
  handle: string;
  url: string | null;
  iri: string;
}

/** A shadow account's remote person (RemoteOfRow) as JSON, null for an account here. */
const REMOTE_OF = sql`(select json_build_object('handle', ra.handle, 'url', ra.profile_url, 'iri', ra.iri)
  from remote_actors ra where ra.id = u.remote_actor_id) as remote`;

/**
 * The account this one moved to (issue 40, moving away: `users.moved_to_id`) as a person (PersonRow), null when it
 * did not move.
 */
const MOVED_TO = sql`(select json_build_object('_id', m.id, 'username', m.username, 'firstName', m.first_name,
    'lastName', m.last_name, 'photoUrl', m.photo_url,
    'remote', (select json_build_object('handle', ra.handle, 'url', ra.profile_url, 'iri', ra.iri)
               from remote_actors ra where ra.id = m.remote_actor_id))
  from users m where m.id = u.moved_to_id) as moved_to`;

const summaryText = (alias: string) =>
  `json_build_object('_id', ${alias}.id, 'username', ${alias}.username, 'firstName', ${alias}.first_name, ` +
  `'lastName', ${alias}.last_name, 'photoUrl', ${alias}.photo_url)`;
const summaryJson = (alias: string) => sql.raw(summaryText(alias));

/** A person who did something: an account here (a summary), or a remote actor (issue 39) with `remote`. */
export interface PersonRow extends SummaryRow {
  /** Someone on another server: their handle, the profile page they named, and their actor id. */
  remote?: { handle: string; url: string | null; iri: string } | null;
}

/**
 * A PersonRow as JSON, of the account `user` (users) or, when that is null, the remote actor `remote`
 * (remote_actors) of the same row: the statement left-joins both.
 */
export const personJson = (user: string, remote: string): SQL =>
  sql.raw(
    `case when ${remote}.id is not null then json_build_object('_id', ${remote}.id, 'username', ${remote}.handle, ` +
      `'firstName', ${remote}.name, 'lastName', '', 'photoUrl', null, 'remote', json_build_object('handle', ` +
      `${remote}.handle, 'url', ${remote}.profile_url, 'iri', ${remote}.iri)) else ${summaryText(user)} end`,
  );

/**
 * The newest `cap` followers of user `u` (or people `u` follows) as summaries, newest first; the viewer
 * first whenever they are one of them, so "do I follow this user" (and "does this user follow me") is
 * always answered by the list. Both parts read the follows index of `u` in order, so a user with a
 * million followers costs the same as one with five; `count` is the counter of that side, and when it
 * is 0 nothing is looked up.
 */
function followListJson(side: 'followers' | 'following', viewerId: string | null, cap: number): SQL {
  const [own, other, count] =
    side === 'followers'
      ? ['followee_id', 'follower_id', 'u.follower_count']
      : ['follower_id', 'followee_id', 'u.following_count'];
  const [ownColumn, otherColumn] = [sql.raw(own), sql.raw(other)];
  const list =
    viewerId === null
      ? sql`coalesce((
          select json_agg(${summaryJson('s')} order by f.created_at desc)
          from (select ${otherColumn} as id, created_at from follows where ${ownColumn} = u.id
                order by created_at desc limit ${cap}) f
          join users s on s.id = f.id
        ), '[]'::json)`
      : sql`coalesce((
          select json_agg(${summaryJson('s')} order by f.rank)
          from (
            (select ${otherColumn} as id, 0::bigint as rank from follows
             where ${ownColumn} = u.id and ${otherColumn} = ${viewerId}::uuid)
            union all
            (select ${otherColumn}, row_number() over (order by created_at desc) from follows
             where ${ownColumn} = u.id and ${otherColumn} <> ${viewerId}::uuid
               and ${notBlockedWith(viewerId, otherColumn)}
             order by created_at desc limit ${cap})
            order by rank limit ${cap}
          ) f
          join users s on s.id = f.id
        ), '[]'::json)`;
  return sql`case when ${sql.raw(count)} = 0 then '[]'::json else ${list} end`;
}

/**
 * Whether the viewer follows user `u`, and whether `u` follows the viewer (neither without a viewer):
 * a primary-key probe each per row, never a hash of all the viewer's follows or followers.
 */
const viewerRelation = (viewerId: string | null) =>
  viewerId === null
    ? sql`false as viewer_follows, false as follows_viewer`
    : sql`
  coalesce((select true from follows vf where vf.follower_id = ${viewerId}::uuid and vf.followee_id = u.id), false)
    as viewer_follows,
  coalesce((select true from follows vf where vf.follower_id = u.id and vf.followee_id = ${viewerId}::uuid), false)
    as follows_viewer`;

/**
 * An account here, not a remote person's shadow account (issue 39, following out): only the lists a remote
 * person belongs on (their followers' Home, their profile, …) show them; people lists, search, suggestions and
 * `@` suggestions leave them out, and they can never sign in.
 */
const LOCAL = sql`u.remote_actor_id is null`;

export const byId = (userId: string) => sql`u.id = ${userId}::uuid`;
export const byUsername = (username: string) => sql`lower(u.username) = lower(${username})`;

/** Whether there is an account with this id. */
export async function userIdExists(db: Db, userId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select from users where id = ${userId}::uuid`);
  return rows.length > 0;
}

/**
 * Whether the account exists (a row) and is suspended now, with the end of the suspension (ISO; null for
 * good). Undefined when there is no such account.
 */
export async function selectAccountState(
  db: Db,
  userId: string,
): Promise<{ suspended: boolean; suspended_until: string | null } | undefined> {
  const [row] = await queryRows<{ suspended: boolean; suspended_until: string | null }>(
    db,
    sql`select coalesce(suspended_until > now(), false) as suspended,
               case when suspended_until = 'infinity' then null
                    else to_char(suspended_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') end as suspended_until
        from users where id = ${userId}::uuid`,
  );
  return row;
}

/** Whether anyone has this username, in any letter case. */
export async function usernameExists(db: Db, username: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select from users u where ${byUsername(username)}`);
  return rows.length > 0;
}

/**
 * The followers a profile shows: local accounts (`follower_count`, which `follows` keeps) and remote actors
 * (`remote_follower_count`, which the federation module's follows keep, issue 39).
 */
const FOLLOWER_COUNT = sql`(u.follower_count + u.remote_follower_count) as follower_count`;

const cardColumns = (viewerId: string | null) => sql`
  u.id, u.username, u.first_name, u.last_name, u.photo_url, u.bio, ${FOLLOWER_COUNT}, u.following_count,
  u.post_count, u.created_at, ${viewerRelation(viewerId)}, ${REMOTE_OF},
  ${openForCommissionsOf(sql`u.id`)} as open_for_commissions,
  ${followListJson('followers', viewerId, USER_CARD_LIST_CAP)} as followers,
  ${followListJson('following', viewerId, USER_CARD_LIST_CAP)} as following`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** How many people each way of matching may bring to a search: the most a search can page through. */
export const SEARCH_CANDIDATES = 200;

/**
 * The text just above every text that starts with `prefix`, in byte order (collation "C"): the prefix
 * with its last character raised by one. Passed as a value, the range keeps its index even in a
 * prepared statement's generic plan, where `like $1` could not use one.
 */
export function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  // Surrogates are not characters: the one after U+D7FF is U+E000.
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  return next > 0x10ffff ? `${prefix}\u{10FFFF}` : chars.join('') + String.fromCodePoint(next);
}

/** A person who matches a search, with the score it ranks by. */
export interface PeopleMatch {
  id: string;
  score: number;
}

/**
 * The people whose username or full name matches `q`, best first (score, then id, descending): a
 * prefix of the username or of a word of the name ranks first, then trigram similarity (typos, parts
 * of words). The same for every reader (the cards and the viewer's relations are read per page).
 *
 * The candidates are bounded, so a prefix shared by a great many people costs the same as a rare one:
 * the first SEARCH_CANDIDATES in byte order of each prefix index (the username, the full name, the last
 * name), and only when those are fewer, up to SEARCH_CANDIDATES trigram matches. Only the candidates
 * are scored and sorted.
 */
export async function selectPeopleMatches(db: Db, text: string): Promise<PeopleMatch[]> {
  const q = text.trim().toLowerCase();
  const prefix = `${escapeLike(q)}%`;
  const wordPrefix = `% ${escapeLike(q)}%`;
  const [from, to] = [q, prefixEnd(q)];
  const name = sql`lower(u.first_name || ' ' || u.last_name)`;
  const byPrefix = (key: SQL) => sql`(
    select u.id from users u
    where ${key} >= ${from} and ${key} < ${to} and ${LOCAL}
    order by ${key}, u.id
    limit ${SEARCH_CANDIDATES})`;
  const score = sql`(
    greatest(similarity(lower(u.username), ${q}), word_similarity(${q}, ${name}))
    + case when lower(u.username) like ${prefix} then 1 else 0 end
    + case when ${name} like ${prefix} or ${name} like ${wordPrefix} then 0.5 else 0 end
  )::float8`;
  return queryRows<PeopleMatch>(
    db,
    sql`with prefixed as materialized (
          ${byPrefix(sql`(lower(u.username) collate "C")`)}
          union ${byPrefix(sql`(${name} collate "C")`)}
          union ${byPrefix(sql`(lower(u.last_name) collate "C")`)}
        ), candidates as (
          select id from prefixed
          union (
            select u.id from users u
            where (lower(u.username) % ${q} or ${q} <% ${name}) and ${LOCAL}
              and (select count(*) from prefixed) < ${SEARCH_CANDIDATES}
            limit ${SEARCH_CANDIDATES}
          )
        )
        select u.id, ${score} as score
        from candidates c join users u on u.id = c.id
        order by score desc, u.id desc`,
    { planEachTime: true },
  );
}

/**
 * People to suggest as someone types `@` + `prefix` (lower case; anyone when empty): those the viewer
 * follows first, then others, each part by username, at most `limit` in all. Both parts are bounded: the
 * viewer's follows are read through their index and filtered, the others are the first usernames of
 * the prefix in byte order (users_username_prefix_idx), skipping the followed by a primary-key probe.
 */
export async function selectMentionable(
  db: Db,
  viewerId: string | null,
  prefix: string,
  limit: number,
): Promise<(SummaryRow & { followed: boolean })[]> {
  const username = sql`(lower(u.username) collate "C")`;
  const range = prefix ? sql`${username} >= ${prefix} and ${username} < ${prefixEnd(prefix)}` : sql`true`;
  const followed =
    viewerId === null
      ? sql`select null::uuid as id, null::text as sort_key where false`
      : sql`select u.id, lower(u.username) as sort_key from follows f join users u on u.id = f.followee_id
            where f.follower_id = ${viewerId}::uuid and ${range} and ${LOCAL} and ${notBlockedWith(viewerId, sql`u.id`)}
            order by ${username} limit ${limit}`;
  const notFollowed =
    viewerId === null
      ? sql`true`
      : sql`u.id <> ${viewerId}::uuid and not exists (
          select from follows f where f.follower_id = ${viewerId}::uuid and f.followee_id = u.id)
          and ${notBlockedWith(viewerId, sql`u.id`)}`;
  return queryRows(
    db,
    sql`with followed as (${followed}),
        others as (
          select u.id, lower(u.username) as sort_key from users u
          where ${range} and ${LOCAL} and ${notFollowed}
          order by ${username} limit ${limit}
        ),
        chosen as (
          select * from (
            select id, sort_key, true as followed from followed
            union all select id, sort_key, false from others
          ) both_parts
          order by followed desc, sort_key collate "C"
          limit ${limit}
        )
        select u.id as "_id", u.username, u.first_name as "firstName", u.last_name as "lastName",
               u.photo_url as "photoUrl", c.followed
        from chosen c join users u on u.id = c.id
        order by c.followed desc, c.sort_key collate "C"`,
  );
}

/** The cards of these users as the viewer sees them, in no particular order; missing ids are skipped. */
export function selectUserCardsByIds(db: Db, ids: string[], viewerId: string | null): Promise<UserCardRow[]> {
  return queryRows<UserCardRow>(
    db,
    sql`select ${cardColumns(viewerId)} from users u
        where u.id in (select value::uuid from json_array_elements_text(${JSON.stringify(ids)}::json))
          and ${viewerId === null ? sql`true` : notBlockedWith(viewerId, sql`u.id`)}`,
  );
}

/**
 * People the viewer does not follow yet: those followed by more of the people the viewer follows
 * first, then the most followed. Candidates are bounded (the 200 best friends-of-friends and the 200
 * most followed people), so the cost does not grow with the number of users. Keyset on
 * (mutual, follower_count, id).
 */
export async function selectSuggestions(
  db: Db,
  options: { viewerId: string; limit: number; cursor?: string | undefined },
): Promise<{ rows: UserCardRow[]; nextCursor: string | null }> {
  const viewer = sql`${options.viewerId}::uuid`;
  const keyset: Keyset = {
    columns: [sql`c.mutual`, sql`u.follower_count`, sql`u.id`],
    shape: ['int', 'int', 'uuid'],
    direction: 'desc',
  };
  const { after, orderBy, limit } = keysetQuery(keyset, options.cursor, options.limit);
  const rows = await queryRows<UserCardRow & { mutual: number }>(
    db,
    sql`with friends_of_friends as (
          select f2.followee_id as id, count(*)::int as mutual
          from follows f1 join follows f2 on f2.follower_id = f1.followee_id
          where f1.follower_id = ${viewer}
          group by f2.followee_id
          order by mutual desc
          limit 200
        ), popular as (
          select u.id, 0 as mutual from users u where ${LOCAL} order by u.follower_count desc, u.id desc limit 200
        ), candidates as (
          select id, max(mutual) as mutual from (
            select * from friends_of_friends union all select * from popular
          ) both_kinds group by id
        )
        select ${cardColumns(options.viewerId)}, c.mutual
        from candidates c join users u on u.id = c.id
        where u.id <> ${viewer} and ${LOCAL}
          and not exists (select 1 from follows f where f.follower_id = ${viewer} and f.followee_id = u.id)
          and ${notBlockedWith(options.viewerId, sql`u.id`)}
          and ${after}
        order by ${orderBy}
        ${limit}`,
  );
  const { page, nextCursor } = keysetPage(rows, options.limit, keyset.shape, (row) => [
    row.mutual,
    row.follower_count,
    row.id,
  ]);
  return { rows: page, nextCursor };
}

export interface UserCardRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  photo_url: string | null;
  bio: string;
  follower_count: number;
  following_count: number;
  post_count: number;
  viewer_follows: boolean;
  follows_viewer: boolean;
  created_at: string;
  followers: SummaryRow[];
  following: SummaryRow[];
  remote: RemoteOfRow | null;
  /** Open for commissions (issue 42): the "open" badge of search results. */
  open_for_commissions: boolean;
}

/** A page of users, newest first, keyset on (created_at, id). */
export async function selectUserCards(
  db: Db,
  options: { viewerId: string | null; limit: number; cursor?: string | undefined },
): Promise<{ rows: UserCardRow[]; nextCursor: string | null }> {
  const keyset: Keyset = { columns: [sql`u.created_at`, sql`u.id`], shape: ['date', 'uuid'], direction: 'desc' };
  const { after, orderBy, limit } = keysetQuery(keyset, options.cursor, options.limit);
  const rows = await queryRows<UserCardRow>(
    db,
    sql`select ${cardColumns(options.viewerId)}
        from users u
        where ${after} and ${LOCAL} and ${options.viewerId === null ? sql`true` : notBlockedWith(options.viewerId, sql`u.id`)}
        order by ${orderBy}
        ${limit}`,
  );
  const { page, nextCursor } = keysetPage(rows, options.limit, keyset.shape, (row) => [row.created_at, row.id]);
  return { rows: page, nextCursor };
}

/**
 * One round trip for a user with its newest followers and followings (each capped, see followListJson)
 * and, for the viewer's own user only, its newest bookmark ids.
 */
export async function selectUserWithLists(db: Db, where: SQL, viewerId: string | null): Promise<UserRow | undefined> {
  const bookmarks =
    viewerId === null
      ? sql`'[]'::json`
      : sql`case when u.id <> ${viewerId}::uuid then '[]'::json else coalesce((
             select json_agg(b.post_id order by b.created_at desc)
             from (select post_id, created_at from bookmarks where user_id = u.id
                   order by created_at desc limit ${USER_LIST_CAP}) b
           ), '[]'::json) end`;
  const rows = await queryRows<UserRow>(
    db,
    sql`
    select u.id, u.username, u.first_name, u.last_name, u.email, u.email_verified_at is not null as email_verified,
           u.bio, u.link, u.photo_url,
           u.created_at, u.updated_at, ${FOLLOWER_COUNT}, u.following_count, u.post_count, u.bookmark_count,
           u.works_signed_in_only, u.ai_training_opt_out, u.sensitive_media, u.hide_ai_generated, u.allow_collecting, u.language, u.role,
           ${followListJson('followers', viewerId, USER_LIST_CAP)} as followers,
           ${followListJson('following', viewerId, USER_LIST_CAP)} as following,
           ${bookmarks} as bookmarks,
           ${openForCommissionsOf(sql`u.id`)} as open_for_commissions,
           ${viewerRelation(viewerId)}, ${REMOTE_OF}, ${MOVED_TO},
           ${
             viewerId === null
               ? sql`false as viewer_blocked, false as viewer_muted, false as blocked_viewer, false as viewer_requested`
               : sql`exists (select from blocks b where b.blocker_id = ${viewerId}::uuid and b.blocked_id = u.id) as viewer_blocked,
           coalesce((select vf.pending from follows vf where vf.follower_id = ${viewerId}::uuid and vf.followee_id = u.id), false)
             as viewer_requested,
           exists (select from mutes m where m.muter_id = ${viewerId}::uuid and m.muted_id = u.id) as viewer_muted,
           exists (select from blocks b where b.blocker_id = u.id and b.blocked_id = ${viewerId}::uuid) as blocked_viewer`
           }
    from users u
    where ${where}
  `,
  );
  return rows[0];
}

/** A follower in a page of them: who, and when they followed (the page's order, with their id). */
export interface FollowerRow {
  id: string;
  created_at: Date | string;
  person: PersonRow;
}

/** The followers' order: the follow's time, then the follower's id, both descending (each side's own columns). */
const followerOrder = (time: string, id: string): Keyset => ({
  columns: [sql.raw(time), sql.raw(id)],
  shape: ['date', 'uuid'],
  direction: 'desc',
});

/**
 * A keyset page of the account's followers, newest follow first: accounts here (`follows`, on
 * follows_followee_idx) and remote actors (issue 39: `remote_follows`, on remote_follows_user_created_idx) in
 * one order, by the follow's time and the follower's id (an account's or a remote actor's, both uuids). Each
 * side reads at most a page past the cursor, in order, and the two are merged: a page costs the same with a
 * million followers as with five. Accounts in a blocked pair with the viewer are left out, as from the profile's
 * own list; everyone else is counted in the profile's follower count (`follower_count + remote_follower_count`).
 * Undefined when there is no such account (`userId` null: the URL's id is no uuid), or it blocked the viewer (it
 * is not there for them); a malformed cursor is a 400 either way.
 */
export async function selectFollowerPage(
  db: Db,
  userId: string | null,
  viewerId: string | null,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ page: FollowerRow[]; nextCursor: string | null } | undefined> {
  const local = keysetQuery(followerOrder('x.created_at', 'x.follower_id'), options.cursor, options.limit);
  const remote = keysetQuery(followerOrder('x.created_at', 'x.remote_actor_id'), options.cursor, options.limit);
  const merged = keysetQuery(followerOrder('f.created_at', 'f.id'), undefined, options.limit);
  if (userId === null) return undefined;
  const blockedViewer =
    viewerId === null
      ? sql`false`
      : sql`exists (select from blocks b where b.blocker_id = u.id and b.blocked_id = ${viewerId}::uuid)`;
  const [owner] = await queryRows<{ blocked_viewer: boolean }>(
    db,
    sql`select ${blockedViewer} as blocked_viewer from users u where u.id = ${userId}::uuid`,
  );
  if (!owner || owner.blocked_viewer) return undefined;
  const unblocked = viewerId === null ? sql`true` : notBlockedWith(viewerId, sql`x.follower_id`);
  const rows = await queryRows<FollowerRow>(
    db,
    sql`select f.id, f.created_at, ${personJson('u', 'ra')} as person
        from (
          (select x.follower_id as id, x.created_at, false as remote from follows x
           where x.followee_id = ${userId}::uuid and ${local.after} and ${unblocked}
           order by ${local.orderBy} ${local.limit})
          union all
          (select x.remote_actor_id, x.created_at, true from remote_follows x
           where x.user_id = ${userId}::uuid and ${remote.after}
           order by ${remote.orderBy} ${remote.limit})
        ) f
        left join users u on not f.remote and u.id = f.id
        left join remote_actors ra on f.remote and ra.id = f.id
        order by ${merged.orderBy}
        ${merged.limit}`,
  );
  return keysetPage(rows, options.limit, ['date', 'uuid'], (row) => [row.created_at, row.id]);
}

export async function selectCredentialsByUsername(
  db: Db,
  username: string,
): Promise<
  | { id: string; username: string; password_hash: string; suspended: boolean; suspended_until: string | null }
  | undefined
> {
  const rows = await queryRows<{
    id: string;
    username: string;
    password_hash: string;
    suspended: boolean;
    suspended_until: string | null;
  }>(
    db,
    sql`select id, username, password_hash, coalesce(suspended_until > now(), false) as suspended,
               case when suspended_until = 'infinity' then null
                    else to_char(suspended_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') end as suspended_until
        from users where lower(username) = lower(${username}) and remote_actor_id is null`,
  );
  return rows[0];
}

/**
 * A new account. Every process's people searches must find it: the event leaves with the row (NOTIFY is
 * sent on commit). A taken username (in any letter case) fails on users_username_lower_key.
 */
export async function insertUser(
  db: Db,
  user: Pick<typeof users.$inferInsert, 'username' | 'firstName' | 'lastName' | 'email' | 'passwordHash'>,
): Promise<{ id: string; username: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(users).values(user).returning({ id: users.id, username: users.username });
    await publish(tx, { type: 'user-joined', userId: row!.id });
    return row!;
  });
}

/** Stores a password hashed again with the current scheme or cost (see lib/password.ts). */
export async function updatePasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export type ProfileChanges = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'firstName'
    | 'lastName'
    | 'email'
    | 'bio'
    | 'link'
    | 'photoMediaId'
    | 'photoUrl'
    | 'worksSignedInOnly'
    | 'aiTrainingOptOut'
    | 'sensitiveMedia'
    | 'hideAiGenerated'
    | 'allowCollecting'
    | 'language'
  >
>;

/** The id of the user's uploaded photo, if any. */
export async function selectPhotoMediaId(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ id: users.photoMediaId }).from(users).where(eq(users.id, userId));
  return row?.id ?? null;
}

/** The fields of a profile its public copies show (the fediverse's actor). */
const PROFILE_SHOWN = [
  'firstName',
  'lastName',
  'bio',
  'link',
  'photoUrl',
  'worksSignedInOnly',
  'aiTrainingOptOut',
] as const satisfies readonly (keyof ProfileChanges)[];

/**
 * Writes a profile edit. Posts show their author's name and photo: when those change, every process
 * drops its cached copies (`author-changed`); when what the profile shows changes, `profile-changed` (issue 39).
 * `found` is false when there is no such user.
 */
export async function updateProfileRow(
  db: Db,
  userId: string,
  changes: ProfileChanges,
): Promise<{ found: boolean; authorChanged: boolean }> {
  const updated = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  if (updated.length === 0) return { found: false, authorChanged: false };
  const authorChanged =
    changes.firstName !== undefined || changes.lastName !== undefined || changes.photoUrl !== undefined;
  if (authorChanged) await publish(db, { type: 'author-changed', userId });
  // What the fediverse's copy of the profile shows (issue 39): the federation module sends an Update of the actor.
  if (PROFILE_SHOWN.some((field) => changes[field] !== undefined)) {
    await publish(db, { type: 'profile-changed', userId });
  }
  return { found: true, authorChanged };
}

/** What a follow or unfollow did: `found` false for no such user, `changed` false for nothing to do. */
export interface FollowOutcome {
  found: boolean;
  changed: boolean;
  /** When the two are a blocked pair: who blocked (nothing was written). */
  blocker?: string;
  /**
   * The followee is someone on another server (a shadow account, issue 39): their server hears a `Follow`, or the
   * `Undo` of the one named `activity_id` (the follow row's, written or deleted).
   */
  remote?: boolean;
  activity_id?: string | null;
  /**
   * Why a follow of someone on another server was refused (nothing was written): their server is suspended here,
   * the follower blocks them or they block the follower (their `Block`, `remote_blocks`), or there is no Follow to
   * send (no site address: `activityId` empty).
   */
  refused?: 'suspended' | 'blocked' | 'blocksYou' | 'unsendable';
}

/**
 * A follow's or unfollow's two statements (see setFollowRow), built once each (statementTemplate): the
 * lock, which also asks whether the two are a blocked pair, and the write.
 */
const followStatements = statementTemplate(
  (
    kind: 'follow' | 'unfollow',
    { followerId, followeeId, activityId }: Record<'followerId' | 'followeeId' | 'activityId', string>,
  ) => {
    const follow = kind === 'follow';
    const follower = sql`${followerId}::uuid`;
    const followee = sql`${followeeId}::uuid`;
    const notifications = notificationCtes(
      { recipientId: followee, actorId: follower, kind: 'follow' },
      { from: sql`changed`, notifyWhen: sql`${follow}::boolean`, withdrawWhen: sql`not ${follow}::boolean` },
    );
    // A follow of someone on another server waits for their server's Accept (`pending`) and keeps the id of the
    // Follow sent, which its Undo and their Accept name.
    const change = follow
      ? sql`insert into follows (follower_id, followee_id, pending, activity_id)
          select ${follower}, id, remote, case when remote then ${activityId}::text end from pair where id = ${followee}
          on conflict do nothing returning followee_id, activity_id`
      : sql`delete from follows where follower_id = ${follower} and followee_id = ${followee}
          and exists (select from pair where id = ${followee}) returning followee_id, activity_id`;
    return {
      // The follower's own block first, so they are told why.
      // Someone on another server (a shadow account, issue 39) is followed unless their server is suspended here (a
      // block of a domain covers its subdomains, as federation.safety.ts reads it), or the follower blocks them, or
      // they block the follower.
      lock: sql`select (
            select blocker_id from blocks
            where (blocker_id = ${follower} and blocked_id = ${followee}) or (blocker_id = ${followee} and blocked_id = ${follower})
            order by blocker_id = ${follower} desc limit 1
          ) as blocker,
          id, remote_actor_id is not null as remote,
          remote_actor_id is not null and exists (
            select from remote_person_blocks rb where rb.user_id = ${follower} and rb.remote_actor_id = users.remote_actor_id
          ) as remote_blocked,
          remote_actor_id is not null and exists (
            select from remote_actors ra join remote_blocks rb on rb.actor_iri = ra.iri
            where ra.id = users.remote_actor_id and rb.user_id = ${follower}
          ) as remote_blocks_follower,
          remote_actor_id is not null and exists (
            select from remote_actors ra, server_blocks sb
            where ra.id = users.remote_actor_id and sb.severity = 'suspend'
              and (lower(substring(ra.iri from '^[a-z]+://([^/:?#]+)')) = sb.domain
                or lower(substring(ra.iri from '^[a-z]+://([^/:?#]+)')) like '%.' || sb.domain)
          ) as remote_suspended
          from users where id in (${follower}, ${followee}) order by id for no key update`,
      statement: sql`with pair as (
          select id, follower_count, following_count, remote_actor_id is not null as remote
          from users where id in (${follower}, ${followee})
        ),
        changed as (${change}),
        counted as (
          update users u set
            following_count = pair.following_count + case when u.id = ${follower} then ${follow ? 1 : -1}::int else 0 end,
            follower_count = pair.follower_count + case when u.id = ${followee} then ${follow ? 1 : -1}::int else 0 end
          from pair, changed where u.id = pair.id
        ),
        ${notifications.ctes}
        select exists (select from pair where id = ${followee}) as found, exists (select from changed) as changed,
          coalesce((select remote from pair where id = ${followee}), false) as remote,
          (select activity_id from changed) as activity_id,
          (select count(${publishSql({ type: 'viewer-changed', userId: sql`${followerId}::text` })}) from changed) as viewer_noted,
          ${notifications.events}`,
    };
  },
);

/**
 * A follow or unfollow: both user rows are locked first, in id order, as every write that changes two
 * users' rows does (A following B while B follows A cannot deadlock), by a statement that also finds a block
 * between them (then nothing is written); then one statement, with a snapshot taken under that lock
 * (queryRowsAfterLock), adds the follow row (ON CONFLICT DO NOTHING: of two identical requests, one adds it)
 * or removes it, and writes both users' counters, the notification and its events.
 */
export async function setFollowRow(
  db: Db,
  followerId: string,
  followeeId: string,
  follow: boolean,
  /** The id of the Follow to send when the followee is on another server; empty when none can be sent. */
  activityId = '',
): Promise<FollowOutcome> {
  const { lock, statement } = followStatements(follow ? 'follow' : 'unfollow', { followerId, followeeId, activityId });
  // Its events are written by a statement built once: this process writes events now (see events/outbox.ts).
  notePublish();
  let blocker: string | undefined;
  let refused: FollowOutcome['refused'];
  const [outcome] = await queryRowsAfterLock<FollowOutcome>(db, lock, statement, (locked) => {
    blocker = locked.find((row) => row.blocker)?.blocker as string | undefined;
    // Only a new follow is refused: an unfollow of someone on another server always ends it.
    const remote = follow ? locked.find((row) => row.id === followeeId.toLowerCase() && row.remote) : undefined;
    if (remote) {
      refused = remote.remote_blocked
        ? 'blocked'
        : remote.remote_blocks_follower
          ? 'blocksYou'
          : remote.remote_suspended
            ? 'suspended'
            : undefined;
      if (!refused && !activityId) refused = 'unsendable';
    }
    return blocker === undefined && refused === undefined;
  });
  if (blocker) return { found: true, changed: false, blocker };
  return refused ? { found: true, changed: false, remote: true, refused } : outcome!;
}

/** Which of `userIds` follow `followeeId` (the live stream's "following" flag on a new post). */
export async function selectFollowersAmong(db: Db, followeeId: string, userIds: string[]): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select follower_id as id from follows
        where followee_id = ${followeeId}::uuid
          and follower_id in (select value::uuid from json_array_elements_text(${JSON.stringify(userIds)}::json))`,
  );
  return rows.map((row) => row.id);
}

/** The account's email address; undefined when there is no such account. */
export async function selectEmail(db: Db, userId: string): Promise<string | undefined> {
  const rows = await queryRows<{ email: string }>(db, sql`select email from users where id = ${userId}::uuid`);
  return rows[0]?.email;
}

/** A new address for the account (unconfirmed: a trigger of migration 0020 clears the confirmation). */
export async function updateEmail(db: Db, userId: string, email: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update users set email = ${email} where id = ${userId}::uuid returning id`,
  );
  return rows.length === 1;
}

/**
 * Puts an address back (the undo link of an email change, issue 38), confirmed: the link mailed to it proved
 * it is read by the owner. Two statements, as the trigger clears the confirmation when the address changes.
 */
export async function restoreEmail(db: Db, userId: string, email: string, now: Date): Promise<void> {
  await db.execute(sql`update users set email = ${email} where id = ${userId}::uuid`);
  await db.execute(sql`update users set email_verified_at = ${now.toISOString()} where id = ${userId}::uuid`);
}
