import {
  kvCache,
  preloadedContexts,
  type AuthenticatedDocumentLoaderFactory,
  type DocumentLoader,
  type Federation,
  type KvKey,
  type KvStore,
  type KvStoreListEntry,
  type KvStoreSetOptions,
  type RemoteDocument,
} from '@fedify/fedify';
import { CryptographicKey } from '@fedify/vocab';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.js';
import { kvDelete, kvGet, kvList, kvSet, kvSweep } from './federation.sql.js';

/** Entries a process keeps in memory, of every kind together (a remote actor's document is a few kilobytes). */
const KEPT_ENTRIES = 20_000;

/**
 * What a process may answer from its memory, by Fedify's key prefix (`_fedify`, then this), and for how long at
 * most; any other key is read from the database each time. Each is safe across processes because it cannot
 * change under a reader, or because a stale read costs nothing but a retry:
 *
 * - `remoteDocument`: a copy of another server's document, kept (here as in the database) until its ttl (5
 *   minutes), which is how stale Fedify allows it to be.
 * - `publicKey`: a remote actor's key. When a signature fails against a key read from a cache, Fedify fetches
 *   the key again and writes it (here and in the database): a rotated key costs one fetch, as it does without.
 * - `activityIdempotence`: the mark that an activity was taken in; once set it stays until its ttl, so a mark
 *   read is true, but its absence is always asked of the database (another process may have just set it).
 * - `httpMessageSignaturesSpec`: which signature a server accepts, rarely changing; read stale for a minute, a
 *   delivery signed the other way is refused once and sent again the right way (Fedify's double-knocking).
 * - `circuit`: a host's delivery failures. Its absence (every healthy host) is read twice a delivery; read
 *   stale for a few seconds, a process sees another's open circuit that much later and sends a few more
 *   deliveries there, each failing and retried as any other.
 *
 * `acceptSignatureNonce` (used once) is never kept.
 */
const KEPT: Record<string, { ms: number; absent: boolean } | undefined> = {
  remoteDocument: { ms: Infinity, absent: false },
  publicKey: { ms: Infinity, absent: false },
  activityIdempotence: { ms: Infinity, absent: false },
  httpMessageSignaturesSpec: { ms: 60_000, absent: true },
  circuit: { ms: 5_000, absent: true },
};

/** A value kept in memory; `undefined` when the database has none (kept only where `absent` is). */
interface Kept {
  value: unknown;
}

/**
 * A remote document's URL without its fragment: a fragment is never sent to the server, so `…/users/a#main-key`
 * (the key an HTTP signature names) and `…/users/a` (its actor) are one document, fetched and kept once.
 */
function documentUrl(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/** Fedify's key as stored: its key array's JSON, a remote document's URL (the last) without its fragment. */
function keyOf(key: KvKey): string {
  if (key[0] === '_fedify' && key[1] === 'remoteDocument' && key.length > 2)
    return JSON.stringify([...key.slice(0, -1), documentUrl(key.at(-1))]);
  return JSON.stringify(key);
}

/** How long a process may keep `key` in memory (ms), and whether its absence too; undefined: never. */
const policyOf = (key: KvKey) => (key[0] === '_fedify' && key.length > 2 ? KEPT[key[1]!] : undefined);

/**
 * Fedify's key-value store on the app's database (`federation_kv`, migration 0029), in place of its
 * MemoryKvStore (lost on restart, one per process) and of @fedify/postgres (published for Fedify 1.x only).
 * A key is the JSON of Fedify's key array, so listing by a prefix of the array is a prefix match of the
 * text; an entry past its ttl is gone for every read, and the hourly sweep (`sweepExpired`) deletes it.
 *
 * In front of the database, each process keeps what may be read from memory (KEPT: remote documents and keys,
 * the marks of activities taken in, a few seconds of delivery state), at most KEPT_ENTRIES, each no longer
 * than its ttl in the database: an activity taken in then reads its actor's key and document with no round trip.
 * Writes go to the database, then to the memory.
 */
export function createDatabaseKvStore(db: Db): KvStore & { sweepExpired(): Promise<void> } {
  const memory = new LRUCache<string, Kept>({ max: KEPT_ENTRIES, ttlAutopurge: false });

  /** Keeps `value` (undefined: none) at `key` for at most `ttlMs` (undefined: no ttl), as its policy allows. */
  const keep = (key: KvKey, text: string, value: unknown, ttlMs: number | undefined) => {
    const policy = policyOf(key);
    if (!policy || (value === undefined && !policy.absent)) return;
    const ms = Math.min(policy.ms, ttlMs ?? Infinity);
    if (ms <= 0) memory.delete(text);
    else memory.set(text, { value }, Number.isFinite(ms) ? { ttl: ms } : {});
  };

  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      const text = keyOf(key);
      const kept = memory.get(text);
      // A copy, as each read of the database is: what a caller does with it stays its own.
      if (kept) return structuredClone(kept.value) as T | undefined;
      const row = await kvGet(db, text);
      keep(key, text, row && structuredClone(row.value), row?.ttlMs ?? undefined);
      return row ? (row.value as T) : undefined;
    },
    async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
      const text = keyOf(key);
      // JSON cannot hold undefined: Fedify never stores it, and a read would not tell it from "no entry".
      const json = JSON.stringify(value ?? null);
      const ttlMs = options?.ttl?.total({ unit: 'millisecond' });
      await kvSet(db, text, json, ttlMs);
      keep(key, text, JSON.parse(json), ttlMs);
    },
    async delete(key: KvKey): Promise<void> {
      const text = keyOf(key);
      await kvDelete(db, text);
      memory.delete(text);
    },
    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      const exact = prefix ? keyOf(prefix) : undefined;
      const rows = await kvList(db, exact ? { exact, open: `${exact.slice(0, -1)},` } : undefined);
      for (const row of rows) yield { key: JSON.parse(row.key) as KvKey, value: row.value };
    },
    sweepExpired: () => kvSweep(db),
  };
}

