import type { ServerContext } from '../../context.js';
import type { PictureFiles } from './export.archive.js';
import { exportRoutes } from './export.routes.js';
import { createExportService } from './export.service.js';

/** The export module (issue 24): "Download your data", with every original picture from their storage. */
export async function wireExport(shared: ServerContext, { media }: { media: { storage: PictureFiles } }) {
  const { app, db, guards, log } = shared;
  const exports = createExportService({ db, storage: media.storage, log });
  await app.register(exportRoutes, { prefix: '/api', exports, guards });
}
