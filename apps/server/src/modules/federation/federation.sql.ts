import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { keysetPage, keysetQuery } from '../../lib/keyset.js';

// Every statement of the federation module. It writes only its own tables (federation_kv, actor_keys,
// remote_actors, federated_posts, federated_comments, federated_actors; remote_follows with their counts through
// actions/federation.ts); the rest are reads of users, posts, comments, follows, post_pins and sessions, as anyone
// signed out may see them.

/** An account that exists and is not suspended. */
const NOT_SUSPENDED = sql`(u.suspended_until is null or u.suspended_until <= now())`;

/**
 * An account that is there for the fediverse: one of ours (not a remote person's shadow account, issue 39, which is
 * an actor on its own server only: no actor, WebFinger, outbox or collections here), not suspended.
 */
const ACTIVE = sql`(${NOT_SUSPENDED} and u.remote_actor_id is null)`;

/**
 * The other side of a follow `f` of account `u` as a following list shows it: an account of ours that is there, or a
 * remote person (a shadow account) whose server accepted the follow (issue 39), named by their actor id.
 */
const FOLLOWED = sql`(${NOT_SUSPENDED} and (u.remote_actor_id is null or not f.pending))`;

export interface ActorRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  bio: string;
  link: string;
  photo_url: string | null;
  works_signed_in_only: boolean;
  ai_training_opt_out: boolean;
  created_at: string | Date;
  /** The actor ids of the artist's accounts elsewhere (migration 0041): its `alsoKnownAs`. */
  also_known_as: string[];
  /** The account it moved to (migration 0049), its `movedTo`: another account here, or a remote actor's id. */
  moved_to_local_id: string | null;
  moved_to_iri: string | null;
}

const ACTOR_COLUMNS = sql`u.id, u.username, u.first_name, u.last_name, u.bio, u.link, u.photo_url,
  u.works_signed_in_only, u.ai_training_opt_out, u.created_at, u.also_known_as,
  (select m.id from users m where m.id = u.moved_to_id and m.remote_actor_id is null) as moved_to_local_id,
  (select ra.iri from users m join remote_actors ra on ra.id = m.remote_actor_id where m.id = u.moved_to_id)
    as moved_to_iri`;

/** The account behind an actor id (a uuid, checked by the caller); undefined when none or suspended. */
export async function selectActor(db: Db, userId: string): Promise<ActorRow | undefined> {
  const [row] = await queryRows<ActorRow>(
    db,
    sql`select ${ACTOR_COLUMNS} from users u where u.id = ${userId}::uuid and ${ACTIVE}`,
  );
  return row;
}

/** The account of a username in any letter case; undefined when none or suspended. */
export async function selectActorByUsername(db: Db, username: string): Promise<ActorRow | undefined> {
  const [row] = await queryRows<ActorRow>(
    db,
    sql`select ${ACTOR_COLUMNS} from users u where lower(u.username) = lower(${username}) and ${ACTIVE}`,
  );
  return row;
}

/** The accounts of these lower-case usernames that are there (a work's mentions), with their names as written. */
export function selectMentioned(db: Db, usernames: string[]): Promise<{ id: string; username: string }[]> {
  if (usernames.length === 0) return Promise.resolve([]);
  return queryRows(
    db,
    sql`select u.id, u.username from users u
        where lower(u.username) in (select value from json_array_elements_text(${JSON.stringify(usernames)}::json))
          and ${ACTIVE}`,
  );
}

/** A post `p` a signed-out reader sees (posts.sql.ts `visibleTo(null)`). */
const PUBLIC_POST = sql`p.moderation_state is null and not exists (
  select from users hidden where hidden.id = p.author_id
    and (hidden.works_signed_in_only or hidden.suspended_until > now()))`;

/** The works of the author `author` a signed-out reader sees. */
const publicWorksOf = (author: SQL) => sql`p.author_id = ${author} and ${PUBLIC_POST}`;

/** Whether the post is a work from another server (issue 39: `note_iri`), which we never serve or send as ours. */
export async function isRemoteWork(db: Db, postId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select from posts where id = ${postId}::uuid and note_iri is not null`);
  return rows.length > 0;
}

/** How many works of the account a signed-out reader sees: the outbox's totalItems. */
export async function countPublicWorks(db: Db, userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from posts p where ${publicWorksOf(sql`${userId}::uuid`)}`,
  );
  return row?.n ?? 0;
}

/** The ids of the account's pinned works, in their order (the posts module then shows each as anyone sees it). */
export async function selectPinnedPostIds(db: Db, userId: string): Promise<string[]> {
  const rows = await queryRows<{ post_id: string }>(
    db,
    sql`select post_id from post_pins where user_id = ${userId}::uuid order by position`,
  );
  return rows.map((row) => row.post_id);
}

