import { sql, type SQL } from 'drizzle-orm';
import type {
  ModerationActionKind,
  ReportReason,
  ReportTargetType,
  Role,
  SERVER_BLOCK_ACTIONS,
  ServerBlockSeverity,
} from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { isoDate } from '../../lib/sql-json.js';
import { publish, publishSql } from '../../events/events.js';
import type { MediaVariant } from '../../db/schema.js';
import type { SummaryRow } from '../users/index.js';

/** The end of a suspension as ISO text; null for none and for good ('infinity'). */
const untilIso = (column: string): SQL =>
  sql.raw(
    `case when ${column} is null or ${column} = 'infinity' then null else to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') end`,
  );

/** A user summary as JSON (alias `alias`), with the keys toUserSummary reads. */
const summaryJson = (alias: string): SQL =>
  sql.raw(
    `json_build_object('_id', ${alias}.id, 'username', ${alias}.username, 'firstName', ${alias}.first_name, 'lastName', ${alias}.last_name, 'photoUrl', ${alias}.photo_url)`,
  );

// ── Roles ─────────────────────────────────────────────────────────────────────────────────────────

/** The role of the account and whether it is suspended now; undefined when there is none. */
export async function selectRole(db: Db, userId: string): Promise<{ role: Role; username: string } | undefined> {
  const [row] = await queryRows<{ role: Role; username: string }>(
    db,
    sql`select role, username from users where id = ${userId}::uuid`,
  );
  return row;
}

/**
 * The account with this username (any letter case) or id, with its role, and whether it is a remote person's shadow
 * account (issue 39: reported, hidden and suspended like anyone, but never given a role).
 */
export async function selectUserRef(
  db: Db,
  ref: { username: string } | { id: string },
): Promise<{ id: string; username: string; role: Role; remote: boolean } | undefined> {
  const where = 'id' in ref ? sql`id = ${ref.id}::uuid` : sql`lower(username) = lower(${ref.username})`;
  const [row] = await queryRows<{ id: string; username: string; role: Role; remote: boolean }>(
    db,
    sql`select id, username, role, remote_actor_id is not null as remote from users where ${where}`,
  );
  return row;
}

export async function updateRole(db: Db, userId: string, role: Role): Promise<void> {
  await db.execute(sql`update users set role = ${role}, updated_at = now() where id = ${userId}::uuid`);
}

// ── Reports ───────────────────────────────────────────────────────────────────────────────────────

/** Who wrote the post (whatever its state); undefined when there is none. */
export async function selectPostAuthor(db: Db, postId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ author_id: string }>(db, sql`select author_id from posts where id = ${postId}::uuid`);
  return row?.author_id;
}

export async function selectComment(
  db: Db,
  commentId: string,
  visible: SQL,
): Promise<{ author_id: string | null; post_id: string } | undefined> {
  // A reply from another server (issue 39) has no author here: `author_id` null, no `cu`.
  const [row] = await queryRows<{ author_id: string | null; post_id: string }>(
    db,
    sql`select c.author_id, c.post_id from comments c left join users cu on cu.id = c.author_id
        where c.id = ${commentId}::uuid and ${visible}`,
  );
  return row;
}

/**
 * The person reported in an inquiry (issue 42): the other one of its two people than the reporter (`reporterId`),
 * else than its latest reporter (a moderator acting on it). Whether the reporter may report it: they are one of
 * the two and have not deleted it for themselves (their own block of the other does not count).
 */
export async function selectInquiryTarget(
  db: Db,
  inquiryId: string,
  reporterId?: string,
): Promise<{ reported_id: string; reporter_may: boolean } | undefined> {
  const reporter = reporterId
    ? sql`${reporterId}::uuid`
    : sql`(select r.reporter_id from reports r where r.target_type = 'inquiry' and r.target_id = iq.id
           and r.reporter_id is not null order by (r.status = 'open') desc, r.created_at desc limit 1)`;
  const [row] = await queryRows<{ reported_id: string; reporter_may: boolean }>(
    db,
    sql`select case when x.reporter = iq.artist_id then iq.client_id else iq.artist_id end as reported_id,
               coalesce((x.reporter = iq.artist_id and iq.artist_deleted_at is null)
                     or (x.reporter = iq.client_id and iq.client_deleted_at is null), false) as reporter_may
        from inquiries iq cross join lateral (select ${reporter} as reporter) x
        where iq.id = ${inquiryId}::uuid`,
  );
  return row;
}

