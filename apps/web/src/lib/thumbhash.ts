import { thumbHashToDataURL } from 'thumbhash';

const cache = new Map<string, string | undefined>();

/** A tiny data: URL of a ThumbHash (base64), to paint while the real picture loads; undefined if it cannot be read. */
export function thumbHashDataUrl(base64: string | undefined | null): string | undefined {
  if (!base64) return undefined;
  if (cache.has(base64)) return cache.get(base64);
  let url: string | undefined;
  try {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    url = thumbHashToDataURL(bytes);
  } catch {
    url = undefined;
  }
  if (cache.size > 500) cache.clear();
  cache.set(base64, url);
  return url;
}