/**
 * A page of one side of the account's follows, newest follow first: local accounts by their ids (`ids`), and on
 * the followers side remote actors too, by their actor ids (`iris`), in one order (`items`).
 */
export interface FollowPage {
  items: ({ local: string } | { remote: string })[];
  nextCursor: string | null;
}

const FOLLOW_SHAPE = ['date', 'uuid'] as const;

/**
 * The accounts that follow `userId` (`side` followers) or that it follows (following), newest first, paged by
 * the follow's time and the other account's id; suspended accounts are left out (their actors answer 404). The
 * remote people it follows (shadow accounts, issue 39) are listed by their actor ids once their server accepted.
 */
export async function selectFollowPage(
  db: Db,
  userId: string,
  side: 'followers' | 'following',
  cursor: string | undefined,
  limit: number,
): Promise<FollowPage> {
  const [self, other] =
    side === 'followers' ? [sql`f.followee_id`, sql`f.follower_id`] : [sql`f.follower_id`, sql`f.followee_id`];
  const {
    after,
    orderBy,
    limit: rows,
  } = keysetQuery(
    { columns: [sql`f.created_at`, sql`f.id`], shape: [...FOLLOW_SHAPE], direction: 'desc' },
    cursor,
    limit,
  );
  // Remote followers (issue 39) are in the same order; their row's id is the remote actor's (a uuid as well).
  const remote =
    side === 'followers'
      ? sql`union all select ra.id, f.created_at, ra.iri from remote_follows f join remote_actors ra on ra.id = f.remote_actor_id
            where f.user_id = ${userId}::uuid`
      : sql``;
  const found = await queryRows<{ id: string; created_at: string | Date; iri: string | null }>(
    db,
    sql`select * from (
          select ${other} as id, f.created_at, ra.iri from follows f join users u on u.id = ${other}
            left join remote_actors ra on ra.id = u.remote_actor_id
          where ${self} = ${userId}::uuid and ${side === 'followers' ? ACTIVE : FOLLOWED}
          ${remote}
        ) f where ${after}
        order by ${orderBy} ${rows}`,
  );
  const { page, nextCursor } = keysetPage(found, limit, [...FOLLOW_SHAPE], (row) => [row.created_at, row.id]);
  return { items: page.map((row) => (row.iri ? { remote: row.iri } : { local: row.id })), nextCursor };
}

/** How many are on one side of the account's follows, as the page lists them (selectFollowPage). */
export async function countFollows(db: Db, userId: string, side: 'followers' | 'following'): Promise<number> {
  const [self, other] =
    side === 'followers' ? [sql`f.followee_id`, sql`f.follower_id`] : [sql`f.follower_id`, sql`f.followee_id`];
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from follows f join users u on u.id = ${other}
        where ${self} = ${userId}::uuid and ${side === 'followers' ? ACTIVE : FOLLOWED}`,
  );
  const remote = side === 'followers' ? await countRemoteFollowers(db, userId) : 0;
  return (row?.n ?? 0) + remote;
}

// Remote followers (issue 39, part 2): remote_actors and remote_follows (migration 0030). A follow is added and
// removed by actions/federation.ts, which keeps the account's count with it.

/** A remote actor as fetched, by its id (IRI). */
export interface RemoteActorFields {
  iri: string;
  handle: string;
  inbox: string;
  sharedInbox: string | null;
  name: string;
  iconUrl: string | null;
  profileUrl: string | null;
}

/** Keeps the remote actor as fetched now (a new row, or the one of its IRI brought up to date); answers its row id. */
export async function upsertRemoteActor(db: Db, actor: RemoteActorFields): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into remote_actors (iri, handle, inbox, shared_inbox, name, icon_url, profile_url, fetched_at)
        values (${actor.iri}, ${actor.handle}, ${actor.inbox}, ${actor.sharedInbox}, ${actor.name}, ${actor.iconUrl},
                ${actor.profileUrl}, now())
        on conflict (iri) do update set handle = excluded.handle, inbox = excluded.inbox,
          shared_inbox = excluded.shared_inbox, name = excluded.name, icon_url = excluded.icon_url,
          profile_url = excluded.profile_url, fetched_at = excluded.fetched_at
        returning id`,
  );
  return row!.id;
}

