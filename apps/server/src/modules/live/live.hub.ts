import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { ERRORS, LIVE_CLOSE } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { ACCOUNT_GONE, suspendedError, type TokenCheck, type TokenVerdict } from '../../plugins/auth.js';
import type { AccountStatus } from '../users/index.js';
import { decodeEventId, type NotificationsService } from '../notifications/index.js';
import { selectPostCounts } from '../posts/index.js';
import type { EventBus } from '../../events/bus.js';
import type { DomainEvent } from '../../events/events.js';
import { createFanout, sendCounts } from './live.fanout.js';
import { createNotificationFeed } from './live.feed.js';
import { CLOSE_REASONS, close, readFrame, refuse, send, tokenRefusal, type HelloFrame } from './live.protocol.js';
import { createSocketRegistry, type Connection } from './live.registry.js';

export interface LiveTimings {
  helloTimeoutMs: number;
  heartbeatMs: number;
  /** Notifications of posts' count changes arriving within this window are read in one query. */
  countsBatchMs: number;
}

const MAX_TIMER = 2 ** 31 - 1;

/**
 * The live stream's state in one server process: the open sockets by user and by watched post, fed by
 * PostgreSQL NOTIFY (so an action on any process reaches sockets on every process). It composes the
 * socket registry (live.registry.ts), the protocol (live.protocol.ts), the notification frames
 * (live.feed.ts) and the events' fan-out (live.fanout.ts), and signs sockets in.
 */
