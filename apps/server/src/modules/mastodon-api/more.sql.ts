import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { notBlockedWith } from '../safety/index.js';
import { personJson, type PersonRow } from '../users/index.js';

/**
 * The statements of masto-more's routes of the Mastodon client API (issue 45): the instance's figures, the markers
 * (`mastodon_markers`, migration 0053, the only table these routes write) and the reads of notifications, reports and
 * people that the other modules' services do not answer in Mastodon's terms. Reads only, but the markers.
 */

/** An account of ours (not a remote person's shadow account) that is not suspended, alias `u`. */
const LOCAL_ACTIVE = sql`(u.remote_actor_id is null and (u.suspended_until is null or u.suspended_until <= now()))`;

export interface InstanceStats {
  user_count: number;
  status_count: number;
  domain_count: number;
  active_month: number;
}

/** The instance's counts as Mastodon's Instance names them: local accounts, local works, servers known. */
export async function selectInstanceStats(db: Db): Promise<InstanceStats> {
  const [row] = await queryRows<InstanceStats>(
    db,
    sql`select (select count(*)::int from users u where ${LOCAL_ACTIVE}) as user_count,
        (select count(*)::int from posts p join users u on u.id = p.author_id
          where p.moderation_state is null and ${LOCAL_ACTIVE}) as status_count,
        (select count(distinct split_part(ra.iri, '/', 3))::int from remote_actors ra) as domain_count,
        (select count(*)::int from users u where ${LOCAL_ACTIVE} and (
          exists (select from sessions s where s.user_id = u.id and s.last_used_at > now() - interval '30 days')
          or exists (select from posts p where p.author_id = u.id and p.created_at > now() - interval '30 days')))
          as active_month`,
  );
  return row!;
}

export interface ActivityWeek {
  week: number;
  statuses: number;
  logins: number;
  registrations: number;
}

/** The last 12 weeks (Mastodon's /api/v1/instance/activity): works, sign-ins and sign-ups a week, newest first. */
export async function selectActivity(db: Db): Promise<ActivityWeek[]> {
  return queryRows<ActivityWeek>(
    db,
    sql`with weeks as (
          select generate_series(date_trunc('week', now()) - interval '11 weeks', date_trunc('week', now()),
                                 interval '1 week') as start)
        select extract(epoch from w.start)::bigint::int as week,
          (select count(*)::int from posts p join users u on u.id = p.author_id
            where u.remote_actor_id is null and p.created_at >= w.start and p.created_at < w.start + interval '1 week')
            as statuses,
          (select count(distinct s.user_id)::int from sessions s
            where s.created_at >= w.start and s.created_at < w.start + interval '1 week') as logins,
          (select count(*)::int from users u
            where u.remote_actor_id is null and u.created_at >= w.start and u.created_at < w.start + interval '1 week')
            as registrations
        from weeks w order by w.start desc`,
  );
}