export interface ReportRow {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: ReportReason;
  note: string;
  status: 'open' | 'resolved';
  created_at: string;
}

/** A new open report; a second open one of the same reporter and target fails on reports_open_key. */
export async function insertReport(
  db: Db,
  report: {
    reporterId: string;
    targetType: ReportTargetType;
    targetId: string;
    reason: ReportReason;
    note: string;
    /** Also to the server of the target's remote author (issue 39): its host kept, the federation module told. */
    forward?: boolean | undefined;
  },
): Promise<ReportRow & { forward_to: string | null }> {
  const id = sql`${report.targetId}::uuid`;
  // The host of the remote actor who wrote the work or comment, or is the person (none: nothing to send it to).
  const remoteHost = sql`(select split_part(ra.iri, '/', 3) from remote_actors ra where ra.id = ${
    report.targetType === 'post'
      ? sql`(select u.remote_actor_id from posts p join users u on u.id = p.author_id where p.id = ${id})`
      : report.targetType === 'comment'
        ? sql`(select coalesce(c.remote_actor_id, u.remote_actor_id) from comments c
               left join users u on u.id = c.author_id where c.id = ${id})`
        : report.targetType === 'user'
          ? sql`(select u.remote_actor_id from users u where u.id = ${id})`
          : sql`null::uuid`
  })`;
  const [row] = await queryRows<ReportRow & { forward_to: string | null }>(
    db,
    sql`with added as (
          insert into reports (reporter_id, target_type, target_id, reason, note, forward_to)
          values (${report.reporterId}::uuid, ${report.targetType}, ${id}, ${report.reason}, ${report.note},
            ${report.forward ? remoteHost : sql`null`})
          returning id, target_type, target_id, reason, note, status, forward_to, created_at
        )
        select id, target_type, target_id, reason, note, status, forward_to, ${isoDate('created_at')} as created_at,
          case when forward_to is not null then ${publishSql({ type: 'report-forwarded', reportId: sql`id::text` })} end as sent
        from added`,
  );
  return row!;
}

// ── The queue ─────────────────────────────────────────────────────────────────────────────────────

const QUEUE_ORDER: Keyset = { columns: [sql`t.first_at`, sql`t.target_id`], shape: ['date', 'uuid'], direction: 'asc' };

export interface QueueRow {
  target_type: ReportTargetType;
  target_id: string;
  first_at: Date | string;
  first_reported_at: string;
  report_count: number;
}

/** Targets with open reports, the longest waiting first (by their oldest open report), keyset paged. */
export async function selectQueuePage(
  db: Db,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ page: QueueRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(QUEUE_ORDER, options.cursor, options.limit);
  const rows = await queryRows<QueueRow>(
    db,
    sql`select t.target_type, t.target_id, t.first_at, ${isoDate('t.first_at')} as first_reported_at, t.report_count
        from (
          select target_type, target_id, min(created_at) as first_at, count(*)::int as report_count
          from reports where status = 'open'
          group by target_type, target_id
        ) t
        where ${after}
        order by ${orderBy}
        ${limit}`,
  );
  return keysetPage(rows, options.limit, QUEUE_ORDER.shape, (row) => [row.first_at, row.target_id]);
}

export interface SnapshotRow {
  text: string;
  post_id: string | null;
  author_id: string;
  moderation_state: 'hidden' | 'removed' | null;
  content_warning: string | null;
  created_at: string;
  pictures: MediaVariant[][] | null;
  /** A post's process pictures (issue 41), in order. */
  process_pictures: MediaVariant[][] | null;
  /** An inquiry's reference pictures' ids (issue 42), in order. */
  reference_ids: string[] | null;
}

