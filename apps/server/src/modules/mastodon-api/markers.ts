import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../lib/ids.js';
import { validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { selectMarkers, upsertMarker, type MarkerRow } from './more.sql.js';
import { listParam, MASTODON_ROUTE, objectParam } from './params.js';

const TIMELINES = ['home', 'notifications'] as const;
type Timeline = (typeof TIMELINES)[number];

const toMarker = (row: MarkerRow) => ({
  last_read_id: row.last_read_id,
  version: row.version,
  updated_at: new Date(row.updated_at).toISOString(),
});

const asObject = (rows: MarkerRow[]) => Object.fromEntries(rows.map((row) => [row.timeline, toMarker(row)]));

/**
 * Mastodon's markers (GET and POST /api/v1/markers): where the person stopped reading their home timeline and their
 * notifications, kept per account (`mastodon_markers`, migration 0053) so that each of their apps starts there.
 * `last_read_id` is kept as the app sent it (a status id, or a notification id of ours). A notifications marker
 * on one of the person's notifications also marks it and every older one read (our `read_at`), so the web app's bell
 * and GET /api/v1/notifications/unread_count agree with the app.
 */
export function markersRoutes(app: FastifyInstance, { shared, notifications, requireScopes }: MastodonDeps): void {
  const { db } = shared;
  app.get(
    '/v1/markers',
    { schema: MASTODON_ROUTE, preHandler: requireScopes('read', 'read:statuses') },
    async (request) => {
      const asked = listParam(request.query, 'timeline').filter((name): name is Timeline =>
        (TIMELINES as readonly string[]).includes(name),
      );
      return asObject(await selectMarkers(db, request.userId!, asked));
    },
  );

  app.post(
    '/v1/markers',
    { schema: MASTODON_ROUTE, preHandler: requireScopes('write', 'write:statuses') },
    async (request) => {
      const saved: MarkerRow[] = [];
      for (const timeline of TIMELINES) {
        const marker = objectParam(request.body, timeline);
        if (!marker) continue;
        const id = marker.last_read_id;
        if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length === 0 || String(id).length > 100) {
          throw validationFailed(`${timeline}[last_read_id] must be an id`);
        }
        saved.push(await upsertMarker(db, request.userId!, timeline, String(id)));
        // Read up to there: the web app's bell, and unread_count, agree with the app.
        if (timeline === 'notifications' && isUuid(String(id)))
          await notifications.markReadUpTo(request.userId!, String(id));
      }
      if (saved.length === 0) throw validationFailed('give home[last_read_id] or notifications[last_read_id]');
      return asObject(saved);
    },
  );
}