/** The first admin account (the instance's contact), if any. */
export async function selectContactAccountId(db: Db): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select u.id from users u where u.role = 'admin' and ${LOCAL_ACTIVE} order by u.created_at limit 1`,
  );
  return row?.id ?? null;
}

// ── Markers (migration 0053) ─────────────────────────────────────────────────────────────────────────────

export interface MarkerRow {
  timeline: 'home' | 'notifications';
  last_read_id: string;
  version: number;
  updated_at: Date | string;
}

export async function selectMarkers(db: Db, userId: string, timelines: readonly string[]): Promise<MarkerRow[]> {
  if (timelines.length === 0) return [];
  return queryRows<MarkerRow>(
    db,
    sql`select timeline, last_read_id, version, updated_at from mastodon_markers
        where user_id = ${userId}::uuid and timeline in (${sql.join(
          timelines.map((timeline) => sql`${timeline}`),
          sql`, `,
        )})`,
  );
}

/** Saves where the person stopped reading one timeline; each save counts one more version. */
export async function upsertMarker(
  db: Db,
  userId: string,
  timeline: 'home' | 'notifications',
  lastReadId: string,
): Promise<MarkerRow> {
  const [row] = await queryRows<MarkerRow>(
    db,
    sql`insert into mastodon_markers (user_id, timeline, last_read_id) values (${userId}::uuid, ${timeline}, ${lastReadId})
        on conflict (user_id, timeline) do update
          set last_read_id = excluded.last_read_id, version = mastodon_markers.version + 1, updated_at = now()
        returning timeline, last_read_id, version, updated_at`,
  );
  return row!;
}

// ── Notifications, one row each (Mastodon's v1 is not grouped) ────────────────────────────────────────────

/** One notification with its actor (an account here, or a remote person named by `remote_actors`). */
export interface MastoNotificationRow {
  id: string;
  kind: string;
  created_at: Date | string;
  actor_id: string | null;
  actor: PersonRow;
  post_id: string | null;
  comment_id: string | null;
}

export interface NotificationFilter {
  kinds: readonly string[];
  /** Only those by this person (an account's id, or a remote person's). */
  accountId?: string | undefined;
  /** Only this notification. */
  id?: string;
}

/** A notification's place in the user's list (created_at, id), if it is theirs. */
export async function selectNotificationKey(
  db: Db,
  userId: string,
  id: string,
): Promise<{ created_at: string; id: string } | undefined> {
  const [row] = await queryRows<{ created_at: string; id: string }>(
    db,
    sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at, id
        from notifications where id = ${id}::uuid and recipient_id = ${userId}::uuid`,
  );
  return row;
}

/**
 * A page of the user's notifications of these kinds, newest first: older than `before` (max_id), or newer than
 * `after` (since_id: the newest `limit`; min_id: the `limit` right above it). Never by someone in a blocked pair
 * with the user.
 */
export async function selectNotificationRows(
  db: Db,
  userId: string,
  filter: NotificationFilter,
  bound: {
    before?: { created_at: string; id: string };
    after?: { created_at: string; id: string };
    oldestFirst?: boolean;
  },
  limit: number,
): Promise<MastoNotificationRow[]> {
  if (filter.kinds.length === 0) return [];
  const key = sql`(n.created_at, n.id)`;
  const place = (at: { created_at: string; id: string }) => sql`(${at.created_at}::timestamptz, ${at.id}::uuid)`;
  const rows = await queryRows<MastoNotificationRow>(
    db,
    sql`select n.id, n.kind, n.created_at, n.actor_id, n.post_id, n.comment_id, ${personJson('u', 'ra')} as actor
        from notifications n
        left join users u on u.id = n.actor_id
        left join remote_actors ra on ra.id = n.remote_actor_id
        where n.recipient_id = ${userId}::uuid and (u.id is not null or ra.id is not null)
          and n.kind in (${sql.join(
            filter.kinds.map((kind) => sql`${kind}`),
            sql`, `,
          )})
          and ${notBlockedWith(userId, sql`n.actor_id`)}
          ${filter.id ? sql`and n.id = ${filter.id}::uuid` : sql``}
          ${filter.accountId ? sql`and (n.actor_id = ${filter.accountId}::uuid or n.remote_actor_id = ${filter.accountId}::uuid)` : sql``}
          ${bound.before ? sql`and ${key} < ${place(bound.before)}` : sql``}
          ${bound.after ? sql`and ${key} > ${place(bound.after)}` : sql``}
        order by n.created_at ${sql.raw(bound.oldestFirst ? 'asc' : 'desc')}, n.id ${sql.raw(bound.oldestFirst ? 'asc' : 'desc')}
        limit ${limit}`,
  );
  return bound.oldestFirst ? rows.reverse() : rows;
}

