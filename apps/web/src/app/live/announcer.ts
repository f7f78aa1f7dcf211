import { useSyncExternalStore } from 'react';

export interface Announcement {
  id: number;
  text: string;
}

/** Enough for a screen reader to catch up with a burst; older lines leave the region. */
const KEEP = 3;

let announcements: readonly Announcement[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function set(next: readonly Announcement[]) {
  announcements = next;
  for (const listener of listeners) listener();
}

/** Reads `text` out politely (after what the screen reader is saying) through the shell's live region. */
export function announce(text: string): void {
  set([...announcements, { id: nextId++, text }].slice(-KEEP));
}

export function clearAnnouncements(): void {
  if (announcements.length > 0) set([]);
}

export function useAnnouncements(): readonly Announcement[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => announcements,
    // The server's render (src/entry-server.tsx) has nothing to read out.
    () => announcements,
  );
}
