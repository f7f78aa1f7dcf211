// The insights module's public face (issue 42): an artist's own counts (post_view_days, profile_view_days), the views
// beacon and its batches.
export { wireInsights, type InsightsModule } from './insights.module.js';
export { INSIGHTS_ERRORS, windowOf } from './insights.service.js';
export { VIEW_ERRORS, VIEWS_PER_ADDRESS } from './insights.routes.js';
export { createViewCounter, dayOf, FLUSH_EVERY_MS, isBot, MEMORY_SEEN_MAX, type ViewCounter } from './view-counter.js';
