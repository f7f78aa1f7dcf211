import type { ServerContext } from '../../context.js';
import type { DomainEvent } from '../../events/events.js';
import { port } from '../../lib/port.js';
import { createSearchCache } from '../../lib/search-cache.js';
import type { MediaModule } from '../media/index.js';
import type { PeopleMatch } from './users.sql.js';
import { createUsersService, type RemoteFollowChanged, type RemoteFollowId } from './users.service.js';
import { usersRoutes } from './users.routes.js';

/**
 * The users module: profiles, follows and people search; a follow of someone on another server (issue 39) is sent
 * by the federation module through the `remoteFollowId` and `remoteFollowChanged` ports.
 */
export async function wireUsers(
  shared: ServerContext,
  {
    media,
    viewerStates,
  }: {
    media: MediaModule;
    /** Each viewer's remembered flags (the posts module's, issue 26): their follows changed. */
    viewerStates: { forget(userIds: readonly string[]): void };
  },
) {
  const { app, bus, db, guards, reads } = shared;
  // People searches change when someone joins or is renamed.
  const peopleSearches = createSearchCache<PeopleMatch, DomainEvent>({
    bus,
    changes: (event) => event.type === 'user-joined' || event.type === 'author-changed',
  });
  // A follow of someone on another server is sent to their server by the federation module, wired later (issue 39).
  const remoteFollowId = port<RemoteFollowId>('remote follow id');
  const remoteFollowChanged = port<RemoteFollowChanged>('remote follow');
  const users = createUsersService({
    db,
    reads,
    media: media.media,
    searches: peopleSearches,
    viewerChanged: (userId) => viewerStates.forget([userId]),
    remoteFollowId: remoteFollowId.call,
    remoteFollowChanged: remoteFollowChanged.call,
  });
  await app.register(usersRoutes, { prefix: '/api', users, guards });
  return { users, peopleSearches, remoteFollowId, remoteFollowChanged };
}

export type UsersModule = Awaited<ReturnType<typeof wireUsers>>;
