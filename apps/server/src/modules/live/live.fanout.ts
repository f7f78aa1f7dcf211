import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { DomainEvent } from '../../events/events.js';
import type { NotificationsService } from '../notifications/index.js';
import { selectPostCounts } from '../posts/index.js';
import { selectFollowersAmong } from '../users/index.js';
import { selectBlockedAmong } from '../safety/index.js';
import type { NotificationFeed } from './live.feed.js';
import { send } from './live.protocol.js';
import type { Connection, SocketRegistry } from './live.registry.js';

/** Sends the current like and comment counts of these posts to a connection. */
export async function sendCounts(db: Db, connection: Connection, postIds: Iterable<string>) {
  for (const counts of await selectPostCounts(db, [...postIds])) send(connection, { type: 'counts', ...counts });
}

/**
 * What the events from PostgreSQL become on this process's sockets. They are handled one at a time, so
 * counts never go back in time; each reads the current state itself (events carry no numbers).
 */
export function createFanout(deps: {
  db: Db;
  registry: SocketRegistry;
  notifications: NotificationsService;
  feed: NotificationFeed;
  /** Count changes arriving within this window are read in one query. */
  countsBatchMs: number;
  log: FastifyBaseLogger;
}) {
  const { db, registry, notifications, feed, countsBatchMs, log } = deps;
  let queue: Promise<void> = Promise.resolve();
  const pendingCounts = new Set<string>();
  let countsTimer: NodeJS.Timeout | undefined;

  function enqueue(task: () => Promise<void>) {
    queue = queue.then(task).catch((error: unknown) => log.error({ err: error }, 'live: an event could not be sent'));
  }

  async function handle(event: DomainEvent) {
    if (event.type === 'notification-added' || event.type === 'unread-changed') {
      const mine = registry.ofUser(event.recipientId);
      if (!mine?.size) return;
      const unreadCount = await notifications.unreadCount(event.recipientId);
      if (event.type === 'unread-changed') {
        for (const connection of mine) if (!connection.held) send(connection, { type: 'unread', unreadCount });
        return;
      }
      const item = await notifications.one(event.recipientId, event.notificationId);
      if (!item) return; // undone before we read it
      const frame = feed.toFrame(item, unreadCount, false);
      for (const connection of mine) feed.deliver(connection, frame);
    } else if (event.type === 'post-counts-changed') {
      if (!registry.watchersOf(event.postId)) return;
      pendingCounts.add(event.postId);
      countsTimer ??= setTimeout(() => {
        countsTimer = undefined;
        const ids = [...pendingCounts].filter((id) => registry.watchersOf(id));
        pendingCounts.clear();
        enqueue(async () => {
          for (const counts of await selectPostCounts(db, ids)) {
            for (const connection of registry.watchersOf(counts.postId) ?? []) {
              send(connection, { type: 'counts', ...counts });
            }
          }
        });
      }, countsBatchMs);
    } else if (event.type === 'relations-changed') {
      // A block (issue 38, item 9): each person's sockets keep watching only the posts they may still see,
      // so a post of the other of a blocked pair, watched before the block, sends no more counts.
      for (const userId of event.userIds) {
        const mine = [...(registry.ofUser(userId) ?? [])];
        const watched = new Set(mine.flatMap((connection) => [...connection.posts]));
        if (watched.size === 0) continue;
        // One read for all of the person's sockets (their tabs often watch the same posts).
        const visible = new Set((await selectPostCounts(db, [...watched], userId)).map((post) => post.postId));
        for (const connection of mine) {
          registry.watch(
            connection,
            [...connection.posts].filter((postId) => visible.has(postId)),
          );
        }
      }
    } else if (event.type === 'follow-answered') {
      // Following out (issue 39): their server accepted or refused the follow; the follow button leaves "Requested".
      for (const connection of registry.ofUser(event.userId) ?? []) {
        if (!connection.held) {
          send(connection, { type: 'follow', userId: event.followeeId, accepted: event.accepted });
        }
      }
    } else if (event.type === 'import-progress') {
      for (const connection of registry.ofUser(event.userId) ?? []) {
        if (!connection.held) send(connection, { type: 'import', importId: event.importId });
      }
    } else if (event.type === 'post-published' && !event.imported) {
      // An imported work (issue 40) is not news: no frame.
      const users = registry.users();
      if (users.size === 0) return;
      const [followers, blocked] = await Promise.all([
        selectFollowersAmong(db, event.authorId, [...users.keys()]),
        // Blocks (issue 23): no frame between a blocked pair.
        selectBlockedAmong(db, event.authorId, [...users.keys()]),
      ]);
      const following = new Set(followers.concat(event.authorId));
      for (const [userId, mine] of users) {
        if (blocked.has(userId)) continue;
        // A work from another server (following out, issue 39) is on its followers' Home only: no frame to others.
        if (event.remote && !following.has(userId)) continue;
        const frame = {
          type: 'post',
          postId: event.postId,
          authorId: event.authorId,
          following: following.has(userId),
        } as const;
        // Held until `ready` on a socket still signing in (the event may come from before its hello).
        for (const connection of mine) feed.deliver(connection, frame);
      }
    }
  }

  return {
    /** Handles an event after the ones before it. */
    receive: (event: DomainEvent) => enqueue(() => handle(event)),

    /** The listener was away: events may have been lost, so every connection catches up from the tables. */
    resume() {
      log.warn('live: listening again after a lost connection; catching up');
      enqueue(async () => {
        for (const connection of registry.all()) {
          if (!connection.userId) continue;
          await feed.catchUp(connection);
          await sendCounts(db, connection, connection.posts);
        }
      });
    },

    /** Stops batching counts; answers when the events being handled are done. */
    close(): Promise<void> {
      clearTimeout(countsTimer);
      return queue;
    },
  };
}