/** How many remote actors follow the account. */
export async function countRemoteFollowers(db: Db, userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from remote_follows where user_id = ${userId}::uuid`,
  );
  return row?.n ?? 0;
}

/** Where the account's remote followers take deliveries: each actor's id, inbox and shared inbox. */
export interface RemoteRecipientRow {
  iri: string;
  inbox: string;
  shared_inbox: string | null;
}

/** The remote followers of these accounts (a comment goes to its author's and to its work's author's), once each. */
export function selectRemoteRecipients(db: Db, userIds: string[]): Promise<RemoteRecipientRow[]> {
  return queryRows<RemoteRecipientRow>(
    db,
    sql`select ra.iri, ra.inbox, ra.shared_inbox from remote_actors ra
        join (select remote_actor_id, min(created_at) as since from remote_follows
              where user_id in (select value::uuid from json_array_elements_text(${JSON.stringify(userIds)}::json))
              group by remote_actor_id) f on f.remote_actor_id = ra.id
        order by f.since`,
  );
}

/** Whether any remote actor follows one of these accounts (else what they do is sent nowhere). */
export async function hasRemoteFollowers(db: Db, userIds: string[]): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select from remote_follows
        where user_id in (select value::uuid from json_array_elements_text(${JSON.stringify(userIds)}::json)) limit 1`,
  );
  return rows.length > 0;
}

// The works whose Create was sent (federated_posts, migrations 0030 and 0032). Every process hears a post's
// events; each claims the activity it would send by one statement, and only the process whose statement changed
// the row sends. A work no longer public is `withdrawn` (its Delete sent) and keeps its row while it is there: public
// again, it goes out under its next generation's id (Mastodon refuses a Create of an id it was told was deleted).

/** The work's Create is to be sent: true for the one caller that records it first. */
export async function claimCreate(db: Db, postId: string, authorId: string, noteHash: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`insert into federated_posts (post_id, author_id, note_hash) values (${postId}::uuid, ${authorId}::uuid, ${noteHash})
        on conflict (post_id) do nothing returning post_id`,
  );
  return rows.length > 0;
}

export interface FederatedPostRow {
  author_id: string;
  note_hash: string;
  generation: number;
  withdrawn: boolean;
}

/** The work's record, when its Create was ever sent: its author, the Note sent last, its generation, withdrawn. */
export async function selectFederatedPost(db: Db, postId: string): Promise<FederatedPostRow | undefined> {
  const [row] = await queryRows<FederatedPostRow>(
    db,
    sql`select author_id, note_hash, generation, withdrawn from federated_posts where post_id = ${postId}::uuid`,
  );
  return row;
}

/** The generations of these works' Note ids, in one query: a work never withdrawn, or never sent, has 0. */
export async function selectGenerations(db: Db, postIds: string[]): Promise<Map<string, number>> {
  const generations = new Map(postIds.map((id) => [id, 0]));
  if (postIds.length === 0) return generations;
  const rows = await queryRows<{ post_id: string; generation: number }>(
    db,
    sql`select post_id, generation from federated_posts
        where post_id = any(${`{${postIds.join(',')}}`}::uuid[]) and generation > 0`,
  );
  for (const row of rows) generations.set(row.post_id, row.generation);
  return generations;
}

/** The generation of the work's Note id (0 for a work never withdrawn, or never sent). */
export async function selectGeneration(db: Db, postId: string): Promise<number> {
  return (await selectGenerations(db, [postId])).get(postId) ?? 0;
}

/** The work's Update is to be sent: true for the one caller that records this Note first. */
export async function claimUpdate(db: Db, postId: string, noteHash: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update federated_posts set note_hash = ${noteHash}
        where post_id = ${postId}::uuid and not withdrawn and note_hash <> ${noteHash} returning post_id`,
  );
  return rows.length > 0;
}

/** The work's Delete is to be sent: its author and the generation withdrawn, for the one caller that marks it. */
export async function claimWithdraw(
  db: Db,
  postId: string,
): Promise<{ author_id: string; generation: number } | undefined> {
  const [row] = await queryRows<{ author_id: string; generation: number }>(
    db,
    sql`update federated_posts set withdrawn = true where post_id = ${postId}::uuid and not withdrawn
        returning author_id, generation`,
  );
  return row;
}

/** Every work of the author is to be withdrawn (their works shown to signed-in people only): those marked now. */
export function claimWithdrawAllOf(db: Db, authorId: string): Promise<{ post_id: string; generation: number }[]> {
  return queryRows(
    db,
    sql`update federated_posts set withdrawn = true where author_id = ${authorId}::uuid and not withdrawn
        returning post_id, generation`,
  );
}

/** The author's withdrawn works (each sent again if it is public again). */
export async function selectWithdrawnPostIds(db: Db, authorId: string): Promise<string[]> {
  const rows = await queryRows<{ post_id: string }>(
    db,
    sql`select post_id from federated_posts where author_id = ${authorId}::uuid and withdrawn`,
  );
  return rows.map((row) => row.post_id);
}

/**
 * The withdrawn work is public again and goes out under its next generation (`from` + 1): true for the one caller
 * that records it.
 */
export async function claimRecreate(db: Db, postId: string, from: number, noteHash: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update federated_posts set withdrawn = false, generation = ${from + 1}, note_hash = ${noteHash}
        where post_id = ${postId}::uuid and withdrawn and generation = ${from} returning post_id`,
  );
  return rows.length > 0;
}

