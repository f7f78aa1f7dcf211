import {
  ERRORS,
  MODERATION_MESSAGES,
  MODERATION_QUEUE_PAGE,
  PAGE_LIMITS,
  type AuditEntry,
  type AuditPage,
  type CreatedReport,
  type CreateReportBody,
  type ModerationActionBody,
  type ModerationActionResult,
  type ModerationQueue,
  type ModerationQueueQuery,
  type ModerationTarget,
  type PageQuery,
  type ReportTargetType,
  type Role,
  type RoleResult,
  SERVER_BLOCK_LIMITS,
  SERVER_BLOCK_MESSAGES,
  type CreateServerBlockBody,
  type ServerBlock,
  type ServerBlockList,
  type ServerBlockResult,
  type UpdateServerBlockBody,
} from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { HttpError, badRequest, notFound } from '../../lib/http-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { isUuid } from '../../lib/ids.js';
import { normalizeServerDomain } from '../../lib/server-domains.js';
import { endServerFollows } from '../../actions/federation.js';
import { jpegFor, mediaUrl, type MediaService } from '../media/index.js';
import type { PostCache, PostsService } from '../posts/index.js';
import { toUserSummary, type AccountCheck } from '../users/index.js';
import { commentVisibleTo } from '../comments/index.js';
import {
  deleteServerBlock,
  insertAuditEntry,
  insertReport,
  insertServerBlock,
  markSensitive,
  resolveReports,
  selectAuditPage,
  selectAuthor,
  selectComment,
  selectOpenReports,
  selectInquiryTarget,
  selectPostAuthor,
  selectQueuePage,
  selectReportedReference,
  selectRole,
  selectServerBlocks,
  selectSnapshot,
  selectUserRef,
  suspendAccount,
  updateModerationState,
  updateRole,
  updateServerBlock,
  type AuditRow,
  type QueueRow,
  type ServerBlockRow,
} from './moderation.sql.js';

export const forbidden = (message: string) => new HttpError(403, message);
export const conflict = (message: string) => new HttpError(409, message);

/** How much of a target's history the queue shows. */
const HISTORY_CAP = 10;
const REPORTS_CAP = 10;

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    _id: row.id,
    actor: { _id: row.actor_id, username: row.actor_username },
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    targetUserId: row.target_user_id,
    reason: row.reason,
    until: row.until,
    createdAt: row.created_at,
  };
}

