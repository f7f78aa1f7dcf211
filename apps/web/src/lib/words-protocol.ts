import type { Messages } from '@lingui/core';

/**
 * How the app's chunks get their words in the page's language (issue 43), shared by the head script that loads
 * them (boot/words.ts), Lingui's side (lib/i18n.ts), the build that writes them (vite-plugins/chunk-words.ts) and
 * the service worker that keeps them (sw/sw.ts).
 */

/** The words files' names in the build's assets: `words-<key>.<language>.js`. */
export const WORDS_FILE_PREFIX = 'words-';

export interface Words {
  (key: string): Promise<void> | undefined;
  /** The keys of the chunks that have run, in order. */
  keys: string[];
  /** The words loaded so far, by language. */
  messages: Record<string, Messages>;
  /** Loads a chunk's words in `locale` (once), into `messages`. */
  load(key: string, locale: string): Promise<void>;
  /** Told of each chunk's words as they arrive, once the app runs (lib/i18n.ts). */
  added?: (locale: string, messages: Messages) => void;
}

declare global {
  var __words: Words | undefined;
}
