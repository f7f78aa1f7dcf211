import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import type { Db } from '../../db/client.js';
import { kvDelete, kvGet, kvList, kvSet, kvSweep } from './federation.sql.js';

/**
 * Fedify's key-value store on the app's database (`federation_kv`, migration 0029), in place of its
 * MemoryKvStore (lost on restart, one per process) and of @fedify/postgres (published for Fedify 1.x only).
 * A key is the JSON of Fedify's key array, so listing by a prefix of the array is a prefix match of the
 * text; an entry past its ttl is gone for every read, and the hourly sweep (`sweepExpired`) deletes it.
 */
export function createDatabaseKvStore(db: Db): KvStore & { sweepExpired(): Promise<void> } {
  const keyOf = (key: KvKey) => JSON.stringify(key);
  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      const row = await kvGet(db, keyOf(key));
      return row ? (row.value as T) : undefined;
    },
    async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
      // JSON cannot hold undefined: Fedify never stores it, and a read would not tell it from "no entry".
      const json = JSON.stringify(value ?? null);
      await kvSet(db, keyOf(key), json, options?.ttl?.total({ unit: 'millisecond' }));
    },
    async delete(key: KvKey): Promise<void> {
      await kvDelete(db, keyOf(key));
    },
    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      const exact = prefix ? keyOf(prefix) : undefined;
      const rows = await kvList(db, exact ? { exact, open: `${exact.slice(0, -1)},` } : undefined);
      for (const row of rows) yield { key: JSON.parse(row.key) as KvKey, value: row.value };
    },
    sweepExpired: () => kvSweep(db),
  };
}
