// The comments module's public face: its service and routes, and the comment SQL a post read embeds.
export { createCommentsService, type CommentsService } from './comments.service.js';
export { commentsRoutes, type PostAnswers } from './comments.routes.js';
export { commentVisibleTo, newestCommentsJson, selectViewerVotes } from './comments.sql.js';
