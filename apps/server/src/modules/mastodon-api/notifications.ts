import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUuid } from '../../lib/ids.js';
import { toPersonSummary } from '../users/index.js';
import { toAccount, type MastoAccount, type MastoStatus } from './entities/index.js';
import { recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import {
  selectNotificationKey,
  selectNotificationRows,
  selectUnreadNotificationCount,
  type MastoNotificationRow,
} from './more.sql.js';
import { statusesOf } from './more.statuses.js';
import { listParam, MASTODON_ROUTE, textParam } from './params.js';
import { setLinkHeader } from './paging.js';

/**
 * Our notification kinds as Mastodon's notification types. A like of a work and an upvote of a comment are
 * `favourite` (of that work, or of the comment as a Status); a comment on the person's work is a `mention` whose
 * status is the comment (a reply to the work), as Mastodon notifies a reply; a mention is a `mention`; a follow
 * (here or from another server) is `follow`; a boost from another server is `reblog`; a new work in a series the
 * person follows is `status` (Mastodon's "someone you asked to be told about posted"). The kinds that have no
 * Mastodon type are left out of this API: report-resolved, collection-work, commissions-open and the inquiries
 * (private threads); the web app shows them.
 */
export const TYPE_OF_KIND: Record<string, MastoNotificationType> = {
  like: 'favourite',
  upvote: 'favourite',
  comment: 'mention',
  mention: 'mention',
  follow: 'follow',
  boost: 'reblog',
  'series-work': 'status',
};
type MastoNotificationType = 'favourite' | 'mention' | 'follow' | 'reblog' | 'status';
const MAPPED_KINDS = Object.keys(TYPE_OF_KIND);

/** The types Mastodon defines that never happen here (asked for alone: an empty list). */
const KNOWN_TYPES = new Set([
  'mention',
  'status',
  'reblog',
  'follow',
  'follow_request',
  'favourite',
  'poll',
  'update',
  'admin.sign_up',
  'admin.report',
  'severed_relationships',
  'moderation_warning',
  'annual_report',
]);

export interface MastoNotification {
  id: string;
  type: MastoNotificationType;
  group_key: string;
  created_at: string;
  account: MastoAccount;
  status?: MastoStatus;
}

/** The kinds the query's types[] and exclude_types[] leave. */
function kindsOf(query: unknown): string[] {
  const types = listParam(query, 'types');
  const excluded = new Set(listParam(query, 'exclude_types'));
  for (const type of [...types, ...excluded]) {
    if (!KNOWN_TYPES.has(type)) throw validationFailed(`${type} is not a notification type`);
  }
  const wanted = new Set(types);
  return MAPPED_KINDS.filter((kind) => {
    const type = TYPE_OF_KIND[kind]!;
    return (wanted.size === 0 || wanted.has(type)) && !excluded.has(type);
  });
}

/** The rows as Mastodon Notifications: one read of their people and one of their works; unseen statuses drop. */
export async function presentNotifications(
  deps: MastodonDeps,
  rows: readonly MastoNotificationRow[],
  viewerId: string,
  at: string,
): Promise<MastoNotification[]> {
  const local = rows.flatMap((row) => (row.actor_id ? [row.actor_id] : []));
  const [accounts, statuses] = await Promise.all([
    deps.present.accounts(local, at),
    statusesOf(
      deps,
      rows.map((row) =>
        row.kind === 'follow'
          ? { postId: null, commentId: null }
          : {
              postId: row.post_id,
              commentId:
                row.kind === 'like' || row.kind === 'boost' || row.kind === 'series-work' ? null : row.comment_id,
            },
      ),
      viewerId,
      at,
    ),
  ]);
  return rows.flatMap((row, i) => {
    const type = TYPE_OF_KIND[row.kind];
    if (!type) return [];
    const account = (row.actor_id && accounts.get(row.actor_id)) || toAccount(toPersonSummary(row.actor), at);
    const status = statuses[i];
    if (type !== 'follow' && !status) return [];
    return [
      {
        id: row.id,
        type,
        group_key: `ungrouped-${row.id}`,
        created_at: new Date(row.created_at).toISOString(),
        account,
        ...(status ? { status } : {}),
      },
    ];
  });
}

/**
 * Notifications (https://docs.joinmastodon.org/methods/notifications/): the list (types[], exclude_types[],
 * account_id, max_id / since_id / min_id by notification id, limit 40 by default and up to 80, as Mastodon), one by id, the unread
 * count, dismiss and clear. Each notification is one row of ours, not the web app's groups. The v2 grouped
 * notifications are answered as absent (absent.ts).
 */
export function notificationsRoutes(app: FastifyInstance, deps: MastodonDeps): void {
  const { shared, present, notifications, requireScopes } = deps;
  const { db } = shared;
  const read = { schema: MASTODON_ROUTE, preHandler: requireScopes('read', 'read:notifications') };
  const write = { schema: MASTODON_ROUTE, preHandler: requireScopes('write', 'write:notifications') };

  async function keyOf(userId: string, id: string | undefined) {
    if (id === undefined) return undefined;
    if (!isUuid(id)) return null;
    return (await selectNotificationKey(db, userId, id)) ?? null;
  }

  app.get('/v1/notifications', read, async (request, reply) => {
    const me = request.userId!;
    const at = present.origin(request);
    const limit = pageLimitOf(request.query, 40, 80);
    const kinds = kindsOf(request.query);
    const accountId = textParam(request.query, 'account_id');
    if (accountId !== undefined && !isUuid(accountId)) return [];
    const before = await keyOf(me, textParam(request.query, 'max_id'));
    // A max_id that is none of theirs (dismissed since): nothing older is known from it.
    if (before === null) return [];
    const minId = textParam(request.query, 'min_id');
    const after = (await keyOf(me, minId ?? textParam(request.query, 'since_id'))) ?? undefined;
    const rows = await selectNotificationRows(
      db,
      me,
      { kinds, accountId },
      { ...(before ? { before } : {}), ...(after ? { after, oldestFirst: minId !== undefined } : {}) },
      limit,
    );
    const page = await presentNotifications(deps, rows, me, at);
    setLinkHeader(reply, request, at, {
      next: rows.length === limit ? rows.at(-1)!.id : null,
      prev: rows[0]?.id ?? null,
    });
    return page;
  });

  app.get('/v1/notifications/unread_count', read, async (request) => {
    const limit = pageLimitOf(request.query, 100, 1000);
    return { count: await selectUnreadNotificationCount(db, request.userId!, kindsOf(request.query), limit) };
  });

  app.get('/v1/notifications/:id', read, async (request) => {
    const me = request.userId!;
    const id = (request.params as { id: string }).id;
    if (!isUuid(id)) throw recordNotFound();
    const rows = await selectNotificationRows(db, me, { kinds: MAPPED_KINDS, id }, {}, 1);
    const [notification] = await presentNotifications(deps, rows, me, present.origin(request));
    if (!notification) throw recordNotFound();
    return notification;
  });

  const dismiss = async (request: FastifyRequest, id: string | undefined) => {
    if (id === undefined || !isUuid(id)) throw recordNotFound();
    if ((await notifications.dismiss(request.userId!, id)) === 0) throw recordNotFound();
    return {};
  };
  app.post('/v1/notifications/:id/dismiss', write, async (request) =>
    dismiss(request, (request.params as { id: string }).id),
  );
  // The older form (Mastodon before 3.1): the id in the body.
  app.post('/v1/notifications/dismiss', write, async (request) => dismiss(request, textParam(request.body, 'id')));
  app.post('/v1/notifications/clear', write, async (request) => {
    await notifications.dismiss(request.userId!, undefined);
    return {};
  });
}

/** `limit` for these routes: Mastodon's default and maximum differ from the statuses' 20/40. */
function pageLimitOf(query: unknown, fallback: number, max: number): number {
  const value = textParam(query, 'limit');
  if (value === undefined) return fallback;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) throw validationFailed('limit must be a positive whole number');
  return Math.min(limit, max);
}
