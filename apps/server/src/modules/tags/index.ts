// The tags module's public face: a tag's count and posts, following tags, and tag suggestions.
export { wireTags, type TagsModule } from './tags.module.js';
export { normalizeTag, type TagsService } from './tags.service.js';
export { selectTagSuggestions } from './tags.sql.js';
