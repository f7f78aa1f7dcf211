import { useEffect, useRef } from 'react';

/** Marks the history entry a dialog added (kept beside the router's own state, which it leaves as it is). */
const ENTRY_KEY = 'shareArtsViewer';

function entryOf(state: unknown): unknown {
  return state && typeof state === 'object' ? (state as Record<string, unknown>)[ENTRY_KEY] : undefined;
}

let entries = 0;

/**
 * While the calling dialog is open it owns one entry of the session history, at the same address: Back (the
 * browser's button, a phone's back gesture) closes it instead of leaving the page, and closing it any other
 * way takes the entry away again, so Back then leaves the page as it would have.
 */
export function useBackToClose(onBack: () => void): void {
  const onBackRef = useRef(onBack);
  useEffect(() => {
    onBackRef.current = onBack;
  });
  const entry = useRef<string | null>(null);
  const mounted = useRef(false);

  useEffect(() => {
    mounted.current = true;
    if (entry.current === null) {
      entries += 1;
      entry.current = `viewer-${entries}`;
      // The router's state (its key and index) is kept: to it, this entry is the page it already shows.
      const base: unknown = window.history.state;
      window.history.pushState({ ...(base && typeof base === 'object' ? base : {}), [ENTRY_KEY]: entry.current }, '');
    }
    const id = entry.current;
    const onPopState = () => {
      if (entryOf(window.history.state) === id) return;
      entry.current = null;
      onBackRef.current();
    };
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('popstate', onPopState);
      mounted.current = false;
      // Development's StrictMode unmounts and mounts again at once: only a real close gives the entry back.
      window.setTimeout(() => {
        if (mounted.current || entry.current !== id) return;
        entry.current = null;
        if (entryOf(window.history.state) === id) window.history.back();
      });
    };
  }, []);
}
