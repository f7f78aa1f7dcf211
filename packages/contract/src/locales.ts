/**
 * The languages the app speaks (issue 43). English is the source: its words live in the code; every other
 * language is one catalogue, apps/web/src/locales/<code>.po. Adding a language is its catalogue and its code here.
 */
export const LOCALES = ['en', 'es', 'pt-BR', 'ja', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const SOURCE_LOCALE: Locale = 'en';
/** Where a browser keeps the language chosen on it (localStorage; STORAGE_KEYS.locale). */
export const LOCALE_STORAGE_KEY = 'locale';
/**
 * The same choice as a cookie (`locale=ja; Path=/; SameSite=Lax`), which the app writes beside localStorage: the
 * server draws a shared page in it before any script has run.
 */
export const LOCALE_COOKIE = 'locale';

// Languages written right to left (by their primary subtag).
const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug']);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function localeDirection(locale: string): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(locale.split('-')[0]!.toLowerCase()) ? 'rtl' : 'ltr';
}

/**
 * The best of our languages for a list of language tags, best first (a browser's `navigator.languages`, or
 * an Accept-Language header's, see parseAcceptLanguage): the first tag we speak exactly (case aside), else the
 * first whose language we speak in some form (`pt-PT` → `pt-BR`, `es-MX` → `es`, `ja-JP` → `ja`); else English.
 */
export function matchLocale(tags: readonly string[]): Locale {
  for (const tag of tags) {
    const exact = LOCALES.find((locale) => locale.toLowerCase() === tag.trim().toLowerCase());
    if (exact) return exact;
    const language = tag.trim().split('-')[0]!.toLowerCase();
    const near = LOCALES.find((locale) => locale.split('-')[0]!.toLowerCase() === language);
    if (near) return near;
  }
  return SOURCE_LOCALE;
}

/** An Accept-Language header's tags, best first (`q=0` left out; malformed parts ignored). */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 512)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter(({ tag, weight }) => weight > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ tag }) => tag);
}
