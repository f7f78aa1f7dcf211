import type { COLLECTION_LIMITS } from '@share-arts/contract';

/**
 * The contract's limits of a collection, repeated and checked against it by their types (as the series feature's:
 * the contract's schema modules are in the signed-in shell's chunk; these are needed only where a collection changes).
 */
export const COLLECTION_TEXT_MAX = {
  title: 100 satisfies (typeof COLLECTION_LIMITS)['titleMax'],
  description: 2000 satisfies (typeof COLLECTION_LIMITS)['descriptionMax'],
  note: 500 satisfies (typeof COLLECTION_LIMITS)['noteMax'],
};

/** Saved's id and slug: the bookmarks, each person's default private collection. */
export const SAVED_ID = 'saved';
