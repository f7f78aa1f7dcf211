import type { MastoStatus } from './status.js';

/** Mastodon's Context (https://docs.joinmastodon.org/entities/Context/). */
export interface MastoContext {
  ancestors: MastoStatus[];
  descendants: MastoStatus[];
}

/**
 * A work's context: no ancestors (a work answers nothing), its comments as descendants, oldest first (each a
 * Status replying to the work). A comment's context: the work as its one ancestor, no descendants (comments here
 * are not threaded).
 */
export const toContext = (ancestors: MastoStatus[], descendants: MastoStatus[]): MastoContext => ({
  ancestors,
  descendants,
});
