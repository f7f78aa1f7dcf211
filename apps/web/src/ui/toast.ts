import type * as Toastify from 'react-toastify/unstyled';
import type { ToastOptions } from 'react-toastify/unstyled';

/**
 * The app's toasts. react-toastify (and its stylesheet) is not part of a page's first render: it is
 * fetched once the page has loaded (see ToastOutlet) or, at the latest, by the first toast. A toast raised
 * before the container has mounted waits in react-toastify's queue and shows as soon as it mounts.
 *
 * The unstyled build: its CSS ships in our stylesheet instead of an injected <style> tag, which a strict
 * Content-Security-Policy would block. Import `toast` only from here so the calls and the container
 * share one module.
 */
type Kind = 'success' | 'error' | 'warning';

let toastify: Promise<typeof Toastify> | undefined;
let wanted = false;
const listeners = new Set<() => void>();

/** Starts fetching react-toastify and asks the outlet to mount the container (once). */
export function wantToasts(): void {
  if (wanted) return;
  wanted = true;
  toastify = import('react-toastify/unstyled');
  for (const listener of listeners) listener();
}

/** Whether the container is wanted yet, and a subscription to the change. */
export const toastsWanted = {
  get: () => wanted,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

function show(kind: Kind, content: string, options?: ToastOptions): void {
  wantToasts();
  void toastify?.then(({ toast: toastify }) => toastify[kind](content, options));
}

export const toast = {
  success: (content: string, options?: ToastOptions) => show('success', content, options),
  error: (content: string, options?: ToastOptions) => show('error', content, options),
  warning: (content: string, options?: ToastOptions) => show('warning', content, options),
};
