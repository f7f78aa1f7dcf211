import { SHARE_CACHE, sharedPartPath, type SharedMeta } from './protocol';

/** What was shared to the app (Web Share Target), as the composer takes it. */
export interface SharedItems {
  /** The pictures, in the order they were shared. */
  files: File[];
  /** The title, text and link as the post's words. */
  text: string;
  /** Pictures that were shared but could not be kept (no service worker took them). */
  dropped: number;
}

/** The shared title, text and link: each once, one per line (the server's fallback joins them the same way). */
export function sharedText(meta: Pick<SharedMeta, 'title' | 'text' | 'url'>): string {
  const parts: string[] = [];
  for (const value of [meta.title, meta.text, meta.url].map((part) => part.trim())) {
    if (value && !parts.some((part) => part.includes(value))) parts.push(value);
  }
  return parts.join('\n');
}

/**
 * The items the service worker kept under `id` (src/sw/share-target.ts), taken once: they are deleted as they
 * are read. Undefined when there is nothing (already taken, or no Cache Storage).
 */
export async function takeSharedItems(id: string): Promise<SharedItems | undefined> {
  if (typeof caches === 'undefined' || !/^[\w-]{1,40}$/.test(id)) return undefined;
  const cache = await caches.open(SHARE_CACHE);
  const metaResponse = await cache.match(sharedPartPath(id, 'meta'));
  if (!metaResponse) return undefined;
  const meta = (await metaResponse.json()) as SharedMeta;
  const files = await Promise.all(
    meta.files.map(async ({ name, type }, index) => {
      const response = await cache.match(sharedPartPath(id, index));
      return response ? new File([await response.blob()], name, { type }) : undefined;
    }),
  );
  await Promise.all([
    cache.delete(sharedPartPath(id, 'meta')),
    ...meta.files.map((_, index) => cache.delete(sharedPartPath(id, index))),
  ]);
  return { files: files.filter((file): file is File => file !== undefined), text: sharedText(meta), dropped: 0 };
}

/**
 * What the address asks the composer to open with: `?compose` (the Add Post shortcut), `&share=<id>` (the
 * worker kept shared files), `&text=…&dropped=N` (the server's answer without a worker). Undefined: no composer.
 */
export function composeRequest(search: URLSearchParams): Promise<SharedItems | undefined> {
  // One answer per address: the items are taken once, however often a component asks (React's StrictMode).
  const key = search.toString();
  let request = requests.get(key);
  if (!request) requests.set(key, (request = readComposeRequest(search)));
  return request;
}

const requests = new Map<string, Promise<SharedItems | undefined>>();

async function readComposeRequest(search: URLSearchParams): Promise<SharedItems | undefined> {
  if (!search.has('compose')) return undefined;
  const id = search.get('share');
  const kept = id ? await takeSharedItems(id).catch(() => undefined) : undefined;
  if (kept) return kept;
  const dropped = Number.parseInt(search.get('dropped') ?? '0', 10);
  return { files: [], text: search.get('text') ?? '', dropped: Number.isFinite(dropped) && dropped > 0 ? dropped : 0 };
}
