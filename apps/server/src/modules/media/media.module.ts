import type { ServerContext } from '../../context.js';
import { mediaRoutes } from './media.routes.js';
import { createMediaService } from './media.service.js';
import { setMediaPublicUrl } from './media.storage.js';
import { createMediaStorage, type MediaStoreConfig } from './media.store.js';

/**
 * The media module: the pictures' storage and service, the upload routes, and the hourly sweeps of
 * unattached uploads and files without a row (background jobs).
 */
export async function wireMedia(
  shared: ServerContext<{
    mediaStore?: MediaStoreConfig;
    mediaDir: string;
    mediaPublicUrl?: string | undefined;
    now: () => number;
  }>,
) {
  const { app, bus, config, db, guards, jobs, log, metrics } = shared;
  // MEDIA_STORE (issue 25): the pictures' files in the media folder or an S3-compatible bucket, and
  // MEDIA_PUBLIC_URL when a CDN or the bucket serves them (the API's picture URLs point there).
  const storage = createMediaStorage({ store: config.mediaStore, mediaDir: config.mediaDir }, log, config.now);
  setMediaPublicUrl(config.mediaPublicUrl);
  // The hourly sweeps are background jobs: once an hour for the whole cluster (issue 37). The bus: a removed
  // post's files answer 404 on every process (issue 38, item 6).
  const media = createMediaService({
    db,
    processed: metrics.pictureProcessed,
    storage,
    log,
    now: config.now,
    jobs,
    bus,
  });
  metrics.watch({ processing: media.processingStats });
  await app.register(mediaRoutes, { prefix: '/api', media, guards });
  return { media, storage };
}

export type MediaModule = Awaited<ReturnType<typeof wireMedia>>;
