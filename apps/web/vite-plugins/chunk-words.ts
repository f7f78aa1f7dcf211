import { hash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatter } from '@lingui/format-po';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import MagicString from 'magic-string';
import type { Plugin } from 'vite';
import { LOCALES, SOURCE_LOCALE } from '@share-arts/contract';
import { WORDS_FILE_PREFIX } from '../src/lib/words-protocol.ts';

/** The message ids each module shows, as vite-plugins/source-messages.ts found them. */
export type MessagesByModule = Map<string, Set<string>>;

type Compiled = ReturnType<typeof compileMessage>;

/**
 * Each chunk's words in each language, as a file of their own (issue 43): a chunk of the app that shows messages
 * starts with `await __words("<key>")`, and the head script (src/boot/words.ts) loads `words-<key>.<language>.js`
 * before the chunk runs, in any language but English (whose words are in the code). So a page loads the words of
 * the chunks it loads, not the whole catalogue, and switching language loads those of the chunks already here.
 *
 * The key is a hash of the chunk's messages in every language: a changed translation makes a new key, so a new
 * chunk name, and a browser never keeps stale words under the old name. The client build only: the server's render
 * and the development server load whole catalogues (lib/i18n.ts).
 */
export function chunkWords(root: string, messagesByModule: MessagesByModule): Plugin {
  // Every language but the source: its catalogue, compiled, by message id.
  let catalogues: Map<string, Map<string, Compiled>> | undefined;
  const files = new Map<string, string>();
  return {
    name: 'share-arts:chunk-words',
    apply: (config, { command }) => command === 'build' && !config.build?.ssr,
    async buildStart() {
      const po = formatter({ lineNumbers: false });
      catalogues = new Map();
      for (const locale of LOCALES) {
        if (locale === SOURCE_LOCALE) continue;
        const filename = path.join(root, 'src/locales', `${locale}.po`);
        const catalogue = await po.parse(await readFile(filename, 'utf8'), {
          locale,
          sourceLocale: SOURCE_LOCALE,
          filename,
        });
        const compiled = new Map<string, Compiled>();
        for (const [id, entry] of Object.entries(catalogue ?? {})) {
          // `npm run i18n:check` fails a message left untranslated; the build still shows the English rather than nothing.
          const text = entry.translation || entry.message;
          if (text) compiled.set(id, compileMessage(text));
        }
        catalogues.set(locale, compiled);
      }
    },
    renderChunk(code, chunk) {
      if (!catalogues) return null;
      const ids = new Set<string>();
      for (const moduleId of chunk.moduleIds) for (const id of messagesByModule.get(moduleId) ?? []) ids.add(id);
      if (ids.size === 0) return null;
      const sorted = [...ids].sort();
      const byLocale = [...catalogues].map(([locale, compiled]) => {
        const messages: Record<string, Compiled> = {};
        for (const id of sorted) {
          const message = compiled.get(id);
          if (message === undefined)
            this.error(
              `${chunk.fileName}: the message ${id} is in no catalogue of ${locale}: run npm run i18n:extract.`,
            );
          messages[id] = message;
        }
        return [locale, `export default ${JSON.stringify(messages)};\n`] as const;
      });
      // Eight characters (48 bits): the page's scripts list these keys (boot-script.ts), and they do not compress.
      const all = byLocale.map(([locale, source]) => locale + source).join('\n');
      const key = hash('sha256', all, 'base64url').slice(0, 8);
      for (const [locale, source] of byLocale) files.set(`assets/${WORDS_FILE_PREFIX}${key}.${locale}.js`, source);
      const out = new MagicString(code);
      // Before the chunk's own code, after its imports (which run first anyway): nothing of it runs before its words.
      out.prepend(`await globalThis.__words?.(${JSON.stringify(key)});\n`);
      return { code: out.toString(), map: out.generateMap({ hires: 'boundary' }) };
    },
    generateBundle() {
      for (const [fileName, source] of files) this.emitFile({ type: 'asset', fileName, source });
      files.clear();
    },
  };
}
