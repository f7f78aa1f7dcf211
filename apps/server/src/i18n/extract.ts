/**
 * `npm run i18n:extract` (server part) and `npm run i18n:check`: the server's catalogues, apps/server/locales/<code>.po
 * (issue 43). Every message the server says to a person is a string of an exported `*_ERRORS` or `*_MESSAGES`
 * constant (the contract's or a server module's; `ERRORS` too) or a schema's `errorMessage`; this gathers them all,
 * by importing those modules, and writes one catalogue per language: English lists the source, the others keep
 * their translations. `--check` writes nothing and fails when a catalogue is not what extraction would write, or
 * when a language lacks a translation.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as contract from '@share-arts/contract';
import { LOCALES, SOURCE_LOCALE } from '@share-arts/contract';
import { createItem, createPoFile, parsePo, stringifyPo, type PoItem } from 'pofile-ts';

const SERVER_SRC = fileURLToPath(new URL('..', import.meta.url));
const CATALOGUES = fileURLToPath(new URL('../../locales/', import.meta.url));
const CONSTANT = /^([A-Z][A-Z0-9_]*_)?(ERRORS|MESSAGES)$/;

/** Each message's English, with where it was found (for translators). */
type Found = Map<string, Set<string>>;

function add(found: Found, text: string, where: string): void {
  const trimmed = text.trim();
  if (!trimmed || !/[A-Za-z]/.test(trimmed)) return;
  let places = found.get(text);
  if (!places) found.set(text, (places = new Set()));
  places.add(where);
}

/** A constant's strings, however deep. */
function collectConstant(found: Found, value: unknown, where: string, seen: Set<unknown>): void {
  if (typeof value === 'string') add(found, value, where);
  else if (value && typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    for (const [key, inner] of Object.entries(value)) collectConstant(found, inner, `${where}.${key}`, seen);
  }
}

/** The `errorMessage` of every schema inside `value`. */
function collectSchemaMessages(found: Found, value: unknown, where: string, seen: Set<unknown>): void {
  if (!value || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  const record = value as Record<string, unknown>;
  if (typeof record.errorMessage === 'string') add(found, record.errorMessage, `${where} (schema)`);
  for (const inner of Object.values(record)) collectSchemaMessages(found, inner, where, seen);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'i18n' ? [] : sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

export async function collectMessages(): Promise<Found> {
  const found: Found = new Map();
  const seen = new Set<unknown>();
  for (const [name, value] of Object.entries(contract)) {
    if (CONSTANT.test(name)) collectConstant(found, value, name, seen);
  }
  for (const [name, value] of Object.entries(contract)) collectSchemaMessages(found, value, name, new Set());
  for (const file of sourceFiles(SERVER_SRC)) {
    const names = [...readFileSync(file, 'utf8').matchAll(/^export const ([A-Z][A-Z0-9_]*)\b/gm)]
      .map((match) => match[1]!)
      .filter((name) => CONSTANT.test(name));
    if (names.length === 0) continue;
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const name of names) collectConstant(found, module[name], name, seen);
  }
  return found;
}

/** What the catalogue of `locale` should hold, keeping the translations `previous` has. */
function catalogueText(locale: string, found: Found, previous: string | null): string {
  const kept = new Map<string, PoItem>();
  if (previous) for (const item of parsePo(previous).items) kept.set(item.msgid, item);
  const po = createPoFile();
  po.headers = { 'Content-Type': 'text/plain; charset=utf-8', Language: locale };
  for (const text of [...found.keys()].sort()) {
    const item = createItem();
    item.msgid = text;
    item.references = [...found.get(text)!].sort().slice(0, 3);
    item.msgstr = [locale === SOURCE_LOCALE ? text : (kept.get(text)?.msgstr[0] ?? '')];
    po.items.push(item);
  }
  return stringifyPo(po);
}

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const found = await collectMessages();
  let failed = false;
  for (const locale of LOCALES) {
    const file = path.join(CATALOGUES, `${locale}.po`);
    const previous = read(file);
    const next = catalogueText(locale, found, previous);
    const missing = parsePo(next).items.filter((item) => !item.msgstr[0]).length;
    if (check) {
      if (previous !== next) {
        console.error(`apps/server/locales/${locale}.po is not what extraction writes: run npm run i18n:extract.`);
        failed = true;
      }
      if (missing > 0) {
        console.error(`apps/server/locales/${locale}.po: ${missing} of ${found.size} messages are not translated.`);
        failed = true;
      }
    } else {
      if (previous !== next) writeFileSync(file, next);
      console.log(`${locale}: ${found.size} messages, ${missing} to translate`);
    }
  }
  if (failed) process.exit(1);
  if (check) console.log(`The server's catalogues hold all ${found.size} messages, in every language.`);
}

await main();
