import { useSyncExternalStore, type ReactNode } from 'react';

type Wrap = (children: ReactNode) => ReactNode;

let loading: Promise<Wrap> | undefined;
let loaded: Wrap | undefined;
const listeners = new Set<() => void>();

/** Fetches the providers chunk once; every route but /landing awaits it in its `lazy`. */
export function loadProviders(): Promise<Wrap> {
  loading ??= import('./providers').then((module) => {
    loaded = module.withProviders;
    for (const listener of listeners) listener();
    return loaded;
  });
  return loading;
}

// The same on the server's render (src/entry-server.tsx), which loads them before it starts.
const read = () => loaded;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The providers' wrapper once their chunk has arrived, else undefined. A subscription, not a plain read:
 * the router creates the root route's element once, so the root layout does not render again on a
 * navigation by itself. Entered by /landing, it must render again when the next route's `lazy` has loaded
 * the providers, before that route renders (it settles after the listeners here have run), or the route
 * renders without a QueryClient.
 */
export function useLoadedProviders(): Wrap | undefined {
  return useSyncExternalStore(subscribe, read, read);
}
