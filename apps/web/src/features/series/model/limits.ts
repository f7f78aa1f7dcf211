import type { SERIES_LIMITS } from '@share-arts/contract';

/**
 * The contract's limits of a series, repeated and checked against it by their types: the contract's schema
 * modules are grouped into the signed-in shell's chunk (vite-plugins/chunk-groups.ts), which every feed loads,
 * and these are needed only by the pages that change a series.
 */
export const SERIES_TEXT_MAX = {
  title: 100 satisfies (typeof SERIES_LIMITS)['titleMax'],
  description: 2000 satisfies (typeof SERIES_LIMITS)['descriptionMax'],
  chapter: 60 satisfies (typeof SERIES_LIMITS)['chapterMax'],
};