export function createLiveHub(deps: {
  db: Db;
  bus: EventBus;
  tokenCheck: TokenCheck;
  notifications: NotificationsService;
  timings: LiveTimings;
  log: FastifyBaseLogger;
  /** Whether an account may still act (issue 23): a suspension closes its sockets at once. */
  accountStatus?: (userId: string) => Promise<AccountStatus>;
}) {
  const { db, bus, tokenCheck, notifications, timings, log } = deps;
  const registry = createSocketRegistry();
  const feed = createNotificationFeed(notifications);
  const fanout = createFanout({ db, registry, notifications, feed, countsBatchMs: timings.countsBatchMs, log });

  /** Counts account deletions and ended sessions: a hello that saw one while it checked its token checks again. */
  let deletions = 0;
  /** A deleted account's sockets are closed at once: a token outlives its account (issue 18). */
  function closeDeleted(userId: string) {
    deletions += 1;
    for (const connection of registry.ofUser(userId) ?? []) close(connection, LIVE_CLOSE.unauthorised, ACCOUNT_GONE);
  }

  /** A suspension is sent as `author-changed`: the account's open sockets are closed when it is suspended. */
  async function closeIfSuspended(userId: string) {
    const sockets = registry.ofUser(userId);
    if (!deps.accountStatus || !sockets || sockets.size === 0) return;
    const status = await deps.accountStatus(userId);
    if (status.state !== 'suspended') return;
    const reason = suspendedError(status.until).message;
    for (const connection of registry.ofUser(userId) ?? []) close(connection, LIVE_CLOSE.unauthorised, reason);
  }

  /** Ended sessions' sockets are closed at once (issue 24: LOG OUT, the settings' End, a password change). */
  function closeEnded(event: Extract<DomainEvent, { type: 'session-ended' }>) {
    deletions += 1;
    for (const connection of registry.ofUser(event.userId) ?? []) {
      const ended =
        event.sessionId === undefined
          ? connection.sessionId !== event.except
          : connection.sessionId === event.sessionId;
      if (ended) close(connection, LIVE_CLOSE.unauthorised, ERRORS.invalidToken);
    }
  }

  bus.subscribe(
    (event) => {
      if (event.type === 'account-deleted') closeDeleted(event.userId);
      else if (event.type === 'session-ended') closeEnded(event);
      else {
        if (event.type === 'author-changed') {
          closeIfSuspended(event.userId).catch((error: unknown) => log.error({ err: error }, 'live: suspension check'));
        }
        fanout.receive(event);
      }
    },
    () => fanout.resume(),
  );

  const stopHeartbeat = registry.startHeartbeat(timings.heartbeatMs);

  // ── One socket ────────────────────────────────────────────────────────────────────────────────
  /**
   * The hello's token check. The deletion event may overtake the answer that the account exists: then the
   * answer is asked again (`deletions` moved while it was asked).
   */
  async function checkToken(token: string): Promise<TokenVerdict> {
    for (;;) {
      const seen = deletions;
      const verdict = await tokenCheck.check(token);
      if (verdict.status !== 'valid' || seen === deletions) return verdict;
    }
  }

  async function hello(connection: Connection, frame: HelloFrame) {
    const verdict = await checkToken(frame.token);
    if (verdict.status !== 'valid') return refuse(connection, tokenRefusal(verdict));
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    if (frame.lastEventId) decodeEventId(frame.lastEventId); // a 400-style error if bad

    const { claims } = verdict;
    const userId = claims.userId;
    connection.sessionId = claims.sessionId;
    const replaced = registry.signIn(connection, userId);
    connection.onSignedIn?.();
    for (const oldest of replaced) close(oldest, LIVE_CLOSE.replaced, CLOSE_REASONS.replaced);
    if (claims.expiresAt) {
      const left = Math.min(claims.expiresAt - Date.now(), MAX_TIMER);
      connection.timers.push(setTimeout(() => close(connection, LIVE_CLOSE.unauthorised, CLOSE_REASONS.expired), left));
    }

    connection.held = [];
    await watchVisible(connection, frame.posts);
    const [unreadCount, counts, newest] = await Promise.all([
      notifications.unreadCount(userId),
      selectPostCounts(db, [...connection.posts]),
      frame.lastEventId ? null : notifications.newestEventId(userId),
    ]);
    connection.lastEventId = frame.lastEventId ?? newest;
    send(connection, { type: 'ready', unreadCount, counts, lastEventId: connection.lastEventId });
    if (frame.lastEventId) await feed.catchUp(connection);
    else feed.release(connection);
  }

  async function onFrame(connection: Connection, data: string) {
    const read = readFrame(data, connection.userId !== null);
    if ('refusal' in read) return refuse(connection, read.refusal);
    if (read.frame.type === 'hello') return hello(connection, read.frame);
    await sendCounts(db, connection, await watchVisible(connection, read.frame.posts));
  }

  /**
   * Watches those of `posts` the connection's user may see (a hidden or removed post, or a blocked pair's,
   * sends no counts: issue 23), and answers the newly watched. Their counts are read after they are watched,
   * so no change between the two reads is missed.
   */
  async function watchVisible(connection: Connection, posts: string[]): Promise<string[]> {
    const visible = posts.length ? await selectPostCounts(db, posts, connection.userId!) : [];
    return registry.watch(
      connection,
      visible.map((post) => post.postId),
    );
  }

  return {
    /** Takes over a freshly upgraded socket. */
    accept(socket: WebSocket, onSignedIn?: () => void) {
      const connection = registry.add(socket, onSignedIn);
      connection.timers.push(
        setTimeout(() => {
          if (connection.userId === null) close(connection, LIVE_CLOSE.helloTimeout, CLOSE_REASONS.helloTimeout);
        }, timings.helloTimeoutMs),
      );
      socket.on('pong', () => (connection.alive = true));
      socket.on('close', () => registry.forget(connection));
      socket.on('message', (data, isBinary) => {
        if (!registry.admitFrame(connection)) return close(connection, LIVE_CLOSE.badFrame, CLOSE_REASONS.flood);
        if (isBinary) return close(connection, LIVE_CLOSE.badFrame, CLOSE_REASONS.notText);
        onFrame(connection, String(data)).catch((error: unknown) => {
          const status = (error as { statusCode?: number }).statusCode;
          if (status && status < 500) return close(connection, LIVE_CLOSE.badFrame, (error as Error).message);
          log.error({ err: error }, 'live: a frame could not be handled');
          close(connection, 1011, CLOSE_REASONS.serverError);
        });
      });
    },

    /** Closes every socket with "going away" and stops listening. */
    async close() {
      stopHeartbeat();
      for (const connection of registry.all()) close(connection, LIVE_CLOSE.goingAway, CLOSE_REASONS.goingAway);
      await fanout.close();
    },

    /** Whether this process has one of the person's sockets open (a tab): no push then (issue 44). */
    online(userId: string): boolean {
      return (registry.ofUser(userId)?.size ?? 0) > 0;
    },

    /** Open sockets, for tests and health figures. */
    get size() {
      return registry.size;
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
