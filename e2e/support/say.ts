// The words a spec looks for, in the language its Playwright project runs in (issue 43). The `arabic` and
// `japanese` projects set the browser's `locale` (navigator.languages, and the Accept-Language header the server
// translates its errors by); a spec writes each name or text in English and `say` answers it as the page shows it:
// the web app's catalogue (apps/web/src/locales/<code>.po), else the server's (apps/server/locales/<code>.po),
// formatted by Lingui as the app formats it (ICU plurals and {placeholders}). A message missing from both
// catalogues throws: a spec must not pass in English while the page is meant to be in another language (and in
// English, a text that is no message at all fails at once, rather than only in the other projects).
import { readFileSync } from 'node:fs';
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { test } from '@playwright/test';
import { matchLocale, SOURCE_LOCALE, type Locale } from '@share-arts/contract';
import { parsePo } from 'pofile-ts';

const WEB_CATALOGUES = new URL('../../apps/web/src/locales/', import.meta.url);
const SERVER_CATALOGUES = new URL('../../apps/server/locales/', import.meta.url);

/** Between a message's context and its English in the catalogues' keys (gettext's own separator). */
const CONTEXT = '\u0004';

/** English → translation, one map per catalogue; English's lists the source (so a spec's typo fails there too). */
function readCatalogue(folder: URL, locale: Locale): Map<string, string> {
  const translations = new Map<string, string>();
  for (const item of parsePo(readFileSync(new URL(`${locale}.po`, folder), 'utf8')).items) {
    const translation = locale === SOURCE_LOCALE ? item.msgid : item.msgstr[0];
    // A message with a context (the same English said differently in a narrow place) is keyed by both.
    const key = item.msgctxt ? `${item.msgctxt}${CONTEXT}${item.msgid}` : item.msgid;
    if (item.msgid && translation && !item.obsolete) translations.set(key, translation);
  }
  return translations;
}

interface Language {
  web: Map<string, string>;
  server: Map<string, string>;
  /** Formats the compiled messages, loaded as they are first said (keyed by their English). */
  i18n: I18n;
}

const languages = new Map<Locale, Language>();

function language(locale: Locale): Language {
  let found = languages.get(locale);
  if (!found) {
    found = {
      web: readCatalogue(WEB_CATALOGUES, locale),
      server: readCatalogue(SERVER_CATALOGUES, locale),
      i18n: setupI18n({ locale, messages: { [locale]: {} } }),
    };
    languages.set(locale, found);
  }
  return found;
}

/** The language the running test's project speaks: its `locale` as the app matches it; English without one. */
export function testLocale(): Locale {
  const locale = test.info().project.use.locale;
  return locale ? matchLocale([locale]) : SOURCE_LOCALE;
}

type Catalogue = 'web' | 'server';

function translation(locale: Locale, english: string, from: readonly Catalogue[]): string {
  const { web, server } = language(locale);
  for (const catalogue of from) {
    const found = (catalogue === 'web' ? web : server).get(english);
    if (found !== undefined) return found;
  }
  throw new Error(
    locale === SOURCE_LOCALE
      ? `"${english}" is not a message of the ${from.join(' or ')} catalogue (apps/*/locales/en.po)`
      : `"${english}" has no ${locale} translation in the ${from.join(' or ')} catalogue`,
  );
}

function formatted(english: string, values: Record<string, unknown>, from: readonly Catalogue[]): string {
  const locale = testLocale();
  const { i18n } = language(locale);
  // The same English may be in both catalogues, translated differently: keyed by where it came from too.
  const id = `${from.join('+')}:${english}`;
  if (!Object.prototype.hasOwnProperty.call(i18n.messages, id)) {
    i18n.load(locale, { [id]: compileMessage(translation(locale, english, from)) });
  }
  // A message's elements (`<0>…</0>`) wrap words the page shows as text: a name or a text is what is left.
  return i18n._(id, values).replace(/<\/?\d+\/?>/g, '');
}

/**
 * `english` (a message of the web app, else of the server, exactly as written in the code) in the test's
 * language, formatted with `values`. English answers the English.
 */
export function say(english: string, values: Record<string, unknown> = {}): string {
  return formatted(english, values, ['web', 'server']);
}

/** A message the code gives a context (`msg({ message, context })`): the same English, said for that place. */
export function sayIn(context: string, english: string): string {
  return formatted(`${context}${CONTEXT}${english}`, {}, ['web']);
}

/** A message of the server's (an API answer's `errors`), as the page shows it in the test's language. */
export function sayFromServer(english: string, values: Record<string, unknown> = {}): string {
  return formatted(english, values, ['server']);
}

/** Stands for any text in `sayPattern`'s values. */
export const ANY = Symbol('any text');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A message as a pattern: the values given as `ANY` (text placeholders, not a plural's count) match any text, each
 * captured in the group of its name (the words around it are in the language's order). It matches the whole text
 * by default, or a text that starts with the message, or the message anywhere in a longer text.
 */
export function sayPattern(
  english: string,
  values: Record<string, unknown> = {},
  { match = 'whole' }: { match?: 'whole' | 'start' | 'anywhere' } = {},
): RegExp {
  const markers = new Map<string, string>();
  const withMarkers = Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      if (value !== ANY) return [key, value];
      const marker = `\uE000${markers.size}\uE001`;
      markers.set(marker, key);
      return [key, marker];
    }),
  );
  let source = escapeRegExp(say(english, withMarkers));
  for (const [marker, key] of markers) {
    source = source.replace(marker, `(?<${key}>.+?)`).replaceAll(marker, `\\k<${key}>`);
  }
  return new RegExp(match === 'whole' ? `^${source}$` : match === 'start' ? `^${source}` : source);
}

/** A number as the app writes it in the test's language (with the same options as the app's `Intl.NumberFormat`). */
export function sayNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(testLocale(), options).format(value);
}

/** Names listed as the app lists them in the test's language ("a, b"; "a、b"; "a وb"): Intl's narrow list. */
export function sayList(items: string[]): string {
  return new Intl.ListFormat(testLocale(), { type: 'conjunction', style: 'narrow' }).format(items);
}
