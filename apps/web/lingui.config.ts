import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { LOCALES, SOURCE_LOCALE } from '@share-arts/contract';

/**
 * The web app's words (issue 43): `npm run i18n:extract` gathers every message the code marks (Lingui's macros)
 * into one catalogue per language, src/locales/<code>.po; translators fill them in. English is the source:
 * its words stay in the code (vite-plugins/source-messages.ts), and its catalogue only lists them.
 */
export default defineConfig({
  sourceLocale: SOURCE_LOCALE,
  locales: [...LOCALES],
  fallbackLocales: { default: SOURCE_LOCALE },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}',
      include: ['<rootDir>/src'],
      exclude: ['**/*.test.*', '**/locales/**'],
    },
  ],
  orderBy: 'messageId',
  // Where each message is used, by file: no line numbers, so moving code does not rewrite the catalogues.
  format: formatter({ lineNumbers: false }),
});
