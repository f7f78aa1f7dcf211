import type { ServerContext } from '../../context.js';
import { createRelationsCache } from './relations.js';
import { createSafetyService } from './safety.service.js';
import { safetyRoutes } from './safety.routes.js';

/** The safety module (issue 23): blocks, mutes and muted words, and each viewer's relations in memory. */
export async function wireSafety(
  shared: ServerContext,
  {
    viewerStates,
  }: {
    /** Each viewer's remembered flags (the posts module's, issue 26): a block ends follows both ways. */
    viewerStates: { forget(userIds: readonly string[]): void };
  },
) {
  const { app, bus, db, guards } = shared;
  // Each viewer's blocks and mutes in memory (issue 23): lists of posts filter them without a query.
  const relations = createRelationsCache({ db, bus });
  const safety = createSafetyService({ db, relations, followsChanged: viewerStates.forget });
  await app.register(safetyRoutes, { prefix: '/api', safety, guards });
  return { relations };
}

export type SafetyModule = Awaited<ReturnType<typeof wireSafety>>;