/** What the target is now, as the moderator sees it (whatever its state); undefined when it was deleted. */
export async function selectSnapshot(db: Db, type: ReportTargetType, id: string): Promise<SnapshotRow | undefined> {
  const query = {
    post: sql`select p.content as text, p.id as post_id, p.author_id, p.moderation_state, p.content_warning,
                ${isoDate('p.created_at')} as created_at,
                (select json_agg(m.variants order by pm.position) from post_media pm join media m on m.id = pm.media_id
                 where pm.post_id = p.id) as pictures,
                (select json_agg(m.variants order by pp.position)
                 from post_process_pictures pp join media m on m.id = pp.media_id
                 where pp.post_id = p.id) as process_pictures,
                null::json as reference_ids
              from posts p where p.id = ${id}::uuid`,
    comment: sql`select c.content as text, c.post_id, c.author_id, c.moderation_state, null::text as content_warning,
                ${isoDate('c.created_at')} as created_at, null::json as pictures, null::json as process_pictures,
                null::json as reference_ids
              from comments c where c.id = ${id}::uuid`,
    user: sql`select u.bio as text, null::uuid as post_id, u.id as author_id, null::text as moderation_state,
                null::text as content_warning, ${isoDate('u.created_at')} as created_at, null::json as pictures,
                null::json as process_pictures, null::json as reference_ids
              from users u where u.id = ${id}::uuid`,
    // An inquiry (issue 42): the thread as its two people see it, the request then the newest 50 messages, each
    // line naming its writer; the author is the person reported (the other one than the latest reporter).
    inquiry: sql`select '@' || c.username || ' asked @' || a.username || ': ' || iq.body
                  || coalesce((select string_agg(E'\n\n@' || mu.username || ': ' || m.body, '' order by m.created_at, m.id)
                               from (select * from inquiry_messages im where im.inquiry_id = iq.id
                                     order by im.created_at desc, im.id desc limit 50) m
                               join users mu on mu.id = m.author_id), '') as text,
                null::uuid as post_id,
                case when (select r.reporter_id from reports r where r.target_type = 'inquiry' and r.target_id = iq.id
                           and r.reporter_id is not null order by (r.status = 'open') desc, r.created_at desc limit 1)
                          = iq.artist_id then iq.client_id else iq.artist_id end as author_id,
                null::text as moderation_state, null::text as content_warning,
                ${isoDate('iq.created_at')} as created_at, null::json as pictures, null::json as process_pictures,
                (select json_agg(ir.id order by ir.created_at, ir.id) from inquiry_references ir
                 where ir.inquiry_id = iq.id) as reference_ids
              from inquiries iq join users a on a.id = iq.artist_id join users c on c.id = iq.client_id
              where iq.id = ${id}::uuid`,
  }[type];
  const [row] = await queryRows<SnapshotRow>(db, query);
  return row;
}

/**
 * A reference picture of an inquiry (issue 42) for a moderator: only while the inquiry has an open report (the
 * pictures are private to its two people otherwise); undefined when there is no such picture or no open report.
 */
export async function selectReportedReference(
  db: Db,
  inquiryId: string,
  referenceId: string,
): Promise<{ content_type: string; data: Uint8Array } | undefined> {
  const [row] = await queryRows<{ content_type: string; data: Uint8Array }>(
    db,
    sql`select ir.content_type, ir.data from inquiry_references ir
        where ir.id = ${referenceId}::uuid and ir.inquiry_id = ${inquiryId}::uuid
          and exists (select 1 from reports r where r.target_type = 'inquiry' and r.target_id = ir.inquiry_id
                      and r.status = 'open')`,
  );
  return row;
}

export interface AuthorRow extends SummaryRow {
  role: Role;
  joined_at: string;
  account_age_days: number;
  post_count: number;
  suspended_now: boolean;
  suspended_until: string | null;
}

export async function selectAuthor(db: Db, userId: string): Promise<AuthorRow | undefined> {
  const [row] = await queryRows<AuthorRow>(
    db,
    sql`select u.id as "_id", u.username, u.first_name as "firstName", u.last_name as "lastName",
               u.photo_url as "photoUrl", u.role, ${isoDate('u.created_at')} as joined_at,
               floor(extract(epoch from now() - u.created_at) / 86400)::int as account_age_days, u.post_count,
               coalesce(u.suspended_until > now(), false) as suspended_now,
               ${untilIso('u.suspended_until')} as suspended_until
        from users u where u.id = ${userId}::uuid`,
  );
  return row;
}

export interface OpenReportRow {
  id: string;
  reason: ReportReason;
  note: string;
  created_at: string;
  /** Null for a remote server's report (then `origin_domain`). */
  reporter: SummaryRow | null;
  origin_domain: string | null;
}

/** The open reports of a target, oldest first, with their reporters (or, for a remote server's, its domain). */
export async function selectOpenReports(db: Db, type: ReportTargetType, id: string, cap: number) {
  return queryRows<OpenReportRow>(
    db,
    sql`select r.id, r.reason, r.note, ${isoDate('r.created_at')} as created_at,
               case when u.id is null then null else ${summaryJson('u')} end as reporter, r.origin_domain
        from reports r left join users u on u.id = r.reporter_id
        where r.status = 'open' and r.target_type = ${type} and r.target_id = ${id}::uuid
        order by r.created_at, r.id
        limit ${cap}`,
  );
}

