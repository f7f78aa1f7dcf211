import { LRUCache } from 'lru-cache';

/** What a process remembers per person, read from the database once and forgotten when it changes. */
export interface UserMemory<V> {
  /** The person's value: remembered, or read (one read at a time per person, shared by those who ask). */
  get(userId: string): Promise<V>;
  /** The person's value if remembered, without reading it or counting it as used. */
  peek(userId: string): V | undefined;
  /** Forgets these people; a read of theirs in progress is answered but not remembered. */
  forget(userIds: readonly string[]): void;
  /** Forgets everyone (the event listener was away: any change may have been missed). */
  clear(): void;
  /** The values remembered, and how many. */
  values(): IterableIterator<V>;
  readonly size: number;
}

/**
 * An LRU of a value per person, bounded by the values' weight (`sizeOf`), filled by `load`. The caches of
 * relations (safety) and of viewer state (posts) are built on it, each forgetting people on its own events.
 */
export function createUserMemory<V extends NonNullable<unknown>>({
  maxSize,
  sizeOf,
  load,
}: {
  maxSize: number;
  sizeOf: (value: V) => number;
  load: (userId: string) => Promise<V>;
}): UserMemory<V> {
  const known = new LRUCache<string, V>({ maxSize, sizeCalculation: sizeOf });
  /** Reads in progress, by user: a forgotten user's read is stale and leaves this map. */
  const reads = new Map<string, { promise: Promise<V>; stale: boolean }>();

  return {
    get(userId) {
      const remembered = known.get(userId);
      if (remembered) return Promise.resolve(remembered);
      const running = reads.get(userId);
      if (running) return running.promise;
      const read = { promise: load(userId), stale: false };
      reads.set(userId, read);
      read.promise.then(
        (value) => {
          if (read.stale) return;
          reads.delete(userId);
          known.set(userId, value);
        },
        () => {
          if (!read.stale) reads.delete(userId);
        },
      );
      return read.promise;
    },
    peek: (userId) => known.peek(userId),
    forget(userIds) {
      for (const userId of userIds) {
        known.delete(userId);
        const read = reads.get(userId);
        if (read) {
          read.stale = true;
          reads.delete(userId);
        }
      }
    },
    clear() {
      known.clear();
      for (const read of reads.values()) read.stale = true;
      reads.clear();
    },
    values: () => known.values(),
    get size() {
      return known.size;
    },
  };
}