/** Forgets a withdrawn work that is gone (deleted): nothing will be sent of it again. */
export async function forgetDeletedPost(db: Db, postId: string): Promise<void> {
  await db.execute(
    sql`delete from federated_posts where post_id = ${postId}::uuid and withdrawn
          and not exists (select from posts where id = ${postId}::uuid)`,
  );
}

// The comments sent as replies (federated_comments, migration 0032), claimed as the works are.

/** A comment `c` a signed-out reader sees: there, not hidden or removed, its author not suspended, its work public. */
const PUBLIC_COMMENT = sql`c.moderation_state is null and c.author_id is not null
  and not exists (select from users cu where cu.id = c.author_id and cu.suspended_until > now())
  and exists (select from posts p where p.id = c.post_id and ${PUBLIC_POST})`;

/**
 * The work a reply from another server answers (issue 39, remote comments), when a signed-out reader sees it and
 * anyone may comment on it (its comment policy `everyone`: a remote person is nobody the artist follows here): the
 * work itself (`postId`), the work of one of our comments, or of a remote comment taken earlier (its Note's id),
 * shown to everyone, or a work from another server stored here (its Note's id: a reply in its thread, following out).
 * Undefined otherwise.
 */
export async function selectReplyTarget(
  db: Db,
  replyTo: { postId: string } | { commentId: string } | { noteIri: string },
): Promise<string | undefined> {
  const post =
    'postId' in replyTo
      ? sql`${replyTo.postId}::uuid`
      : 'commentId' in replyTo
        ? sql`(select c.post_id from comments c where c.id = ${replyTo.commentId}::uuid and c.moderation_state is null)`
        : // A remote comment taken earlier, or a work from another server stored here (following out).
          sql`coalesce(
            (select c.post_id from comments c where c.note_iri = ${replyTo.noteIri} and c.moderation_state is null),
            (select w.id from posts w where w.note_iri = ${replyTo.noteIri}))`;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select p.id from posts p where p.id = ${post} and p.comment_policy = 'everyone' and ${PUBLIC_POST}`,
  );
  return row?.id;
}

export interface CommentRow {
  id: string;
  post_id: string;
  author_id: string;
  post_author_id: string;
  content: string;
  created_at: string | Date;
  updated_at: string | Date;
  edited: boolean;
  /**
   * A comment on a work from another server (issue 39, following out): the work's Note, which the reply answers,
   * and its author's actor and handle (`user@host`), whom the reply mentions. Null on our own works.
   */
  post_note_iri: string | null;
  post_author_iri: string | null;
  post_author_handle: string | null;
}

/**
 * The comment as a signed-out reader sees it; undefined when they do not (or it is not there). A comment on a
 * work from another server too: its reply is served at `/ap/comments/{id}` as one on ours is.
 */
export async function selectPublicComment(db: Db, commentId: string): Promise<CommentRow | undefined> {
  const [row] = await queryRows<CommentRow>(
    db,
    sql`select c.id, c.post_id, c.author_id, p.author_id as post_author_id,
          c.content, c.created_at, c.updated_at, c.edited,
          p.note_iri as post_note_iri, ra.iri as post_author_iri, ra.handle as post_author_handle
        from comments c
        join posts p on p.id = c.post_id
        left join users pu on p.note_iri is not null and pu.id = p.author_id
        left join remote_actors ra on ra.id = pu.remote_actor_id
        where c.id = ${commentId}::uuid and ${PUBLIC_COMMENT}`,
  );
  return row;
}

// Following out (issue 39): what the sending of a follow, a like or a reply to someone on another server reads.

/** Where someone on another server is reached: their actor and inboxes. */
export interface RemotePersonRow {
  iri: string;
  inbox: string;
  shared_inbox: string | null;
}

/** The person on another server whose shadow account this is (`users.remote_actor_id`); undefined otherwise. */
export async function selectShadowPerson(db: Db, userId: string): Promise<RemotePersonRow | undefined> {
  const [row] = await queryRows<RemotePersonRow>(
    db,
    sql`select ra.iri, ra.inbox, ra.shared_inbox from users u join remote_actors ra on ra.id = u.remote_actor_id
        where u.id = ${userId}::uuid`,
  );
  return row;
}

/** The people on other servers the account follows (their shadow accounts), requested or accepted. */
export function selectFollowedRemotePeople(db: Db, userId: string): Promise<RemotePersonRow[]> {
  return queryRows<RemotePersonRow>(
    db,
    sql`select ra.iri, ra.inbox, ra.shared_inbox from follows f
        join users u on u.id = f.followee_id
        join remote_actors ra on ra.id = u.remote_actor_id
        where f.follower_id = ${userId}::uuid`,
  );
}

/** The author on another server of a work from there (`posts.note_iri`); undefined for our own works. */
export async function selectRemoteWorkAuthor(db: Db, postId: string): Promise<RemotePersonRow | undefined> {
  const [row] = await queryRows<RemotePersonRow>(
    db,
    sql`select ra.iri, ra.inbox, ra.shared_inbox from posts p
        join users u on u.id = p.author_id
        join remote_actors ra on ra.id = u.remote_actor_id
        where p.id = ${postId}::uuid and p.note_iri is not null`,
  );
  return row;
}

/** The comment's Create is to be sent: true for the one caller that records it first. */
export async function claimCommentCreate(db: Db, comment: CommentRow, noteHash: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`insert into federated_comments (comment_id, post_id, author_id, post_author_id, note_hash)
        values (${comment.id}::uuid, ${comment.post_id}::uuid, ${comment.author_id}::uuid,
                ${comment.post_author_id}::uuid, ${noteHash})
        on conflict (comment_id) do nothing returning comment_id`,
  );
  return rows.length > 0;
}

/** The comments of the post whose Create was sent, and whether a signed-out reader still sees each. */
export function selectFederatedComments(
  db: Db,
  postId: string,
): Promise<{ comment_id: string; author_id: string; post_author_id: string; shown: boolean }[]> {
  return queryRows(
    db,
    sql`select fc.comment_id, fc.author_id, fc.post_author_id,
          exists (select from comments c where c.id = fc.comment_id and ${PUBLIC_COMMENT}) as shown
        from federated_comments fc where fc.post_id = ${postId}::uuid`,
  );
}

/** The works of the author that have comments sent as replies. */
export async function selectCommentedWorksOf(db: Db, authorId: string): Promise<string[]> {
  const rows = await queryRows<{ post_id: string }>(
    db,
    sql`select distinct post_id from federated_comments where post_author_id = ${authorId}::uuid`,
  );
  return rows.map((row) => row.post_id);
}

/** The comment's Update is to be sent: true for the one caller that records this Note first. */
export async function claimCommentUpdate(db: Db, commentId: string, noteHash: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update federated_comments set note_hash = ${noteHash}
        where comment_id = ${commentId}::uuid and note_hash <> ${noteHash} returning comment_id`,
  );
  return rows.length > 0;
}

