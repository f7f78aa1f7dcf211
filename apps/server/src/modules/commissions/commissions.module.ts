import type { ServerContext } from '../../context.js';
import { commissionsRoutes } from './commissions.routes.js';
import { createCommissionsService } from './commissions.service.js';

/** The commissions module (issue 42): an artist's commission panel, and who asked to be told when they open. */
export async function wireCommissions(shared: ServerContext) {
  const { app, db, guards } = shared;
  const commissions = createCommissionsService({ db });
  await app.register(commissionsRoutes, { prefix: '/api', commissions, guards });
  return { commissions };
}

export type CommissionsModule = Awaited<ReturnType<typeof wireCommissions>>;
