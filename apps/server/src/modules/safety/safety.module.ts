import type { ServerContext } from '../../context.js';
import { port } from '../../lib/port.js';
import { createRelationsCache } from './relations.js';
import { createSafetyService, type RemoteBlockChanged } from './safety.service.js';
import { safetyRoutes } from './safety.routes.js';

/**
 * The safety module (issue 23): blocks, mutes and muted words, and each viewer's relations in memory; blocks of people
 * on other servers (issue 39), whose Block the federation module sends through the `remoteBlockChanged` port.
 */
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
  // A block of someone on another server is sent to them by the federation module, wired later (issue 39).
  const remoteBlockChanged = port<RemoteBlockChanged>('remote block');
  const safety = createSafetyService({
    db,
    relations,
    followsChanged: viewerStates.forget,
    remoteBlockChanged: remoteBlockChanged.call,
  });
  await app.register(safetyRoutes, { prefix: '/api', safety, guards });
  // The service too: the Mastodon API's block and mute routes (issue 45) go through it.
  return { relations, remoteBlockChanged, safety };
}

export type SafetyModule = Awaited<ReturnType<typeof wireSafety>>;