/**
 * The documents fetched signed by one actor's key (the instance actor's: the shared inbox's fetches, of each
 * activity's sender and its key) kept in `kv` as Fedify keeps the unsigned ones (5 minutes), apart from them
 * (`remoteDocument`, `signed`): Fedify caches no signed fetch, so each activity taken in fetched its actor again.
 * Only that actor's: what it may see, any fetch for the server may; a fetch signed as an account (at its own inbox)
 * may show what only that account may see, and is not kept. Fedify has no option for it beside
 * `allowPrivateAddress` (which the tests need), so its factory is wrapped where the federation keeps it (Fedify
 * 2.3's field; without it, nothing is kept and everything still works). What must be read afresh (a Move's target,
 * whose aliases may have just changed) asks `freshLoader`.
 */
export function keepSignedFetches<Data>(federation: Federation<Data>, kv: KvStore, keyPath: string): void {
  const fields = federation as unknown as { authenticatedDocumentLoaderFactory?: AuthenticatedDocumentLoaderFactory };
  const signed = fields.authenticatedDocumentLoaderFactory;
  if (typeof signed !== 'function') return;
  // The instance actor's loaders, made once per key and options (each context asked for one: see keepLoaders).
  const made = new WeakMap<object, Map<string, DocumentLoader>>();
  fields.authenticatedDocumentLoaderFactory = (identity, options) => {
    if (new URL(identity.keyId).pathname !== keyPath) return signed(identity, options);
    const key = optionsKey([identity.keyId, options]);
    const mine = made.get(identity.privateKey) ?? new Map<string, DocumentLoader>();
    made.set(identity.privateKey, mine);
    const known = key === undefined ? undefined : mine.get(key);
    if (known) return known;
    const loader = signed(identity, options);
    const kept = kvCache({ loader, kv, prefix: ['_fedify', 'remoteDocument', 'signed'] });
    uncached.set(kept, loader);
    if (key !== undefined && mine.size < MADE_LOADERS) mine.set(key, kept);
    return kept;
  };
}

/** The loaders a process keeps made, per factory (one per origin the site answers on, in practice one). */
const MADE_LOADERS = 16;

/**
 * A loader's options as a key (JSON of plain values: whether private addresses are allowed, the user agent and its
 * origin); undefined when they hold anything else (a function, a signal), whose loader is made afresh.
 */
function optionsKey(options: unknown): string | undefined {
  const plain = (value: unknown): boolean =>
    value === undefined ||
    value === null ||
    ['string', 'number', 'boolean'].includes(typeof value) ||
    (Array.isArray(value) && value.every(plain)) ||
    (typeof value === 'object' &&
      Object.getPrototypeOf(value) === Object.prototype &&
      Object.values(value as object).every(plain));
  return plain(options) ? JSON.stringify(options) : undefined;
}

