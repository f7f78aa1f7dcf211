// The collections module's public face (issue 41): works by anyone, gathered by anyone signed in (collections,
// collection_works), their routes, and what the pages module draws a public collection's shared page with.
export { wireCollections, type CollectionsModule } from './collections.module.js';
export {
  collectionSlugOf,
  COLLECTION_ERRORS,
  createCollectionsService,
  type CollectionsService,
} from './collections.service.js';