/** The comment's Delete is to be sent: true for the one caller that deletes the record. */
export async function claimCommentDelete(db: Db, commentId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`delete from federated_comments where comment_id = ${commentId}::uuid returning comment_id`,
  );
  return rows.length > 0;
}

// The actors sent as Update(Person) (federated_actors, migration 0032).

/** The actor's Update is to be sent: true for the one caller that records this version (`personHash`) first. */
export async function claimActorUpdate(db: Db, userId: string, personHash: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`insert into federated_actors (user_id, person_hash) values (${userId}::uuid, ${personHash})
        on conflict (user_id) do update set person_hash = excluded.person_hash, updated_at = now()
        where federated_actors.person_hash <> excluded.person_hash
        returning user_id`,
  );
  return rows.length > 0;
}

export interface NodeUsage {
  total: number;
  active_month: number;
  active_halfyear: number;
  local_posts: number;
  local_comments: number;
}

/**
 * NodeInfo's usage. Accounts: those not suspended. Active: an account with a session used in the period
 * (`sessions.last_used_at`, written at most every 5 minutes) or a work posted in it; an account that logged
 * out (its session row is deleted) and posted nothing is not counted. Posts: the works a signed-out reader sees; comments: those
 * shown on them. Remote people's shadow accounts and their works (issue 39) are not ours to count; our accounts'
 * comments on those works are.
 */
export async function selectNodeUsage(db: Db): Promise<NodeUsage> {
  const activeSince = (days: number) => sql`(select count(*)::int from users u where ${ACTIVE} and (
      exists (select from sessions s where s.user_id = u.id and s.last_used_at > now() - ${`${days} days`}::interval)
      or exists (select from posts p where p.author_id = u.id and p.created_at > now() - ${`${days} days`}::interval)))`;
  const [row] = await queryRows<NodeUsage>(
    db,
    sql`select (select count(*)::int from users u where ${ACTIVE}) as total,
        ${activeSince(30)} as active_month,
        ${activeSince(180)} as active_halfyear,
        (select count(*)::int from posts p where ${PUBLIC_POST} and p.note_iri is null) as local_posts,
        (select count(*)::int from comments c join posts p on p.id = c.post_id
          where c.moderation_state is null and c.author_id is not null and ${PUBLIC_POST}) as local_comments`,
  );
  return row!;
}