/** The user's unread notifications of these kinds (at most `cap`, as Mastodon's unread_count caps). */
export async function selectUnreadNotificationCount(
  db: Db,
  userId: string,
  kinds: readonly string[],
  cap: number,
): Promise<number> {
  if (kinds.length === 0) return 0;
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from (
          select from notifications n
          where n.recipient_id = ${userId}::uuid and n.read_at is null
            and n.kind in (${sql.join(
              kinds.map((kind) => sql`${kind}`),
              sql`, `,
            )})
            and ${notBlockedWith(userId, sql`n.actor_id`)}
          limit ${cap}) capped`,
  );
  return row?.count ?? 0;
}

/** How the person sees sensitive works (users.sensitive_media): show, blur or hide. */
export async function selectSensitiveMedia(db: Db, userId: string): Promise<'show' | 'blur' | 'hide'> {
  const [row] = await queryRows<{ sensitive_media: 'show' | 'blur' | 'hide' }>(
    db,
    sql`select sensitive_media from users where id = ${userId}::uuid`,
  );
  return row?.sensitive_media ?? 'blur';
}

/** An account's username by id (local or a remote person's shadow account), to report them by. */
export async function selectReportableUsername(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ username: string }>(db, sql`select username from users where id = ${userId}::uuid`);
  return row?.username;
}

/** Which of these ids are comments (the others may be works). */
export async function selectCommentIdsAmong(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from comments where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return new Set(rows.map((row) => row.id));
}

// ── Streaming: who of the people connected gets an event ──────────────────────────────────────────────────

const among = (userIds: readonly string[]) =>
  sql`(select value::uuid as id from json_array_elements_text(${JSON.stringify(userIds)}::json))`;

/** The work's author, its tags, and whether it came from another server; undefined when it is gone. */
export async function selectStreamPost(
  db: Db,
  postId: string,
): Promise<{ author_id: string; tags: string[]; remote: boolean } | undefined> {
  const [row] = await queryRows<{ author_id: string; tags: string[]; remote: boolean }>(
    db,
    sql`select p.author_id, p.tags, u.remote_actor_id is not null as remote
        from posts p join users u on u.id = p.author_id where p.id = ${postId}::uuid`,
  );
  return row;
}

/**
 * Of these people, those whose lists would show the work (as shownInListsTo decides for one viewer): its author,
 * or not in a blocked pair with the author, not muting them, and none of their muted words or #tags in it.
 */
export async function selectListReaders(db: Db, postId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select v.id from ${among(userIds)} v, posts p
        where p.id = ${postId}::uuid and (p.author_id = v.id or (
          not exists (select from blocks bl where (bl.blocker_id = v.id and bl.blocked_id = p.author_id)
                                            or (bl.blocker_id = p.author_id and bl.blocked_id = v.id))
          and not exists (select from mutes mu where mu.muter_id = v.id and mu.muted_id = p.author_id)
          and not exists (select from muted_words mw where mw.user_id = v.id and case when left(mw.word, 1) = '#'
            then p.tags @> array[lower(substr(mw.word, 2))]::text[]
            else p.content ~* ('(^|[^[:alnum:]_])' || regexp_replace(mw.word, '([^[:alnum:][:space:]_])', '\\\\\\1', 'g')
                               || '($|[^[:alnum:]_])') end)))`,
  );
  return new Set(rows.map((row) => row.id));
}

/** Of these people, those whose Home has the author's works: the author, their followers, followers of its tags. */
export async function selectHomeReaders(
  db: Db,
  authorId: string,
  tags: readonly string[],
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select v.id from ${among(userIds)} v
        where v.id = ${authorId}::uuid
          or exists (select from follows f where f.follower_id = v.id and f.followee_id = ${authorId}::uuid)
          or exists (select from tag_follows tf where tf.user_id = v.id
                       and tf.tag in (select json_array_elements_text(${JSON.stringify(tags)}::json)))`,
  );
  return new Set(rows.map((row) => row.id));
}