// ── The audit log ─────────────────────────────────────────────────────────────────────────────────

/** What the audit log records: the actions on targets, role changes, and server blocks (issue 39). */
export type AuditAction = ModerationActionKind | 'role' | (typeof SERVER_BLOCK_ACTIONS)[number];

export interface AuditRow {
  id: string;
  actor_id: string;
  actor_username: string;
  action: AuditAction;
  target_type: ReportTargetType | 'server';
  target_id: string;
  target_user_id: string | null;
  reason: string;
  until: string | null;
  created_at: string;
  created: Date | string;
}

const AUDIT_COLUMNS = sql`a.id, a.actor_id, a.actor_username, a.action, a.target_type, a.target_id, a.target_user_id,
  a.reason, ${untilIso('a.until')} as until, ${isoDate('a.created_at')} as created_at, a.created_at as created`;

const AUDIT_ORDER: Keyset = { columns: [sql`a.created_at`, sql`a.id`], shape: ['date', 'uuid'], direction: 'desc' };

/** The audit log, newest first, keyset paged; `where` narrows it (a target, a person). */
export async function selectAuditPage(
  db: Db,
  options: { cursor?: string | undefined; limit: number; where?: SQL },
): Promise<{ page: AuditRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(AUDIT_ORDER, options.cursor, options.limit);
  const rows = await queryRows<AuditRow>(
    db,
    sql`select ${AUDIT_COLUMNS} from moderation_actions a
        where ${options.where ?? sql`true`} and ${after}
        order by ${orderBy}
        ${limit}`,
  );
  return keysetPage(rows, options.limit, AUDIT_ORDER.shape, (row) => [row.created, row.id]);
}

/** Writes one audit entry (the table takes no UPDATE or DELETE: a trigger refuses them). */
export async function insertAuditEntry(
  tx: Db,
  entry: {
    actorId: string;
    actorUsername: string;
    action: AuditAction;
    targetType: ReportTargetType | 'server';
    targetId: string;
    targetUserId: string | null;
    reason: string;
    until: string | null;
  },
): Promise<AuditRow> {
  const [row] = await queryRows<AuditRow>(
    tx,
    sql`with a as (
          insert into moderation_actions (actor_id, actor_username, action, target_type, target_id, target_user_id, reason, until)
          values (${entry.actorId}::uuid, ${entry.actorUsername}, ${entry.action}, ${entry.targetType},
                  ${entry.targetId}::uuid, ${entry.targetUserId}::uuid, ${entry.reason}, ${entry.until}::timestamptz)
          returning *
        )
        select ${AUDIT_COLUMNS} from a`,
  );
  return row!;
}

// ── Actions ───────────────────────────────────────────────────────────────────────────────────────

/**
 * Hides or removes a post or comment, with the reason its author sees; tells every process (caches). A
 * comment that leaves the thread leaves its post's comment count too: the count is of the comments
 * everyone can read (a hidden comment is shown to its author alone).
 */
export async function updateModerationState(
  tx: Db,
  target: { type: 'post' | 'comment'; id: string; postId: string },
  state: 'hidden' | 'removed',
  reason: string,
): Promise<void> {
  if (target.type === 'post') {
    await tx.execute(
      sql`update posts set moderation_state = ${state}, moderation_reason = ${reason} where id = ${target.id}::uuid`,
    );
    await publish(tx, { type: 'post-changed', postId: target.postId });
    return;
  }
  await tx.execute(
    sql`with before as (
          select id, moderation_state from comments where id = ${target.id}::uuid for update
        ), changed as (
          update comments c set moderation_state = ${state}, moderation_reason = ${reason}
          from before where c.id = before.id
          returning before.moderation_state as was, c.post_id
        )
        update posts p set comment_count = p.comment_count - 1
        from changed where p.id = changed.post_id and changed.was is null`,
  );
  await publish(tx, { type: 'comments-changed', postId: target.postId });
  await publish(tx, { type: 'post-counts-changed', postId: target.postId });
}

/** Sets the post's content warning to "sensitive" when it has none. */
export async function markSensitive(tx: Db, postId: string): Promise<void> {
  await tx.execute(
    sql`update posts set content_warning = 'sensitive' where id = ${postId}::uuid and content_warning is null`,
  );
  await publish(tx, { type: 'post-changed', postId });
}

/**
 * Suspends the account until `until` (null: for good). Every process forgets it was active and drops the
 * cached posts it shows in (`author-changed`).
 */
