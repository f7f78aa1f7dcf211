// The comments module's public face: its service and routes, and the comment SQL a post read embeds.
export { wireComments, type CommentsModule } from './comments.module.js';
export { createCommentsService, type CommentsService } from './comments.service.js';
export type { PostAnswers } from './comments.routes.js';
export { commentVisibleTo, newestCommentsJson, selectViewerVotes } from './comments.sql.js';