// Fedify's key-value store (federation.kv.ts): a key is the JSON of Fedify's key array.

/** The value at `key`, unless it expired, and the milliseconds it has left (null: no ttl); undefined when none. */
export async function kvGet(db: Db, key: string): Promise<{ value: unknown; ttlMs: number | null } | undefined> {
  const [row] = await queryRows<{ value: unknown; ttl_ms: number | string | null }>(
    db,
    sql`select value, extract(epoch from expires_at - now()) * 1000 as ttl_ms
        from federation_kv where key = ${key} and (expires_at is null or expires_at > now())`,
  );
  return row && { value: row.value, ttlMs: row.ttl_ms === null ? null : Number(row.ttl_ms) };
}

/** Sets `key` to `value` (JSON text), expiring after `ttlMs` milliseconds when given. */
export async function kvSet(db: Db, key: string, json: string, ttlMs: number | undefined): Promise<void> {
  const expires =
    ttlMs === undefined ? sql`null` : sql`now() + ${`${Math.max(0, Math.round(ttlMs))} milliseconds`}::interval`;
  await db.execute(
    sql`insert into federation_kv (key, value, expires_at) values (${key}, ${json}::jsonb, ${expires})
        on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`,
  );
}

/** Sets `key` to `value` (JSON text, no expiry) unless it has one; answers the value kept (the first writer's). */
export async function kvSetOnce(db: Db, key: string, json: string): Promise<unknown> {
  await db.execute(
    sql`insert into federation_kv (key, value) values (${key}, ${json}::jsonb) on conflict (key) do nothing`,
  );
  const [row] = await queryRows<{ value: unknown }>(db, sql`select value from federation_kv where key = ${key}`);
  return row?.value;
}

export async function kvDelete(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from federation_kv where key = ${key}`);
}

/**
 * The live entries whose key array starts with the prefix's (`exact` its JSON, `open` the same without its
 * closing bracket and with a comma), by key; all of them without a prefix.
 */
export function kvList(
  db: Db,
  prefix: { exact: string; open: string } | undefined,
): Promise<{ key: string; value: unknown }[]> {
  const match = prefix ? sql`(key = ${prefix.exact} or starts_with(key, ${prefix.open}))` : sql`true`;
  return queryRows(
    db,
    sql`select key, value from federation_kv where ${match} and (expires_at is null or expires_at > now()) order by key`,
  );
}

/** Deletes the expired entries (the hourly sweep). */
export async function kvSweep(db: Db): Promise<void> {
  await db.execute(sql`delete from federation_kv where expires_at <= now()`);
}

// The actors' key pairs (federation.keys.ts).

export type KeyAlgorithm = 'RSASSA-PKCS1-v1_5' | 'Ed25519';

/** A key pair's halves as JWK (typed by the caller: Web Crypto's JsonWebKey differs between Node's and the DOM's types). */
export interface ActorKeyRow {
  algorithm: KeyAlgorithm;
  public_jwk: object;
  private_jwk: object;
}

/** The account's key pairs, RSA first. */
export function selectActorKeys(db: Db, userId: string): Promise<ActorKeyRow[]> {
  return queryRows<ActorKeyRow>(
    db,
    sql`select algorithm, public_jwk, private_jwk from actor_keys where user_id = ${userId}::uuid
        order by case algorithm when 'RSASSA-PKCS1-v1_5' then 0 else 1 end`,
  );
}

/** Keeps a new key pair unless the account has one of that algorithm already (a concurrent first request's). */
export async function insertActorKey(
  db: Db,
  userId: string,
  algorithm: KeyAlgorithm,
  publicJwk: object,
  privateJwk: object,
): Promise<void> {
  await db.execute(
    sql`insert into actor_keys (user_id, algorithm, public_jwk, private_jwk)
        values (${userId}::uuid, ${algorithm}, ${JSON.stringify(publicJwk)}::jsonb, ${JSON.stringify(privateJwk)}::jsonb)
        on conflict (user_id, algorithm) do nothing`,
  );
}

// Safety across servers (issue 39): the server blocks (the moderation module's table, read here), the remote actors'
// blocks of our artists (written by actions/federation.ts), and what a remote server's report may name.

/** Whether one of these domains is suspended (a block of a domain covers its subdomains: pass every suffix). */
export async function selectSuspendedAmong(db: Db, domains: string[]): Promise<boolean> {
  if (domains.length === 0) return false;
  const rows = await queryRows(
    db,
    sql`select from server_blocks where severity = 'suspend'
          and domain in (select value from json_array_elements_text(${JSON.stringify(domains)}::json)) limit 1`,
  );
  return rows.length > 0;
}

/** Whether one of these domains' pictures are not taken (`reject_media`; pass every suffix, as above). */
export async function selectMediaRejectedAmong(db: Db, domains: string[]): Promise<boolean> {
  if (domains.length === 0) return false;
  const rows = await queryRows(
    db,
    sql`select from server_blocks where severity = 'reject_media'
          and domain in (select value from json_array_elements_text(${JSON.stringify(domains)}::json)) limit 1`,
  );
  return rows.length > 0;
}

/** Whether the artist of the work `postId` blocks this remote actor (its reply to the work is then not kept). */
export async function selectWorkBlocksRemote(db: Db, postId: string, remoteActorId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select from remote_person_blocks b join posts p on p.author_id = b.user_id
        where p.id = ${postId}::uuid and b.remote_actor_id = ${remoteActorId}::uuid`,
  );
  return rows.length > 0;
}

