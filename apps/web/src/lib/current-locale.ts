import { isLocale, SOURCE_LOCALE, type Locale } from '@share-arts/contract';

/** The language of the server's render under way (entry-server.tsx); no page there to hold it. */
let serverLocale: Locale = SOURCE_LOCALE;

/**
 * The language the page is in now (issue 43): <html lang>, which the head script sets before the first paint and
 * lib/i18n.ts keeps in step when the language changes. Read from the page, not from Lingui, so the formatters (dates,
 * counts, sizes) and the boot script can ask for it without loading the i18n runtime; without a page, the server's
 * render's (unit tests: English).
 */
export function currentLocale(): Locale {
  const lang = typeof document === 'undefined' ? serverLocale : document.documentElement.lang;
  return isLocale(lang) ? lang : SOURCE_LOCALE;
}

/** Set by lib/i18n.ts renderIn. */
export function setServerLocale(locale: Locale): void {
  serverLocale = locale;
}
