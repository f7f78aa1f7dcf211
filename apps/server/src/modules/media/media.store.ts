import { createLocalStorage } from './media.storage.local.js';
import { createS3Storage, type S3Options } from './media.storage.s3.js';
import type { MediaLog, MediaStorage } from './media.storage.js';

/** MEDIA_STORE and its settings (config.ts). */
export type MediaStoreConfig = { kind: 'local' } | ({ kind: 's3' } & S3Options);

/** The storage MEDIA_STORE names: the media folder (the default) or an S3-compatible bucket. */
export function createMediaStorage(
  options: { store?: MediaStoreConfig; mediaDir: string },
  log: MediaLog,
  now: () => number = Date.now,
): MediaStorage {
  const store = options.store ?? { kind: 'local' };
  return store.kind === 's3' ? createS3Storage(store, log, now) : createLocalStorage(options.mediaDir, log, now);
}