export async function suspendAccount(tx: Db, userId: string, until: string | null, reason: string): Promise<void> {
  await tx.execute(
    sql`update users set suspended_until = ${until ?? 'infinity'}::timestamptz, suspension_reason = ${reason}
        where id = ${userId}::uuid`,
  );
  await publish(tx, { type: 'author-changed', userId });
}

/**
 * Resolves every open report of the target with this outcome and tells each reporter (a 'report-resolved'
 * notification, its actor the reporter: the moderator is not named). Answers how many were resolved.
 */
export async function resolveReports(
  tx: Db,
  target: { type: ReportTargetType; id: string },
  outcome: ModerationActionKind,
): Promise<number> {
  const [row] = await queryRows<{ resolved: number; notified: number }>(
    tx,
    sql`with resolved as (
          update reports set status = 'resolved', outcome = ${outcome}, resolved_at = now()
          where status = 'open' and target_type = ${target.type} and target_id = ${target.id}::uuid
          returning id, reporter_id
        ), told as (
          -- A remote server's report (no local reporter) is resolved without telling anyone.
          insert into notifications (recipient_id, actor_id, kind, report_id)
          select reporter_id, reporter_id, 'report-resolved', id from resolved where reporter_id is not null
          returning id, recipient_id
        )
        select (select count(*)::int from resolved) as resolved,
               (select count(${publishSql({ type: 'notification-added', recipientId: sql`recipient_id`, notificationId: sql`id` })})::int from told) as notified`,
  );
  return row?.resolved ?? 0;
}

// ── Blocked servers (issue 39) ────────────────────────────────────────────────────────────────────

export interface ServerBlockRow {
  id: string;
  domain: string;
  severity: ServerBlockSeverity;
  reason: string;
  created_by_username: string;
  created_at: string;
  updated_at: string;
}

const BLOCK_COLUMNS = sql`id, domain, severity, reason, created_by_username, ${isoDate('created_at')} as created_at,
  ${isoDate('updated_at')} as updated_at`;

/** The blocked servers, by domain, at most `cap`. */
export function selectServerBlocks(db: Db, cap: number): Promise<ServerBlockRow[]> {
  return queryRows<ServerBlockRow>(db, sql`select ${BLOCK_COLUMNS} from server_blocks order by domain limit ${cap}`);
}

export async function selectServerBlock(db: Db, id: string): Promise<ServerBlockRow | undefined> {
  const [row] = await queryRows<ServerBlockRow>(
    db,
    sql`select ${BLOCK_COLUMNS} from server_blocks where id = ${id}::uuid`,
  );
  return row;
}

/** A new block; a second of the same domain fails on server_blocks_domain_unique. */
export async function insertServerBlock(
  tx: Db,
  block: { domain: string; severity: ServerBlockSeverity; reason: string; actorId: string; actorUsername: string },
): Promise<ServerBlockRow> {
  const [row] = await queryRows<ServerBlockRow>(
    tx,
    sql`insert into server_blocks (domain, severity, reason, created_by, created_by_username)
        values (${block.domain}, ${block.severity}, ${block.reason}, ${block.actorId}::uuid, ${block.actorUsername})
        returning ${BLOCK_COLUMNS}`,
  );
  return row!;
}

/** Changes a block's severity and reason; undefined when it is gone. Answers the row before and after. */
export async function updateServerBlock(
  tx: Db,
  id: string,
  change: { severity?: ServerBlockSeverity | undefined; reason?: string | undefined },
): Promise<{ before: ServerBlockSeverity; row: ServerBlockRow } | undefined> {
  const [row] = await queryRows<ServerBlockRow & { before: ServerBlockSeverity }>(
    tx,
    sql`with old as (select id, severity from server_blocks where id = ${id}::uuid for update)
        update server_blocks b set severity = coalesce(${change.severity ?? null}::text, b.severity),
          reason = coalesce(${change.reason ?? null}::text, b.reason), updated_at = now()
        from old where b.id = old.id
        returning old.severity as before, b.id, b.domain, b.severity, b.reason, b.created_by_username,
          ${isoDate('b.created_at')} as created_at, ${isoDate('b.updated_at')} as updated_at`,
  );
  if (!row) return undefined;
  const { before, ...rest } = row;
  return { before, row: rest };
}

export async function deleteServerBlock(tx: Db, id: string): Promise<ServerBlockRow | undefined> {
  const [row] = await queryRows<ServerBlockRow>(
    tx,
    sql`delete from server_blocks where id = ${id}::uuid returning ${BLOCK_COLUMNS}`,
  );
  return row;
}
