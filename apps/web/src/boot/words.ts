/**
 * The app's words in the page's language, chunk by chunk (issue 43). The build (vite-plugins/chunk-words.ts) starts
 * each chunk that shows messages with `await __words("<key>")`; the head script installs `__words` before any chunk
 * runs. In English it only notes the key (the English is in the code); in another language it loads that chunk's
 * words, `words-<key>.<language>.js`, before the chunk runs, and keeps them for Lingui (lib/i18n.ts), which also
 * asks for every noted chunk's words when the language changes.
 */
import { SOURCE_LOCALE } from '@share-arts/contract';
// Types only: the head script stays free of Lingui.
import type { Messages } from '@lingui/core';
import { WORDS_FILE_PREFIX, type Words } from '../lib/words-protocol';

/** Installs `__words`, loading from `dir` (the build's assets folder, with its trailing slash). */
export function installWords(dir: string): void {
  const loading = new Map<string, Promise<void>>();
  const load = (key: string, locale: string): Promise<void> => {
    const file = `${dir}${WORDS_FILE_PREFIX}${key}.${locale}.js`;
    let pending = loading.get(file);
    if (!pending) {
      pending = import(/* @vite-ignore */ file).then(({ default: messages }: { default: Messages }) => {
        Object.assign((words.messages[locale] ??= {}), messages);
        words.added?.(locale, messages);
      });
      // A failed download (offline) may be tried again.
      pending.catch(() => loading.delete(file));
      loading.set(file, pending);
    }
    return pending;
  };
  const words: Words = Object.assign(
    (key: string) => {
      words.keys.push(key);
      const locale = document.documentElement.lang;
      // Offline, the chunk runs all the same, in English.
      return locale === SOURCE_LOCALE ? undefined : load(key, locale).catch(() => {});
    },
    { keys: [], messages: {}, load },
  );
  globalThis.__words = words;
}

/**
 * The address to preload for one of the build's lists of a page's files (vite-plugins/boot-script.ts), where a
 * chunk's words are listed as `…/words-<key>`: its file in `locale`, or null in English (its words are in the code);
 * any other file as it is.
 */
export function preloadHref(href: string, locale: string): string | null {
  if (!href.includes(`/${WORDS_FILE_PREFIX}`)) return href;
  return locale === SOURCE_LOCALE ? null : `${href}.${locale}.js`;
}