/** Whether the account blocks this remote actor (its Follow is then answered by a Reject). */
export async function selectBlocksRemote(db: Db, userId: string, remoteActorId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select from remote_person_blocks where user_id = ${userId}::uuid and remote_actor_id = ${remoteActorId}::uuid`,
  );
  return rows.length > 0;
}

/**
 * What a delivery from these accounts leaves out: the suspended servers' domains, and the actors blocking them or
 * blocked by them (`remote_blocks`, `remote_person_blocks`).
 */
export async function selectDeliveryExclusions(
  db: Db,
  userIds: string[],
): Promise<{ domains: string[]; blockers: string[] }> {
  const users = sql`(select value::uuid from json_array_elements_text(${JSON.stringify(userIds)}::json))`;
  const [row] = await queryRows<{ domains: string[] | null; blockers: string[] | null }>(
    db,
    sql`select (select json_agg(domain) from server_blocks where severity = 'suspend') as domains,
          (select json_agg(distinct iri) from (
             select actor_iri as iri from remote_blocks where user_id in ${users}
             union all
             select ra.iri from remote_person_blocks b join remote_actors ra on ra.id = b.remote_actor_id
             where b.user_id in ${users}
           ) refused) as blockers`,
  );
  return { domains: row?.domains ?? [], blockers: row?.blockers ?? [] };
}

/** Of these posts and comments, those that are there (whatever their state: a moderator sees them all). */
export async function selectExistingTargets(
  db: Db,
  postIds: string[],
  commentIds: string[],
): Promise<{ type: 'post' | 'comment'; id: string }[]> {
  return queryRows<{ type: 'post' | 'comment'; id: string }>(
    db,
    sql`select 'post' as type, id::text from posts
          where id in (select value::uuid from json_array_elements_text(${JSON.stringify(postIds)}::json))
        union all
        select 'comment' as type, id::text from comments
          where id in (select value::uuid from json_array_elements_text(${JSON.stringify(commentIds)}::json))`,
  );
}

// ── Following out (issue 39): remote people's shadow accounts and their works, read (actions/remote-people.ts writes)

export interface ShadowRow {
  user_id: string;
  username: string;
  remote_actor_id: string;
  iri: string;
  outbox: string | null;
  fetched_at: string | Date;
}

const SHADOW_COLUMNS = sql`u.id as user_id, u.username, ra.id as remote_actor_id, ra.iri, ra.outbox, ra.fetched_at`;

/** The shadow account of the remote actor `iri`, when there is one. */
export async function selectShadowByIri(db: Db, iri: string): Promise<ShadowRow | undefined> {
  const [row] = await queryRows<ShadowRow>(
    db,
    sql`select ${SHADOW_COLUMNS} from remote_actors ra join users u on u.remote_actor_id = ra.id where ra.iri = ${iri}`,
  );
  return row;
}

/** The shadow account whose handle (its username, `user@host`) is this, any letter case. */
export async function selectShadowByHandle(db: Db, handle: string): Promise<ShadowRow | undefined> {
  const [row] = await queryRows<ShadowRow>(
    db,
    sql`select ${SHADOW_COLUMNS} from users u join remote_actors ra on ra.id = u.remote_actor_id
        where lower(u.username) = lower(${handle})`,
  );
  return row;
}

/**
 * The shadow account of the remote actor `iri` when someone here follows it and its server accepted (a follow not
 * pending): only then are its works taken in.
 */
export async function selectFollowedShadow(db: Db, iri: string): Promise<ShadowRow | undefined> {
  const [row] = await queryRows<ShadowRow>(
    db,
    sql`select ${SHADOW_COLUMNS} from remote_actors ra join users u on u.remote_actor_id = ra.id
        where ra.iri = ${iri} and exists (select from follows f where f.followee_id = u.id and not f.pending)`,
  );
  return row;
}

/** The work stored for a Note's id or page (a remote work's `note_iri` or `note_url`), when there is one. */
export async function selectPostByNote(db: Db, url: string): Promise<{ id: string } | undefined> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from posts where note_iri = ${url} or (note_url = ${url} and note_iri is not null) limit 1`,
  );
  return row;
}

