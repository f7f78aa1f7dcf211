import type { ReactNode } from 'react';

type Wrap = (children: ReactNode) => ReactNode;

let loading: Promise<Wrap> | undefined;
let loaded: Wrap | undefined;

/** Fetches the providers chunk once; every route but /landing awaits it in its `lazy`. */
export function loadProviders(): Promise<Wrap> {
  loading ??= import('./providers').then((module) => (loaded = module.withProviders));
  return loading;
}

/** Wraps its argument in the providers once their chunk has arrived; until then undefined. */
export function loadedProviders(): Wrap | undefined {
  return loaded;
}