export function toServerBlock(row: ServerBlockRow): ServerBlock {
  return {
    _id: row.id,
    domain: row.domain,
    severity: row.severity,
    reason: row.reason,
    createdBy: row.created_by_username,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The audit log's words for a server block: its domain, severity and reason. */
const blockReason = (row: ServerBlockRow) => `${row.domain} (${row.severity})${row.reason ? `: ${row.reason}` : ''}`;

/** A target of an action, found whatever its state (a moderator sees everything). */
interface Target {
  type: ReportTargetType;
  id: string;
  /** The author (the person, for a user); null for a reply from another server (issue 39), nobody's account here. */
  authorId: string | null;
  /** The post (of a comment, the post it is on). */
  postId: string | null;
}

/**
 * Reports and moderation (issue 23): anyone signed in reports what they can see; moderators and admins
 * read the queue and act; every action writes the audit log (append-only) and tells each reporter the
 * outcome; admins read the log and name moderators.
 */
export function createModerationService({
  db,
  posts,
  cache,
  accounts,
  media,
  log,
}: {
  db: Db;
  posts: PostsService;
  cache: PostCache;
  accounts: AccountCheck;
  /** A removed post's picture files answer 404 (issue 38, item 6): this process forgets them at once. */
  media: Pick<MediaService, 'forgetPost' | 'fileUrlsOfPost'>;
  /** Where a removed post's files' URLs are written, for the operator's CDN purge (docs/deploy.md). */
  log: Pick<FastifyBaseLogger, 'info'>;
}) {
  /** The caller's role, refusing those below `least` (403); a deleted account was refused by the guard. */
  async function requireRole(userId: string, least: 'moderator' | 'admin') {
    const found = await selectRole(db, userId);
    if (!found) throw notFound(ERRORS.usernameNotRegistered);
    const allowed = least === 'admin' ? found.role === 'admin' : found.role !== 'user';
    if (!allowed)
      throw forbidden(least === 'admin' ? MODERATION_MESSAGES.adminsOnly : MODERATION_MESSAGES.moderatorsOnly);
    return found;
  }

  /** A target by type and id (a person also by username), whatever its state; 404 when there is none. */
  async function findTarget(
    type: ReportTargetType,
    ref: string,
    missing: (t: ReportTargetType) => string,
    reporterId?: string,
  ): Promise<{ target: Target; user?: { username: string }; reporterMay?: boolean }> {
    if (type === 'user') {
      const user = await selectUserRef(db, isUuid(ref) ? { id: ref } : { username: ref });
      if (!user) throw notFound(missing(type));
      return { target: { type, id: user.id, authorId: user.id, postId: null } as Target, user };
    }
    if (!isUuid(ref)) throw notFound(missing(type));
    const id = ref.toLowerCase();
    if (type === 'inquiry') {
      // Issue 42: the person reported is the other one of the two (than the reporter, or the latest reporter).
      const inquiry = await selectInquiryTarget(db, id, reporterId);
      if (!inquiry) throw notFound(missing(type));
      return {
        target: { type, id, authorId: inquiry.reported_id, postId: null } as Target,
        reporterMay: inquiry.reporter_may,
      };
    }
    if (type === 'post') {
      const authorId = await selectPostAuthor(db, id);
      if (!authorId) throw notFound(missing(type));
      return { target: { type, id, authorId, postId: id } as Target };
    }
    const comment = await selectComment(db, id, sql`true`);
    if (!comment) throw notFound(missing(type));
    return { target: { type, id, authorId: comment.author_id, postId: comment.post_id } as Target };
  }

  /**
   * Whether the reporter can see the target: what they cannot see, they cannot report (404, as if none). Their
   * own block of its author does not count: someone harassed blocks first and reports after.
   */
  async function visibleToReporter(target: Target, reporterId: string): Promise<boolean> {
    if (target.type === 'user') return true;
    if (target.type === 'comment' && !(await selectComment(db, target.id, commentVisibleTo(reporterId)))) return false;
    return posts.reportable(target.postId!, reporterId);
  }

  async function queueTarget(row: QueueRow): Promise<ModerationTarget> {
    const snapshot = await selectSnapshot(db, row.target_type, row.target_id);
    const authorId = snapshot?.author_id ?? (row.target_type === 'user' ? row.target_id : undefined);
    const [author, reports, onTarget, history] = await Promise.all([
      authorId ? selectAuthor(db, authorId) : undefined,
      selectOpenReports(db, row.target_type, row.target_id, REPORTS_CAP),
      selectAuditPage(db, {
        limit: HISTORY_CAP,
        where: sql`a.target_type = ${row.target_type} and a.target_id = ${row.target_id}::uuid`,
      }),
      authorId
        ? selectAuditPage(db, { limit: HISTORY_CAP, where: sql`a.target_user_id = ${authorId}::uuid` })
        : undefined,
    ]);
    return {
      targetType: row.target_type,
      targetId: row.target_id,
      content: snapshot
        ? {
            text: snapshot.text,
            postId: snapshot.post_id,
            pictures: (snapshot.pictures ?? []).flatMap((variants) => {
              const chosen = jpegFor(variants, 640);
              return chosen ? [mediaUrl(chosen.file)] : [];
            }),
            processPictures: (snapshot.process_pictures ?? []).flatMap((variants) => {
              const chosen = jpegFor(variants, 640);
              return chosen ? [mediaUrl(chosen.file)] : [];
            }),
            references: (snapshot.reference_ids ?? []).map(
              (referenceId) => `/api/moderation/inquiries/${row.target_id}/references/${referenceId}`,
            ),
            moderation: snapshot.moderation_state,
            contentWarning: snapshot.content_warning,
            createdAt: snapshot.created_at,
          }
        : null,
      author: author
        ? {
            ...toUserSummary(author),
            role: author.role,
            joinedAt: author.joined_at,
            accountAgeDays: Number(author.account_age_days),
            postCount: Number(author.post_count),
            suspendedUntil: author.suspended_now ? (author.suspended_until ?? 'forever') : null,
            history: (history?.page ?? []).map(toAuditEntry),
          }
        : null,
      reports: reports.map((report) => ({
        _id: report.id,
        reason: report.reason,
        note: report.note,
        reporter: report.reporter ? toUserSummary(report.reporter) : null,
        server: report.origin_domain,
        createdAt: report.created_at,
      })),
      reportCount: Number(row.report_count),
      firstReportedAt: row.first_reported_at,
      actions: onTarget.page.map(toAuditEntry),
    };
  }

  return {
    requireRole,

    /** POST /api/reports: one open report per reporter and target (409 for a second). */
    async report(reporterId: string, body: CreateReportBody): Promise<CreatedReport> {
      const { target, user, reporterMay } = await findTarget(
        body.targetType,
        body.targetId,
        MODERATION_MESSAGES.reportTargetNotFound,
        reporterId,
      );
      if (target.authorId === reporterId) throw badRequest(MODERATION_MESSAGES.reportYourself);
      if (target.type === 'inquiry' ? !reporterMay : !(await visibleToReporter(target, reporterId))) {
        throw notFound(MODERATION_MESSAGES.reportTargetNotFound(target.type));
      }
      const row = await insertReport(db, {
        reporterId,
        targetType: target.type,
        targetId: target.id,
        reason: body.reason,
        note: (body.note ?? '').trim(),
        forward: body.forward,
      }).catch((error: unknown) => {
        if (isUniqueViolation(error, 'reports_open_key')) throw conflict(MODERATION_MESSAGES.alreadyReported);
        throw error;
      });
      return {
        report: {
          _id: row.id,
          targetType: row.target_type,
          targetId: user ? user.username : row.target_id,
          reason: row.reason,
          note: row.note,
          status: row.status,
          createdAt: row.created_at,
          ...(row.forward_to ? { forwardTo: row.forward_to } : {}),
        },
        message: MODERATION_MESSAGES.reportThanks,
      };
    },

    /** GET /api/moderation/reports: open reports grouped by target, the longest waiting first. */
    async queue(query: ModerationQueueQuery): Promise<ModerationQueue> {
      const { page, nextCursor } = await selectQueuePage(db, { cursor: query.cursor, limit: MODERATION_QUEUE_PAGE });
      const targets: ModerationTarget[] = [];
      for (const row of page) targets.push(await queueTarget(row));
      return { targets, nextCursor };
    },

    /**
     * GET /api/moderation/inquiries/{id}/references/{referenceId}: a reported inquiry's reference picture, for a
     * moderator (the route's guard), while the inquiry has an open report; 404 otherwise, as for no such picture.
     */
    async reportedReference(inquiryId: string, referenceId: string) {
      const row =
        isUuid(inquiryId) && isUuid(referenceId)
          ? await selectReportedReference(db, inquiryId, referenceId)
          : undefined;
      if (!row) throw notFound(MODERATION_MESSAGES.referenceNotFound);
      return { contentType: row.content_type, data: Buffer.from(row.data) };
    },

    /** POST /api/moderation/actions: acts on the target, writes the audit log, resolves its open reports. */
    async act(actorId: string, body: ModerationActionBody): Promise<ModerationActionResult> {
      const actor = await requireRole(actorId, 'moderator');
      const { target } = await findTarget(body.targetType, body.targetId, MODERATION_MESSAGES.targetNotFound);
      const { action } = body;
      const reason = body.reason.trim();
      if (!reason) throw badRequest('reason is required: say why (the author sees it when content is hidden).');
      if (body.until !== undefined && action !== 'suspend') throw badRequest(MODERATION_MESSAGES.untilOnlyForSuspend);
      let until: string | null = null;
      if (body.until !== undefined) {
        const time = Date.parse(body.until);
        if (Number.isNaN(time) || time <= Date.now()) throw badRequest(MODERATION_MESSAGES.untilInPast);
        until = new Date(time).toISOString();
      }
      if (
        ((action === 'hide' || action === 'remove') && (target.type === 'user' || target.type === 'inquiry')) ||
        (action === 'mark-sensitive' && target.type !== 'post')
      ) {
        throw badRequest(MODERATION_MESSAGES.actionNotForTarget(action, target.type));
      }
      // A remote person has no account here to suspend (their server is blocked instead: "Blocking a server").
      if (action === 'suspend' && !target.authorId) {
        throw badRequest(MODERATION_MESSAGES.actionNotForTarget(action, target.type));
      }
      if (action === 'suspend') {
        const author = await selectRole(db, target.authorId!);
        if (author && author.role !== 'user') throw badRequest(MODERATION_MESSAGES.suspendModerator);
      }

      const { entry, resolved, removedFiles } = await db.transaction(async (tx) => {
        let removedFiles: string[] = [];
        if (action === 'hide' || action === 'remove') {
          await updateModerationState(
            tx,
            { type: target.type as 'post' | 'comment', id: target.id, postId: target.postId! },
            action === 'hide' ? 'hidden' : 'removed',
            reason,
          );
          if (action === 'remove' && target.type === 'post') removedFiles = await media.fileUrlsOfPost(target.id, tx);
        } else if (action === 'mark-sensitive') {
          await markSensitive(tx, target.id);
        } else if (action === 'suspend') {
          await suspendAccount(tx, target.authorId!, until, reason);
        }
        const entry = await insertAuditEntry(tx, {
          actorId,
          actorUsername: actor.username,
          action,
          targetType: target.type,
          targetId: target.id,
          targetUserId: target.authorId,
          reason,
          until,
        });
        return { entry, resolved: await resolveReports(tx, target, action), removedFiles };
      });
      // This process at once; the others hear the events sent with the transaction.
      if (target.postId) {
        cache.invalidate(target.postId);
        // Its pictures' files answer 404 now (removed), or again (a removed post given back to its author).
        media.forgetPost(target.postId);
      }
      if (removedFiles.length > 0) {
        // One line an operator feeds to a CDN's purge: the server itself answers 404 already (docs/deploy.md).
        log.info(
          { postId: target.id, urls: removedFiles },
          "moderation: a removed post's picture files answer 404 from now on; purge these URLs from a CDN",
        );
      }
      if (action === 'suspend') accounts.forget(target.authorId!);
      return { entry: toAuditEntry(entry), resolvedReports: resolved };
    },

    /** GET /api/moderation/servers (moderators): the blocked servers, by domain. */
    async serverBlocks(): Promise<ServerBlockList> {
      return { blocks: (await selectServerBlocks(db, SERVER_BLOCK_LIMITS.listMax)).map(toServerBlock) };
    },

    /**
     * POST /api/moderation/servers (moderators): blocks a server (its subdomains too); audited. A suspension ends
     * the follows of our artists by its actors, in the same transaction.
     */
    async blockServer(actorId: string, body: CreateServerBlockBody): Promise<ServerBlockResult> {
      const actor = await requireRole(actorId, 'moderator');
      const domain = normalizeServerDomain(body.domain);
      if (!domain) throw badRequest(SERVER_BLOCK_MESSAGES.badDomain);
      const result = await db
        .transaction(async (tx) => {
          const row = await insertServerBlock(tx, {
            domain,
            severity: body.severity,
            reason: (body.reason ?? '').trim(),
            actorId,
            actorUsername: actor.username,
          });
          await insertAuditEntry(tx, {
            actorId,
            actorUsername: actor.username,
            action: 'server-block',
            targetType: 'server',
            targetId: row.id,
            targetUserId: null,
            reason: blockReason(row),
            until: null,
          });
          const endedFollows = row.severity === 'suspend' ? await endServerFollows(tx, domain) : 0;
          return { block: toServerBlock(row), endedFollows };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error, 'server_blocks_domain_unique')) throw conflict(SERVER_BLOCK_MESSAGES.exists);
          throw error;
        });
      return result;
    },

    /** PATCH /api/moderation/servers/{id} (moderators): another severity or reason; audited. */
    async changeServerBlock(actorId: string, id: string, body: UpdateServerBlockBody): Promise<ServerBlockResult> {
      const actor = await requireRole(actorId, 'moderator');
      return db.transaction(async (tx) => {
        const changed = await updateServerBlock(tx, id, {
          severity: body.severity,
          reason: body.reason === undefined ? undefined : body.reason.trim(),
        });
        if (!changed) throw notFound(SERVER_BLOCK_MESSAGES.notFound);
        const { row, before } = changed;
        await insertAuditEntry(tx, {
          actorId,
          actorUsername: actor.username,
          action: 'server-change',
          targetType: 'server',
          targetId: row.id,
          targetUserId: null,
          reason: before === row.severity ? blockReason(row) : `${blockReason(row)} (was ${before})`,
          until: null,
        });
        const endedFollows = row.severity === 'suspend' ? await endServerFollows(tx, row.domain) : 0;
        return { block: toServerBlock(row), endedFollows };
      });
    },

    /** DELETE /api/moderation/servers/{id} (moderators): the block is lifted; audited. */
    async unblockServer(actorId: string, id: string): Promise<{ message: string }> {
      const actor = await requireRole(actorId, 'moderator');
      await db.transaction(async (tx) => {
        const row = await deleteServerBlock(tx, id);
        if (!row) throw notFound(SERVER_BLOCK_MESSAGES.notFound);
        await insertAuditEntry(tx, {
          actorId,
          actorUsername: actor.username,
          action: 'server-unblock',
          targetType: 'server',
          targetId: row.id,
          targetUserId: null,
          reason: blockReason(row),
          until: null,
        });
      });
      return { message: SERVER_BLOCK_MESSAGES.removed };
    },

    /** GET /api/moderation/audit (admins): every action, newest first. */
    async audit(actorId: string, query: PageQuery): Promise<AuditPage> {
      await requireRole(actorId, 'admin');
      const { page, nextCursor } = await selectAuditPage(db, {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
      });
      return { entries: page.map(toAuditEntry), nextCursor };
    },

    /** PUT /api/admin/users/{username}/role (admins): names or un-names a moderator; audited. */
    async setRole(
      actorId: string,
      username: string,
      role: Exclude<Role, 'admin'>,
      reason?: string,
    ): Promise<RoleResult> {
      const actor = await requireRole(actorId, 'admin');
      const user = await selectUserRef(db, { username });
      if (!user) throw notFound(ERRORS.userNotFound);
      if (user.id === actorId) throw badRequest(MODERATION_MESSAGES.ownRole);
      if (user.remote) throw badRequest(MODERATION_MESSAGES.remoteRole);
      if (user.role === 'admin') throw badRequest(MODERATION_MESSAGES.adminRole);
      if (user.role !== role) {
        await db.transaction(async (tx) => {
          await updateRole(tx, user.id, role);
          await insertAuditEntry(tx, {
            actorId,
            actorUsername: actor.username,
            action: 'role',
            targetType: 'user',
            targetId: user.id,
            targetUserId: user.id,
            reason: reason ?? `role: ${user.role} → ${role}`,
            until: null,
          });
        });
      }
      return { username: user.username, role };
    },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