/**
 * Fedify's document and context loaders made once per set of options, not once per context: Fedify 2.3 makes a
 * context for each activity taken in and each delivery, and each made two loaders, each compiling its default cache
 * rule (`new URLPattern({})`, the polyfill: 6 % of the CPU an activity taken in took, bench:federation, session 28).
 * A loader keeps nothing of its own (what it caches is in the key-value store), so one serves every context.
 * Wrapped where the federation keeps its factories (Fedify 2.3's fields; without them, nothing changes).
 */
export function keepLoaders<Data>(federation: Federation<Data>): void {
  const fields = federation as unknown as {
    documentLoaderFactory?: (options?: unknown) => DocumentLoader;
    contextLoaderFactory?: (options?: unknown) => DocumentLoader;
  };
  for (const name of ['documentLoaderFactory', 'contextLoaderFactory'] as const) {
    const factory = fields[name];
    if (typeof factory !== 'function') continue;
    const made = new Map<string, DocumentLoader>();
    fields[name] = (options?: unknown) => {
      const key = optionsKey(options);
      const known = key === undefined ? undefined : made.get(key);
      if (known) return known;
      const loader = staticContexts(factory(options));
      if (key !== undefined && made.size < MADE_LOADERS) made.set(key, loader);
      return loader;
    };
  }
}

/**
 * `loader` with the JSON-LD contexts bundled in Fedify (ActivityStreams, the security vocabulary, Mastodon's…) marked
 * `static`, as jsonld.js marks the contexts written inline: jsonld.js then keeps each processed once for every later
 * expansion, instead of processing it again in each (Fedify's loaders do not mark them: that was most of the JSON-LD
 * expansion's 12 % of the CPU of an activity taken in, bench:federation, session 28). They are part of the code.
 */
function staticContexts(loader: DocumentLoader): DocumentLoader {
  return async (url, options) => {
    const document = await loader(url, options);
    return Object.hasOwn(preloadedContexts, url) ? ({ ...document, tag: 'static' } as RemoteDocument) : document;
  };
}

/** Keys parsed, by their JSON-LD (and base URL) as the key cache hands it: at most this many. */
const PARSED_KEYS = 5_000;
/** The mark that CryptographicKey.fromJsonLd is wrapped already (one wrapping per process, however many apps). */
const PARSED = Symbol('share-arts.parsed-keys');

/**
 * A remote actor's key parsed from its JSON-LD once, not at each activity it signs: Fedify's key cache keeps a key as
 * its JSON-LD and parses it (a JSON-LD expansion and an SPKI import) for each signature it checks, 8 % of the CPU of
 * an activity taken in (bench:federation, session 28). A `CryptographicKey` cannot change once made, so the one parsed
 * from the same JSON-LD serves each read; a key rotated is other JSON-LD (Fedify fetches it again when a signature
 * fails), parsed anew. Wrapped where Fedify's key cache calls it (`CryptographicKey.fromJsonLd`), once per process.
 */
export function keepParsedKeys(): void {
  const keyClass = CryptographicKey as unknown as {
    fromJsonLd: (json: unknown, options?: { baseUrl?: URL }) => Promise<CryptographicKey>;
    [PARSED]?: true;
  };
  if (keyClass[PARSED]) return;
  keyClass[PARSED] = true;
  const parse = keyClass.fromJsonLd.bind(CryptographicKey);
  const parsed = new LRUCache<string, Promise<CryptographicKey>>({ max: PARSED_KEYS });
  keyClass.fromJsonLd = (json, options) => {
    if (typeof json !== 'object' || json === null) return parse(json, options);
    const text = `${options?.baseUrl?.href ?? ''} ${JSON.stringify(json)}`;
    let key = parsed.get(text);
    if (!key) {
      key = parse(json, options);
      parsed.set(text, key);
      // A key that cannot be parsed is not kept: the next read tries it again (and the cache deletes it).
      key.catch(() => parsed.delete(text));
    }
    return key;
  };
}

/** The signed loaders behind the kept ones. */
const uncached = new WeakMap<DocumentLoader, DocumentLoader>();

/** `loader` without what keepSignedFetches keeps: each document fetched afresh. */
export const freshLoader = (loader: DocumentLoader): DocumentLoader => uncached.get(loader) ?? loader;
