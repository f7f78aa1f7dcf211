import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Draft } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { toMediaAttachment } from './entities/index.js';
import { recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { selectScheduledCounts } from './mastodon-api.sql.js';
import { MASTODON_ROUTE, textParam } from './params.js';

/**
 * A scheduled draft as Mastodon's ScheduledStatus (https://docs.joinmastodon.org/entities/ScheduledStatus/): the
 * params a status made from it would have (its words, pictures, warning as `spoiler_text`, language).
 */
export function toScheduledStatus(draft: Draft, at: string) {
  const warning = draft.rights.contentWarning;
  return {
    id: draft._id,
    scheduled_at: new Date(draft.scheduledAt!).toISOString(),
    params: {
      text: draft.content,
      poll: null,
      media_ids: draft.pictures.map((picture) => picture._id),
      sensitive: warning !== null,
      spoiler_text: warning,
      visibility: 'public',
      language: draft.language,
      scheduled_at: null,
      in_reply_to_id: null,
      application_id: null,
      idempotency: null,
      with_rate_limit: false,
    },
    media_attachments: draft.pictures.map((picture) => toMediaAttachment(picture, at)),
  };
}
export type MastoScheduledStatus = ReturnType<typeof toScheduledStatus>;

/** Mastodon's limits of scheduled statuses per account (its ScheduledStatus::TOTAL_LIMIT and DAILY_LIMIT). */
export const SCHEDULED_LIMITS = { total: 300, daily: 25 } as const;

/** Mastodon's refusals past those limits (its `scheduled_statuses.over_total_limit` and `over_daily_limit`). */
export const MASTO_SCHEDULE_ERRORS = {
  overTotal: `You have exceeded the limit of ${SCHEDULED_LIMITS.total} scheduled posts`,
  overDaily: `You have exceeded the limit of ${SCHEDULED_LIMITS.daily} scheduled posts for today`,
} as const;

/**
 * Mastodon's limits, checked before a status is scheduled at `at` or a scheduled one moved there (`exceptId`, not
 * counted twice): 422 `Validation failed: …` when the person already has 300 scheduled, or 25 on that day (UTC, as
 * Mastodon counts). The drafts module keeps at most DRAFT_LIMITS.perArtist (100) drafts, so today the daily limit
 * is the one met; the total is kept as Mastodon's, should that change.
 */
export async function checkScheduleLimits(db: Db, authorId: string, at: Date, exceptId: string | null = null) {
  const { total, sameDay } = await selectScheduledCounts(db, authorId, at, exceptId);
  if (total >= SCHEDULED_LIMITS.total) throw validationFailed(MASTO_SCHEDULE_ERRORS.overTotal);
  if (sameDay >= SCHEDULED_LIMITS.daily) throw validationFailed(MASTO_SCHEDULE_ERRORS.overDaily);
}

/** How many drafts a list reads at most to find the scheduled ones (a person's drafts are few). */
const DRAFTS_READ_MAX = 500;

/**
 * Scheduled statuses (https://docs.joinmastodon.org/methods/scheduled_statuses/) are our scheduled drafts (issue 41):
 * the list (those with a time, soonest first), one, a new time (PUT scheduled_at, in UTC; the time zone kept is
 * UTC), and DELETE, which takes the draft off the schedule and keeps it as a draft (nothing is lost; the web app's
 * Drafts still has it). Making one is POST /api/v1/statuses with
 * `scheduled_at` (statuses.routes.ts): a new draft, scheduled.
 */
export function scheduledRoutes(app: FastifyInstance, { drafts, present, requireScopes, shared }: MastodonDeps): void {
  const read = { schema: MASTODON_ROUTE, preHandler: requireScopes('read', 'read:statuses') };
  const write = { schema: MASTODON_ROUTE, preHandler: requireScopes('write', 'write:statuses') };

  /** The person's scheduled draft by id; any other: Record not found. */
  async function scheduled(request: FastifyRequest): Promise<Draft> {
    const id = (request.params as { id: string }).id;
    if (!isUuid(id)) throw recordNotFound();
    const draft = await drafts.read(id, request.userId!);
    if (!draft.scheduledAt) throw recordNotFound();
    return draft;
  }

  app.get('/v1/scheduled_statuses', read, async (request) => {
    const me = request.userId!;
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let read = 0; read < DRAFTS_READ_MAX;) {
      const page = await drafts.list(me, { limit: 50, ...(cursor ? { cursor } : {}) });
      read += page.drafts.length;
      ids.push(...page.drafts.filter((draft) => draft.scheduledAt).map((draft) => draft._id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const at = present.origin(request);
    const found = await Promise.all(ids.map((id) => drafts.read(id, me)));
    return found
      .filter((draft) => draft.scheduledAt)
      .sort((a, b) => Date.parse(a.scheduledAt!) - Date.parse(b.scheduledAt!))
      .map((draft) => toScheduledStatus(draft, at));
  });

  app.get('/v1/scheduled_statuses/:id', read, async (request) =>
    toScheduledStatus(await scheduled(request), present.origin(request)),
  );

  app.put('/v1/scheduled_statuses/:id', write, async (request) => {
    const draft = await scheduled(request);
    const when = textParam(request.body, 'scheduled_at');
    if (!when || Number.isNaN(Date.parse(when))) throw validationFailed('scheduled_at must be a date and time');
    await checkScheduleLimits(shared.db, request.userId!, new Date(when), draft._id);
    const changed = await drafts
      .schedule(request.userId!, draft._id, { at: new Date(when).toISOString(), timeZone: 'UTC' })
      .catch((error: unknown) => {
        if (error instanceof HttpError && error.statusCode === 400) throw validationFailed(error.message);
        throw error;
      });
    return toScheduledStatus(changed, present.origin(request));
  });

  app.delete('/v1/scheduled_statuses/:id', write, async (request) => {
    const draft = await scheduled(request);
    await drafts.unschedule(request.userId!, draft._id);
    return {};
  });
}
