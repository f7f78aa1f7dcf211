// The drafts module's public face (issue 41): drafts and scheduled posts (drafts, draft_media), their routes and the
// per-minute job that publishes the scheduled ones.
export { wireDrafts, DRAFT_JOBS, type DraftsModule } from './drafts.module.js';
export { createDraftsService, DRAFT_ERRORS, isTimeZone, type DraftsService } from './drafts.service.js';
