// The moderation module's public face (issue 23): reports, the moderation queue and actions, the audit log, roles.
export { createModerationService, type ModerationService } from './moderation.service.js';
export { moderationRoutes } from './moderation.routes.js';
export { grantRole, makeAdmin } from './roles.js';
