import type { RegisterMastodonRoutes } from './mastodon-api.deps.js';
import { absentRoutes } from './absent.js';
import { filtersRoutes } from './filters.js';
import { instanceRoutes } from './instance.js';
import { markersRoutes } from './markers.js';
import { notificationsRoutes } from './notifications.js';
import { preferencesRoutes } from './preferences.js';
import { reportsRoutes } from './reports.js';
import { scheduledRoutes } from './scheduled.js';
import { searchRoutes } from './search.js';
import { streamingRoutes } from './streaming.js';
import { tagsRoutes } from './tags.js';

/**
 * masto-more's route files of the Mastodon client API (issue 45), registered after the core's in the same scope:
 * instance, markers, notifications, search, tags, filters, reports, preferences, blocks and mutes, scheduled
 * statuses, streaming, and the features answered as absent.
 */
export const MORE_ROUTE_FILES: RegisterMastodonRoutes[] = [
  instanceRoutes,
  markersRoutes,
  notificationsRoutes,
  searchRoutes,
  tagsRoutes,
  filtersRoutes,
  reportsRoutes,
  preferencesRoutes,
  scheduledRoutes,
  streamingRoutes,
  absentRoutes,
];
