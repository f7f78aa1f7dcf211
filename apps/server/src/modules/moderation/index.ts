// The moderation module's public face (issue 23): reports, the moderation queue and actions, the audit log, roles.
export { wireModeration, type ModerationModule } from './moderation.module.js';
export type { ModerationService } from './moderation.service.js';
export { grantRole, makeAdmin } from './roles.js';
