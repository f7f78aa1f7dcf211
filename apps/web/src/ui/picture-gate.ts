import { useEffect, useLayoutEffect, useSyncExternalStore } from 'react';

/**
 * On the first page of a visit, the priority picture (the first card's, the page's largest paint) loads
 * alone: the other pictures and the photos wait until it has loaded or failed (or for a moment at most),
 * so they do not share the network with it. A page without one does not wait, and once open the gate
 * stays open for the rest of the visit.
 */
const WAIT_AT_MOST_MS = 2500;

let open = false;
let priorityPending = false;
const listeners = new Set<() => void>();

export function openPictureGate(): void {
  if (open) return;
  open = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** For the priority picture: the others wait for it (call openPictureGate once it has loaded or failed). */
export function usePriorityPicture(priority: boolean): void {
  // A layout effect: it runs before the passive effects of the same commit, where the others look.
  useLayoutEffect(() => {
    if (priority && !open) priorityPending = true;
  }, [priority]);
}

/** Whether a picture other than the priority one may load yet. */
export function usePictureGate(): boolean {
  const isOpen = useSyncExternalStore(subscribe, () => open);
  useEffect(() => {
    if (open) return;
    if (!priorityPending) return openPictureGate();
    const timer = window.setTimeout(openPictureGate, WAIT_AT_MOST_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return isOpen;
}
