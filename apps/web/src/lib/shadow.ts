import { useSyncExternalStore } from 'react';

/**
 * What the viewer has asked for but the server has not confirmed yet, by id (bluesky calls it a
 * "shadow"). Components draw the cached copy with its shadow on top, so every copy of it — in any list
 * or on its page — changes at once, and a list refetched mid-request cannot undo a click.
 */
export interface Shadow<T extends object> {
  /** The pending fields of `id` (none: `{}`). */
  get: (id: string) => T;
  set: (id: string, change: T) => void;
  /** Forgets one pending field of `id`, once the server has answered. */
  clear: (id: string, field: keyof T) => void;
  /** The pending fields of `id` (undefined when none); re-renders when they change. */
  useEntry: (id: string) => T | undefined;
}

export function createShadow<T extends object>(): Shadow<T> {
  const entries = new Map<string, T>();
  const listeners = new Set<() => void>();

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  const patch = (id: string, change: T | keyof T, clear = false) => {
    const current = entries.get(id) ?? ({} as T);
    let next: T;
    if (clear) {
      next = { ...current };
      delete next[change as keyof T];
    } else {
      next = { ...current, ...(change as T) };
    }
    if (Object.keys(next).length === 0) entries.delete(id);
    else entries.set(id, next);
    for (const listener of listeners) listener();
  };

  return {
    get: (id) => entries.get(id) ?? ({} as T),
    set: (id, change) => patch(id, change),
    clear: (id, field) => patch(id, field, true),
    useEntry: (id) => {
      const read = () => entries.get(id);
      // The same on the server's render (src/entry-server.tsx): no change made there.
      return useSyncExternalStore(subscribe, read, read);
    },
  };
}
