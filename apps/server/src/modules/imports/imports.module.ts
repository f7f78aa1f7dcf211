import path from 'node:path';
import type { ServerContext } from '../../context.js';
import type { MediaModule } from '../media/index.js';
import { avatarUrl, MEDIA_BUSY } from '../media/index.js';
import { importsRoutes } from './imports.routes.js';
import { createImportsService } from './imports.service.js';

/**
 * The imports module (issue 40): an archive from Instagram, Mastodon, Pixelfed or another Share Arts brought in as
 * works, through the media module's upload; the archives wait in DATA_DIR/imports while they are imported.
 */
export async function wireImports(shared: ServerContext<{ dataDir: string }>, { media }: { media: MediaModule }) {
  const { app, config, db, guards, jobs, log } = shared;
  const imports = createImportsService({
    db,
    jobs,
    media: {
      upload: media.media.upload,
      // The archive's profile photo takes the way a photo from Settings takes: an avatar upload, its URL the same.
      uploadAvatar: async (input) => {
        const row = await media.media.upload({ ...input, purpose: 'avatar' });
        return { id: row.id, url: avatarUrl(row) };
      },
      deleteMedia: (id) => media.media.deleteMedia(id),
      busyMessage: MEDIA_BUSY,
    },
    dir: path.join(config.dataDir, 'imports'),
    log,
  });
  await app.register(importsRoutes, { prefix: '/api', imports, guards });
  return { imports };
}

export type ImportsModule = Awaited<ReturnType<typeof wireImports>>;
