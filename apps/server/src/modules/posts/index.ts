// The posts module's public face: posts, reactions and bookmarks, the post cache and their routes.
export { wirePosts, type PostsModule } from './posts.module.js';
export {
  createPostsService,
  languageOf,
  PICTURE_ERRORS,
  type PostPageResult,
  type PostsService,
  type RemoteLikeChange,
} from './posts.service.js';
export { createPostCache, type PostCache, type SearchHit } from './posts.cache.js';
export { selectPostCounts, type PostCounts } from './posts.sql.js';
export { createViewerStateCache, VIEWER_STATE_MARK_MS, type ViewerStateCache } from './viewer-state.js';
