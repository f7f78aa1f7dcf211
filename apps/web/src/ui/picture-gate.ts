import { startTransition, useEffect, useLayoutEffect, useState } from 'react';
import { whenIdle } from '../lib/when-idle';

/**
 * On the first page of a visit, the priority picture (the first card's, the page's largest paint) loads
 * alone: the other post pictures wait until it has loaded or failed (or for a moment at most), so they do
 * not share the network with it, and then until the browser is idle, so their renders and requests stay
 * out of the first frames. A page without one does not wait, and once open the gate stays open for the
 * rest of the visit.
 */
const WAIT_AT_MOST_MS = 2500;

/**
 * Which pictures the server's render (entry-server.tsx) gives their file: every one on a visitor's shared page
 * (the browser's own lazy loading picks those on screen, so a grid is whole before any script has run), the
 * priority one alone on the viewer's Home ('priority', marked on its wrapper as `data-pictures`), whose later
 * cards' pictures would otherwise share a phone's network with the first one, the page's largest paint. Set
 * around that render, which is synchronous.
 */
let serverPictures: 'all' | 'priority' = 'all';

export function renderWithPictures<T>(pictures: 'all' | 'priority', render: () => T): T {
  const before = serverPictures;
  serverPictures = pictures;
  try {
    return render();
  } finally {
    serverPictures = before;
  }
}

/**
 * No gate in the browser while markup of the server's that gave every picture its file is shown (a visitor's
 * shared page: whom it is shown to is styles/global.css's rule): the app's first render then draws the same
 * files instead of taking them away until the gate opens.
 */
function serverDrawn(): boolean {
  if (typeof document === 'undefined') return true;
  const drawn = document.querySelector<HTMLElement>('#root > .server-drawn');
  return drawn !== null && drawn.dataset.pictures !== 'priority' && getComputedStyle(drawn).display !== 'none';
}

let open = serverDrawn();
let opening = false;
let priorityPending = false;
const listeners = new Set<() => void>();

export function openPictureGate(): void {
  if (open || opening) return;
  opening = true;
  whenIdle(() => {
    open = true;
    for (const listener of listeners) listener();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
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
  const [isOpen, setOpen] = useState(typeof document === 'undefined' ? serverPictures === 'all' : open);
  useEffect(() => {
    // A transition: the pictures' renders are not urgent, and yield to whatever is.
    const show = () => startTransition(() => setOpen(true));
    const unsubscribe = subscribe(show);
    // Opened between this render and now.
    if (open) show();
    else if (!priorityPending) openPictureGate();
    const timer = window.setTimeout(openPictureGate, WAIT_AT_MOST_MS);
    return () => {
      unsubscribe();
      window.clearTimeout(timer);
    };
  }, []);
  return isOpen;
}
