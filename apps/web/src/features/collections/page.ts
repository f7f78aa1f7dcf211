// The collections feature's face for the collection's page (features/collection-page, a lazy route): reading and
// changing one collection, its works and their order.
export { useCollection, useCollectionWorks } from './api/collection-queries';
export {
  storeCollection,
  useDeleteCollection,
  useMoveCollectionWorks,
  useRemoveFromCollection,
  useSetNote,
  useUpdateCollection,
} from './api/collection-mutations';
export { CollectionCover } from './components/collection-cover';
export { VisibilityChoice } from './components/visibility-choice';
