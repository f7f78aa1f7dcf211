import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import {
  isLocale,
  LOCALE_COOKIE,
  LOCALES,
  matchLocale,
  parseAcceptLanguage,
  SOURCE_LOCALE,
  type Locale,
} from '@share-arts/contract';
import { parsePo } from 'pofile-ts';

/**
 * The server's words in the reader's language (issue 43): the API's error messages, its few other messages, and
 * the mails. Each is a string of a `*_ERRORS` or `*_MESSAGES` constant, or a schema's `errorMessage`: `npm run
 * i18n:extract` gathers them (src/i18n/extract.ts) into one catalogue per language, apps/server/locales/<code>.po,
 * and a translation is found by its English. The spec's messages stay word for word in English, and are
 * translated like the rest in the other languages.
 */
const CATALOGUES = fileURLToPath(new URL('../../locales/', import.meta.url));

interface Catalogue {
  /** English → translation, for plain text. */
  texts: Map<string, string>;
  /** Formats ICU messages (with values) in this language. */
  i18n: I18n;
}

const catalogues = new Map<Locale, Catalogue>();

function catalogue(locale: Locale): Catalogue {
  let found = catalogues.get(locale);
  if (!found) {
    const texts = new Map<string, string>();
    if (locale !== SOURCE_LOCALE) {
      let content = '';
      try {
        content = readFileSync(`${CATALOGUES}${locale}.po`, 'utf8');
      } catch {
        // No catalogue (yet): English.
      }
      for (const item of parsePo(content).items) {
        const translation = item.msgstr[0];
        if (item.msgid && translation) texts.set(item.msgid, translation);
      }
    }
    // Messages are compiled when first formatted, and kept (keyed by their English).
    const i18n = setupI18n({ locale, messages: { [locale]: {} } });
    found = { texts, i18n };
    catalogues.set(locale, found);
  }
  return found;
}

/** `english` in `locale`: its translation, else the English itself. */
export function translate(locale: Locale, english: string): string {
  if (locale === SOURCE_LOCALE) return english;
  return catalogue(locale).texts.get(english) ?? english;
}

/**
 * An ICU message (`Hello {username},`) with its values, in `locale`: its translation formatted, else the English
 * formatted. Plurals and numbers follow the language's rules.
 */
export function format(locale: Locale, english: string, values: Record<string, unknown> = {}): string {
  const { i18n, texts } = catalogue(locale);
  if (!Object.prototype.hasOwnProperty.call(i18n.messages, english)) {
    i18n.load(locale, { [english]: compileMessage(texts.get(english) ?? english) });
  }
  return i18n._(english, values);
}

/** The language an HTTP request asks for, by its Accept-Language (the web app sends the one it shows); else null. */
export function acceptedLocale(header: string | undefined): Locale | null {
  const tags = parseAcceptLanguage(header);
  if (tags.length === 0) return null;
  const best = matchLocale(tags);
  // matchLocale falls back to English: only a tag that names English, or one of ours, counts.
  return tags.some((tag) => tag.toLowerCase().startsWith(best.split('-')[0]!.toLowerCase())) ? best : null;
}

/** The stored choice, if it is one of ours. */
export function chosenLocale(language: string | null | undefined): Locale | null {
  return isLocale(language) ? language : null;
}

export { LOCALES, SOURCE_LOCALE, type Locale };

/**
 * A message the server answers with, in `locale`: as the catalogue has it, or (a schema's `errorMessage` is sent
 * with a full stop after it) the sentence without its full stop, translated, with the language's own.
 */
export function translateSentence(locale: Locale, text: string): string {
  if (locale === SOURCE_LOCALE) return text;
  const { texts } = catalogue(locale);
  const exact = texts.get(text);
  if (exact !== undefined) return exact;
  if (text.endsWith('.')) {
    const bare = texts.get(text.slice(0, -1));
    if (bare !== undefined) return /[.。!?！？]$/.test(bare) ? bare : `${bare}${locale === 'ja' ? '。' : '.'}`;
  }
  return text;
}

/** The language a mail to someone is written in: the one they chose, else English. */
export function mailLocale(language: string | null | undefined): Locale {
  return chosenLocale(language) ?? SOURCE_LOCALE;
}

/**
 * The language saved in the browser (LOCALE_COOKIE) in a request's Cookie header, read as the session cookie is
 * (modules/sessions/session-cookie.ts): only a value shaped like one of our codes is taken, anything else is passed
 * over, never thrown on.
 */
const SAVED_LOCALE = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([A-Za-z-]{2,16})\\s*(?:;|$)`);

/**
 * The language a page drawn on the server speaks (issue 43), for a document request: the language saved in the
 * browser (the web app writes LOCALE_COOKIE when a person picks one, and clears it for "your browser's"), else the
 * one the signed-in viewer's account keeps (`chosen`: known where the server checked the session, Home), else the
 * best match of the browser's Accept-Language, else English.
 */
export function pageLocale({
  cookie,
  acceptLanguage,
  chosen,
}: {
  /** The request's Cookie header. */
  cookie?: string | undefined;
  acceptLanguage?: string | undefined;
  /** The viewer's `settings.language`, when the request is known to be theirs. */
  chosen?: string | null | undefined;
}): Locale {
  const saved = cookie ? SAVED_LOCALE.exec(cookie)?.[1] : undefined;
  return (isLocale(saved) ? saved : null) ?? chosenLocale(chosen) ?? acceptedLocale(acceptLanguage) ?? SOURCE_LOCALE;
}
