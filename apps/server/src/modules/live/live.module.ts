import type { ServerContext } from '../../context.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { AccountCheck } from '../users/index.js';
import { createLiveHub, type LiveTimings } from './live.hub.js';
import { liveRoutes } from './live.routes.js';

/**
 * The live module: the socket that sends notifications, counts and new posts. Its hub closes the sockets
 * when the server begins to close, before the event bus stops.
 */
export async function wireLive(
  shared: ServerContext<{ live: LiveTimings; connections: { liveUnauthenticatedPerAddress: number } }>,
  { notifications, accounts }: { notifications: NotificationsModule; accounts: AccountCheck },
) {
  const { app, bus, config, db, log, metrics, tokenCheck } = shared;
  const hub = createLiveHub({
    db,
    bus,
    tokenCheck,
    notifications: notifications.notifications,
    timings: config.live,
    log,
    accountStatus: accounts.status,
  });
  shared.beforeClose(() => hub.close());
  metrics.watch({ liveSockets: () => hub.size });
  await app.register(liveRoutes, {
    prefix: '/api',
    hub,
    unauthenticatedPerAddress: config.connections.liveUnauthenticatedPerAddress,
  });
  // Web Push (issue 44): no push to someone with a tab open here.
  return { online: (userId: string) => hub.online(userId) };
}