// ── Moving accounts (issue 40): an artist's other accounts (actions/account-move.ts writes them) ────────────────────

export interface AliasRow {
  iri: string;
  handle: string | null;
  profile_url: string | null;
}

/** The accounts `userId` says it is also known as, in order, with what is known of each here (their handle). */
export async function selectAccountAliases(db: Db, userId: string): Promise<AliasRow[]> {
  return queryRows<AliasRow>(
    db,
    sql`select a.iri, ra.handle, ra.profile_url
        from users u cross join lateral unnest(u.also_known_as) with ordinality as a(iri, n)
        left join remote_actors ra on ra.iri = a.iri
        where u.id = ${userId}::uuid and u.remote_actor_id is null
        order by a.n`,
  );
}

/** Where one of our accounts moved (issue 40, moving away): the account it moved to, with its remote person. */
export interface MoveStateRow {
  moved_at: string | Date | null;
  to_id: string | null;
  to_username: string | null;
  to_first_name: string | null;
  to_last_name: string | null;
  to_photo_url: string | null;
  to_handle: string | null;
  to_profile_url: string | null;
  to_iri: string | null;
}

export async function selectMoveState(db: Db, userId: string): Promise<MoveStateRow | undefined> {
  const [row] = await queryRows<MoveStateRow>(
    db,
    sql`select u.moved_at, m.id as to_id, m.username as to_username, m.first_name as to_first_name,
               m.last_name as to_last_name, m.photo_url as to_photo_url, ra.handle as to_handle,
               ra.profile_url as to_profile_url, ra.iri as to_iri
        from users u left join users m on m.id = u.moved_to_id left join remote_actors ra on ra.id = m.remote_actor_id
        where u.id = ${userId}::uuid and u.remote_actor_id is null`,
  );
  return row;
}

/** Whether the account here `userId` (not suspended) names `iri` among its other accounts: a Move's target here. */
export async function selectLocalAlias(db: Db, userId: string, iri: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from users where id = ${userId}::uuid and remote_actor_id is null and suspended_until is null
          and ${iri} = any (also_known_as)`,
  );
  return rows.length > 0;
}

/** A report to send to another server (`Flag`, issue 39): what it names there, and where it goes. */
export interface ForwardedReportRow {
  reason: string;
  note: string;
  actor_iri: string;
  inbox: string;
  /** The reported work's or comment's Note id; null for a person. */
  object_iri: string | null;
}

/**
 * Claims a report its reporter asked to send to the reported remote actor's server (`reports.forward_to`, set, and
 * `forwarded_at` not yet: one statement, so one process of a cluster sends it), with that actor and the Note reported.
 * Undefined when there is nothing to send (claimed already, not forwarded, or its target gone).
 */
export async function claimForwardedReport(db: Db, reportId: string): Promise<ForwardedReportRow | undefined> {
  const [row] = await queryRows<ForwardedReportRow>(
    db,
    sql`with claimed as (
          update reports set forwarded_at = now()
          where id = ${reportId}::uuid and forward_to is not null and forwarded_at is null
          returning target_type, target_id, reason, note
        ),
        target as (
          select c.reason, c.note,
            case c.target_type when 'post' then p.note_iri when 'comment' then cm.note_iri end as object_iri,
            case c.target_type
              when 'post' then (select u.remote_actor_id from users u where u.id = p.author_id)
              when 'comment' then coalesce(cm.remote_actor_id, (select u.remote_actor_id from users u where u.id = cm.author_id))
              when 'user' then (select u.remote_actor_id from users u where u.id = c.target_id)
            end as remote_actor_id
          from claimed c
          left join posts p on c.target_type = 'post' and p.id = c.target_id
          left join comments cm on c.target_type = 'comment' and cm.id = c.target_id
        )
        select t.reason, t.note, t.object_iri, ra.iri as actor_iri, ra.inbox
        from target t join remote_actors ra on ra.id = t.remote_actor_id`,
  );
  return row;
}
