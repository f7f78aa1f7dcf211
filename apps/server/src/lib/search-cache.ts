import { LRUCache } from 'lru-cache';

/** Where changes come from: every process's events (the live event bus), and a call after events were lost. */
export interface ChangeFeed<E> {
  subscribe(onEvent: (event: E) => void, onResume?: () => void): void;
}

/**
 * The ranked matches of each recent search, the same for every reader, dropped whole when an event
 * that may change any of them reaches this process (from any process) or when events were lost: a
 * search never misses what exists or shows what does not. A read that a change overtook is not stored.
 * Readers of the same search wait for the one read in progress rather than each sending their own (50
 * at once after each change, under load); a reader who comes after a change never joins a read that
 * began before it. Used for posts and for people.
 */
export function createSearchCache<T, E>(options: {
  bus: ChangeFeed<E>;
  /** The events that may change a search's matches. */
  changes: (event: E) => boolean;
  max?: number;
  ttlMs?: number;
}): SearchCache<T> {
  const entries = new LRUCache<string, T[]>({ max: options.max ?? 1000, ttl: options.ttlMs ?? 5 * 60_000 });
  const reading = new Map<string, Promise<T[]>>();
  let generation = 0;
  const clear = () => {
    generation += 1;
    entries.clear();
    reading.clear();
  };
  options.bus.subscribe((event) => {
    if (options.changes(event)) clear();
  }, clear);
  return {
    clear,
    hits(key: string, load: () => Promise<T[]>): Promise<T[]> {
      const cached = entries.get(key);
      if (cached) return Promise.resolve(cached);
      const inProgress = reading.get(key);
      if (inProgress) return inProgress;
      const started = generation;
      const read = load()
        .then((hits) => {
          if (generation === started) entries.set(key, hits);
          return hits;
        })
        .finally(() => {
          if (reading.get(key) === read) reading.delete(key);
        });
      reading.set(key, read);
      return read;
    },
  };
}

export interface SearchCache<T> {
  /** Drops every cached search (this process only). */
  clear(): void;
  /** The matches of `key`: cached, joined with the read in progress, or read by `load`. */
  hits(key: string, load: () => Promise<T[]>): Promise<T[]>;
}
