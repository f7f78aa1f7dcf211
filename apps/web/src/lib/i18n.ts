import { i18n } from '@lingui/core';
import type { Words } from './words-protocol';
import { currentLocale, setServerLocale } from './current-locale';
import {
  isLocale,
  LOCALE_COOKIE,
  LOCALE_STORAGE_KEY,
  localeDirection,
  matchLocale,
  SOURCE_LOCALE,
  type Locale,
} from '@share-arts/contract';

/**
 * Artists' words are never altered (issue 43): Lingui decodes `\u0061`-style escapes in a formatted message, values
 * included, so a title that says `\u0061` would show `a`. The values' backslashes travel as a private-use character
 * through the formatting, and come back after it.
 */
const BACKSLASH = '\uE000';
const keep = (values: unknown): unknown => {
  if (!values || typeof values !== 'object') return values;
  let changed = false;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string' && value.includes('\\')) {
      kept[key] = value.replaceAll('\\', BACKSLASH);
      changed = true;
    } else kept[key] = value;
  }
  return changed ? kept : values;
};
type Format = (id: unknown, values?: unknown, options?: unknown) => string;
const format = i18n._.bind(i18n) as Format;
const keepingBackslashes: Format = (id, values, options) => {
  const descriptor = id && typeof id === 'object' ? { ...id, values: keep((id as { values?: unknown }).values) } : id;
  const text = format(descriptor, keep(values), options);
  return text.includes(BACKSLASH) ? text.replaceAll(BACKSLASH, '\\') : text;
};
i18n._ = keepingBackslashes as typeof i18n._;
// The React bindings format through `t` (bound to the original when the instance was made).
i18n.t = i18n._;

/**
 * The app's language (issue 43). English's words are in the code (vite-plugins/source-messages.ts). In the built
 * app, each chunk loads its own words in the page's language before it runs (boot/words.ts, loaded by the head
 * script); switching language loads those of every chunk already here. The development server and the server's
 * render load a language's whole catalogue at once (catalogues.ts). The head script (boot/head.ts) picked the
 * language before the first paint — the saved choice, else the best match of the browser's — and wrote it in
 * <html lang>; the first render waits for its words (main.tsx).
 */
const CHUNKED = !import.meta.env.DEV && !import.meta.env.SSR;
const chunked = CHUNKED ? globalThis.__words : undefined;
if (chunked) {
  // A chunk that arrives later (a page first visited) brings its words for the language shown: added to Lingui's
  // messages where they are, as nothing of that chunk is on screen yet to re-render.
  chunked.added = (locale, messages) => {
    if (locale === i18n.locale) Object.assign(i18n.messages, messages);
  };
}

const loading = new Map<Locale, Promise<void>>();

async function loadChunks(words: Words, locale: Locale): Promise<void> {
  // A chunk may run while these load (its words then come in the language it found): until every chunk's are here.
  let count: number;
  do {
    count = words.keys.length;
    await Promise.all(words.keys.map((key) => words.load(key, locale)));
  } while (words.keys.length !== count);
  i18n.load(locale, words.messages[locale] ?? {});
}

function load(locale: Locale): Promise<void> {
  if (locale === SOURCE_LOCALE) return Promise.resolve();
  if (CHUNKED) return chunked ? loadChunks(chunked, locale) : Promise.reject(new Error('No head script: no words'));
  let pending = loading.get(locale);
  if (!pending) {
    pending = import('./catalogues')
      .then(({ catalogue }) => catalogue(locale))
      .then((messages) => i18n.load(locale, messages));
    // A failed download (offline) may be tried again.
    pending.catch(() => loading.delete(locale));
    loading.set(locale, pending);
  }
  return pending;
}

export { currentLocale };

/** The language the head script chose for this visit (<html lang>). */
export function pageLocale(): Locale {
  const lang = typeof document === 'undefined' ? SOURCE_LOCALE : document.documentElement.lang;
  return isLocale(lang) ? lang : SOURCE_LOCALE;
}

/**
 * Shows the app in `locale`: loads its catalogue if it is not here yet, then switches every mounted message at
 * once (the I18nProvider re-renders), and sets the page's lang and direction. Arabic lays it out right to left.
 */
export async function activateLocale(locale: Locale): Promise<void> {
  await load(locale);
  if (locale === SOURCE_LOCALE) i18n.load(SOURCE_LOCALE, {});
  i18n.activate(locale);
  if (typeof document !== 'undefined') {
    document.documentElement.lang = locale;
    document.documentElement.dir = localeDirection(locale);
  }
}

/** A person's choice (Settings): kept on this device, and for the next visit's first paint. */
export async function chooseLocale(locale: Locale): Promise<void> {
  await activateLocale(locale);
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // The choice still holds for this visit (and on the account, if signed in).
  }
  keepCookie(locale);
}

/**
 * The choice as a cookie too (LOCALE_COOKIE): the server draws a shared page in it, before any script has run. A
 * year, like a saved theme; null forgets it.
 */
/* eslint-disable lingui/no-unlocalized-strings -- a cookie's attributes, not words */
function keepCookie(locale: Locale | null): void {
  const attributes = ['Path=/', 'SameSite=Lax', `Max-Age=${locale ? 365 * 24 * 3600 : 0}`];
  if (window.location.protocol === 'https:') attributes.push('Secure');
  document.cookie = [`${LOCALE_COOKIE}=${locale ?? ''}`, ...attributes].join('; ');
}
/* eslint-enable lingui/no-unlocalized-strings */

// A choice saved before the cookie existed gets it now.
if (typeof document !== 'undefined' && !import.meta.env.SSR) {
  let saved: string | null = null;
  try {
    saved = window.localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    // Nothing kept.
  }
  if (isLocale(saved) && !document.cookie.split('; ').includes(`${LOCALE_COOKIE}=${saved}`)) keepCookie(saved);
}

/** The best of our languages for the browser's. */
export function browserLocale(): Locale {
  return matchLocale(navigator.languages ?? [navigator.language]);
}

/** "Your browser's" (Settings): the saved choice is forgotten, and the app follows the browser again. */
export async function forgetLocaleChoice(): Promise<void> {
  await activateLocale(browserLocale());
  try {
    window.localStorage.removeItem(LOCALE_STORAGE_KEY);
  } catch {
    // Nothing was kept.
  }
  keepCookie(null);
}

/**
 * The account's language (Settings, kept on the account) wins over this device's, once the person is known: it
 * follows them to a new device. Called with the signed-in person's choice; null leaves the device's.
 */
export function followAccountLocale(language: Locale | null | undefined): void {
  if (language && language !== currentLocale()) void chooseLocale(language);
}

/**
 * The server's render (entry-server.tsx) in `locale`: its catalogue loaded (once), to be switched to by
 * `renderIn` right before a render, as renders of other languages take turns with it.
 */
export async function loadForServer(locale: Locale): Promise<void> {
  await load(locale);
  if (locale === SOURCE_LOCALE) i18n.load(SOURCE_LOCALE, {});
}

/** Switches the server's render to `locale` (loaded by loadForServer), with nothing awaited before it renders. */
export function renderIn(locale: Locale): void {
  setServerLocale(locale);
  i18n.activate(locale);
}

export { i18n };
