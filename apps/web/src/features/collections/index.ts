// The collections feature's public face (issue 41): works by anyone, gathered by anyone signed in. Light on purpose
// (the feed's cards and the profile import it): the dialogs and the profile's tab are its lazy faces (save-to.ts,
// profile.ts), and the collection's page is its own feature (features/collection-page).
export { collectionKeys } from './api/collection-keys';
export { collectionPagePath, collectionPaths } from './api/collection-paths';
export { COLLECTION_TEXT_MAX, SAVED_ID } from './model/limits';
