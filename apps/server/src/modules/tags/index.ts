// The tags module's public face: a tag's count and posts, following tags, and tag suggestions.
export { createTagsService, normalizeTag, type TagsService } from './tags.service.js';
export { tagsRoutes } from './tags.routes.js';
export { selectTagSuggestions } from './tags.sql.js';
