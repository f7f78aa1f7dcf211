import type { FastifyInstance } from 'fastify';
import { MODERATION_LIMITS, type ReportReason } from '@share-arts/contract';
import { HttpError } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { selectCommentIdsAmong, selectReportableUsername } from './more.sql.js';
import { listParam, MASTODON_ROUTE, textParam } from './params.js';

/** Mastodon's report categories as our reasons: legal and rule violations have no reason of their own here. */
const REASON_OF: Record<string, ReportReason> = { spam: 'spam', legal: 'other', violation: 'other', other: 'other' };

/**
 * POST /api/v1/reports (https://docs.joinmastodon.org/methods/reports/) as our moderation reports: each status named
 * (a work, or a comment) is reported on its own, else the account; the comment is the note, the category the
 * reason (spam as spam, the others as other). A second open report of the same thing is no error (already in the
 * queue). `forward` is not acted on: a report of someone on another server stays with our moderators.
 */
export function reportsRoutes(app: FastifyInstance, deps: MastodonDeps): void {
  const { moderation, requireScopes, present, shared } = deps;
  app.post(
    '/v1/reports',
    { schema: MASTODON_ROUTE, preHandler: requireScopes('write', 'write:reports') },
    async (request) => {
      const me = request.userId!;
      const accountId = textParam(request.body, 'account_id');
      if (!accountId) throw validationFailed("account_id can't be blank");
      if (!isUuid(accountId)) throw recordNotFound();
      const statusIds = listParam(request.body, 'status_ids');
      if (statusIds.some((id) => !isUuid(id))) throw recordNotFound();
      const category = textParam(request.body, 'category') ?? (statusIds.length ? 'other' : 'other');
      const reason = REASON_OF[category];
      if (!reason) throw validationFailed(`category must be one of ${Object.keys(REASON_OF).join(', ')}`);
      const comment = textParam(request.body, 'comment') ?? '';
      if (comment.length > MODERATION_LIMITS.noteMax) {
        throw validationFailed(`comment must be at most ${MODERATION_LIMITS.noteMax} characters`);
      }
      const username = await selectReportableUsername(shared.db, accountId);
      if (!username) throw recordNotFound();

      const comments = await selectCommentIdsAmong(shared.db, statusIds);
      const targets = statusIds.length
        ? statusIds.map((id) => ({
            targetType: comments.has(id) ? ('comment' as const) : ('post' as const),
            targetId: id,
          }))
        : [{ targetType: 'user' as const, targetId: username }];
      let first: { _id: string; createdAt: string } | undefined;
      for (const target of targets) {
        try {
          const { report } = await moderation.report(me, { ...target, reason, note: comment });
          first ??= report;
        } catch (error) {
          // Already reported and still open: the report stands.
          if (error instanceof HttpError && error.statusCode === 409) continue;
          throw error;
        }
      }
      const at = present.origin(request);
      const target = (await present.accounts([accountId], at)).get(accountId);
      if (!target) throw recordNotFound();
      return {
        id: first?._id ?? accountId,
        action_taken: false,
        action_taken_at: null,
        category,
        comment,
        forwarded: false,
        created_at: new Date(first?.createdAt ?? Date.now()).toISOString(),
        status_ids: statusIds.length ? statusIds : null,
        rule_ids: null,
        target_account: target,
      };
    },
  );
}
