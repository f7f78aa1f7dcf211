import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import {
  ERRORS,
  LIVE,
  LIVE_CLOSE,
  type LiveNotification,
  type LivePostCounts,
  type LiveServerFrame,
} from '@share-arts/contract';
import { queryRows, type Database } from '../../db/client.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { isUuid } from '../../lib/ids.js';
import type { TokenService } from '../../lib/tokens.js';
import { ACCOUNT_GONE } from '../../plugins/auth.js';
import type { NotificationsService } from '../notifications/index.js';
import { toUserSummary, type SummaryRow } from '../users/index.js';
import type { EventBus } from '../../events/bus.js';
import type { DomainEvent } from '../../events/events.js';

export interface LiveTimings {
  helloTimeoutMs: number;
  heartbeatMs: number;
  /** Notifications of posts' count changes arriving within this window are read in one query. */
  countsBatchMs: number;
}

interface Connection {
  socket: WebSocket;
  userId: string | null;
  posts: Set<string>;
  /** Answered the last ping (or sent something) since the heartbeat before. */
  alive: boolean;
  /** The id of the newest notification this connection has been sent: where a catch-up starts. */
  lastEventId: string | null;
  /** Notification frames that arrived while older ones were being replayed, sent after them. */
  held: LiveNotification[] | null;
  /** When recent frames from the client arrived, for flood control. */
  frameTimes: number[];
  timers: NodeJS.Timeout[];
  /** Called once the socket has signed in (it no longer counts as waiting for its hello). */
  onSignedIn?: () => void;
}

interface NotificationRow extends SummaryRow {
  id: string;
  kind: LiveNotification['kind'];
  post_id: string | null;
  comment_id: string | null;
  created_at: Date | string;
}

const FLOOD = { frames: 60, windowMs: 10_000 };
const MAX_TIMER = 2 ** 31 - 1;

const SENTENCES: Record<LiveNotification['kind'], string> = {
  like: 'liked your post',
  comment: 'commented on your post',
  upvote: 'upvoted your comment',
  follow: 'started following you',
};

const idList = (ids: Iterable<string>) =>
  sql`(select value::uuid from json_array_elements_text(${JSON.stringify([...ids])}::json))`;

/**
 * The live stream's state in one server process: the open sockets by user and by watched post, fed by
 * PostgreSQL NOTIFY (so an action on any process reaches sockets on every process).
 */
export function createLiveHub(deps: {
  database: Database;
  bus: EventBus;
  tokens: TokenService;
  userExists: (userId: string) => Promise<boolean>;
  notifications: NotificationsService;
  timings: LiveTimings;
  log: FastifyBaseLogger;
}) {
  const { database, bus, tokens, userExists, notifications, timings, log } = deps;
  const { db } = database;
  const connections = new Set<Connection>();
  const byUser = new Map<string, Set<Connection>>();
  const byPost = new Map<string, Set<Connection>>();

  const send = (connection: Connection, frame: LiveServerFrame) => {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(frame));
  };

  const close = (connection: Connection, code: number, reason: string) => {
    if (connection.socket.readyState === connection.socket.OPEN) send(connection, { type: 'error', message: reason });
    connection.socket.close(code, reason);
  };

  function forget(connection: Connection) {
    connections.delete(connection);
    for (const timer of connection.timers) clearTimeout(timer);
    if (connection.userId) {
      const mine = byUser.get(connection.userId);
      mine?.delete(connection);
      if (mine?.size === 0) byUser.delete(connection.userId);
    }
    watch(connection, []);
  }

  /** Replaces the posts a connection watches; answers the ones newly added. */
  function watch(connection: Connection, posts: string[]): string[] {
    const next = new Set(posts);
    for (const postId of connection.posts) {
      if (next.has(postId)) continue;
      const watchers = byPost.get(postId);
      watchers?.delete(connection);
      if (watchers?.size === 0) byPost.delete(postId);
    }
    const added = [...next].filter((postId) => !connection.posts.has(postId));
    for (const postId of added) {
      let watchers = byPost.get(postId);
      if (!watchers) byPost.set(postId, (watchers = new Set()));
      watchers.add(connection);
    }
    connection.posts = next;
    return added;
  }

  async function readCounts(postIds: Iterable<string>): Promise<LivePostCounts[]> {
    const ids = [...postIds];
    if (ids.length === 0) return [];
    return queryRows<LivePostCounts>(
      db,
      sql`select id as "postId", like_count as "likeCount", comment_count as "commentCount"
          from posts where id in ${idList(ids)}`,
    );
  }

  /** Notifications of `userId`: one by id, or those after a resume id (oldest first, capped). */
  async function readNotifications(userId: string, where: { id: string } | { after: string }) {
    const after = 'after' in where ? decodeCursor(where.after, ['date', 'uuid']) : null;
    return queryRows<NotificationRow>(
      db,
      sql`select n.id, n.kind, n.post_id, n.comment_id, n.created_at,
                 u.id as "_id", u.username, u.first_name as "firstName", u.last_name as "lastName",
                 u.photo_url as "photoUrl"
          from notifications n join users u on u.id = n.actor_id
          where n.recipient_id = ${userId}::uuid and ${
            after
              ? sql`(n.created_at, n.id) > (${after[0]}::timestamptz, ${after[1]}::uuid)`
              : sql`n.id = ${(where as { id: string }).id}::uuid`
          }
          order by n.created_at, n.id
          limit ${LIVE.replayCap}`,
    );
  }

  const toFrame = (row: NotificationRow, unreadCount: number, replay: boolean): LiveNotification => {
    const actor = toUserSummary(row);
    return {
      type: 'notification',
      id: encodeCursor([new Date(row.created_at), row.id]),
      kind: row.kind,
      actor,
      postId: row.post_id,
      commentId: row.comment_id,
      text: `${actor.username} ${SENTENCES[row.kind]}`,
      unreadCount,
      replay,
    };
  };

  function deliver(connection: Connection, frame: LiveNotification) {
    if (connection.held) connection.held.push(frame);
    else {
      connection.lastEventId = frame.id;
      send(connection, frame);
    }
  }

  /** Sends what a connection missed since its last notification (a reconnect, or a lost listener). */
  async function catchUp(connection: Connection) {
    const userId = connection.userId!;
    connection.held ??= [];
    try {
      const missed = connection.lastEventId ? await readNotifications(userId, { after: connection.lastEventId }) : [];
      const unreadCount = await notifications.unreadCount(userId);
      const sent = new Set<string>();
      for (const row of missed) {
        const frame = toFrame(row, unreadCount, true);
        sent.add(frame.id);
        connection.lastEventId = frame.id;
        send(connection, frame);
      }
      send(connection, { type: 'unread', unreadCount });
      for (const frame of connection.held) {
        if (sent.has(frame.id)) continue;
        connection.lastEventId = frame.id;
        send(connection, frame);
      }
    } finally {
      connection.held = null;
    }
  }

  // ── Events from PostgreSQL, handled one at a time so counts never go back in time ──────────────
  let queue: Promise<void> = Promise.resolve();
  const pendingCounts = new Set<string>();
  let countsTimer: NodeJS.Timeout | undefined;

  async function handle(event: DomainEvent) {
    if (event.type === 'notification-added' || event.type === 'unread-changed') {
      const mine = byUser.get(event.recipientId);
      if (!mine?.size) return;
      const unreadCount = await notifications.unreadCount(event.recipientId);
      if (event.type === 'unread-changed') {
        for (const connection of mine) if (!connection.held) send(connection, { type: 'unread', unreadCount });
        return;
      }
      const [row] = await readNotifications(event.recipientId, { id: event.notificationId });
      if (!row) return; // undone before we read it
      const frame = toFrame(row, unreadCount, false);
      for (const connection of mine) deliver(connection, frame);
    } else if (event.type === 'post-counts-changed') {
      if (!byPost.has(event.postId)) return;
      pendingCounts.add(event.postId);
      countsTimer ??= setTimeout(() => {
        countsTimer = undefined;
        const ids = [...pendingCounts].filter((id) => byPost.has(id));
        pendingCounts.clear();
        enqueue(async () => {
          for (const counts of await readCounts(ids)) {
            for (const connection of byPost.get(counts.postId) ?? []) send(connection, { type: 'counts', ...counts });
          }
        });
      }, timings.countsBatchMs);
    } else if (event.type === 'post-published') {
      if (byUser.size === 0) return;
      const followers = await queryRows<{ id: string }>(
        db,
        sql`select follower_id as id from follows
            where followee_id = ${event.authorId}::uuid and follower_id in ${idList(byUser.keys())}`,
      );
      const following = new Set(followers.map((row) => row.id).concat(event.authorId));
      for (const [userId, mine] of byUser) {
        const frame = {
          type: 'post',
          postId: event.postId,
          authorId: event.authorId,
          following: following.has(userId),
        } as const;
        for (const connection of mine) send(connection, frame);
      }
    }
  }

  function enqueue(task: () => Promise<void>) {
    queue = queue.then(task).catch((error: unknown) => log.error({ err: error }, 'live: an event could not be sent'));
  }

  /** The listener was away: events may have been lost, so every connection catches up from the tables. */
  function onResume() {
    log.warn('live: listening again after a lost connection; catching up');
    enqueue(async () => {
      for (const connection of connections) {
        if (!connection.userId) continue;
        await catchUp(connection);
        for (const counts of await readCounts(connection.posts)) send(connection, { type: 'counts', ...counts });
      }
    });
  }

  /** Counts account deletions: a hello that saw one while it checked its account checks again. */
  let deletions = 0;
  /** A deleted account's sockets are closed at once: a token outlives its account (issue 18). */
  function closeDeleted(userId: string) {
    deletions += 1;
    for (const connection of byUser.get(userId) ?? []) close(connection, LIVE_CLOSE.unauthorised, ACCOUNT_GONE);
  }

  bus.subscribe((event) => {
    if (event.type === 'account-deleted') closeDeleted(event.userId);
    else enqueue(() => handle(event));
  }, onResume);

  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        // Missed a whole heartbeat: the peer is gone or stuck. terminate() frees it without a handshake.
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }, timings.heartbeatMs);
  heartbeat.unref();

  // ── One socket ────────────────────────────────────────────────────────────────────────────────
  async function hello(
    connection: Connection,
    frame: { token: string; lastEventId?: string | null; posts?: string[] },
  ) {
    const claims = await tokens.verify(frame.token);
    if (!claims) return close(connection, LIVE_CLOSE.unauthorised, ERRORS.invalidToken);
    // The deletion event may overtake the answer that the account exists: then the answer is asked again.
    for (let seen = -1; seen !== deletions;) {
      seen = deletions;
      if (!(await userExists(claims.userId))) return close(connection, LIVE_CLOSE.unauthorised, ACCOUNT_GONE);
    }
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    if (frame.lastEventId) decodeCursor(frame.lastEventId, ['date', 'uuid']); // a 400-style error if bad

    const userId = claims.userId;
    connection.userId = userId;
    connection.onSignedIn?.();
    let mine = byUser.get(userId);
    if (!mine) byUser.set(userId, (mine = new Set()));
    mine.add(connection);
    for (const oldest of mine) {
      if (mine.size <= LIVE.connectionsPerUser) break;
      mine.delete(oldest);
      close(
        oldest,
        LIVE_CLOSE.replaced,
        `At most ${LIVE.connectionsPerUser} live connections per account: this one was replaced by a newer one.`,
      );
    }
    if (claims.expiresAt) {
      const left = Math.min(claims.expiresAt - Date.now(), MAX_TIMER);
      connection.timers.push(
        setTimeout(() => close(connection, LIVE_CLOSE.unauthorised, 'Your session has expired: log in again.'), left),
      );
    }

    connection.held = [];
    watch(connection, frame.posts ?? []);
    const [unreadCount, counts, newest] = await Promise.all([
      notifications.unreadCount(userId),
      readCounts(connection.posts),
      frame.lastEventId
        ? []
        : queryRows<{ created_at: Date | string; id: string }>(
            db,
            sql`select created_at, id from notifications where recipient_id = ${userId}::uuid
                order by created_at desc limit 1`,
          ),
    ]);
    const [latest] = newest;
    connection.lastEventId =
      frame.lastEventId ?? (latest ? encodeCursor([new Date(latest.created_at), latest.id]) : null);
    send(connection, { type: 'ready', unreadCount, counts, lastEventId: connection.lastEventId });
    if (frame.lastEventId) {
      await catchUp(connection);
    } else {
      const held = connection.held;
      connection.held = null;
      for (const item of held) deliver(connection, item);
    }
  }

  async function onFrame(connection: Connection, data: string) {
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return close(connection, LIVE_CLOSE.badFrame, 'Frames must be JSON objects with a "type".');
    }
    const { type, token, lastEventId, posts } = (frame ?? {}) as Record<string, unknown>;
    const postIds = posts === undefined ? [] : posts;
    if (
      !Array.isArray(postIds) ||
      postIds.length > LIVE.watchCap ||
      !postIds.every((id): id is string => typeof id === 'string' && isUuid(id))
    ) {
      return send(connection, {
        type: 'error',
        message: `posts must be an array of at most ${LIVE.watchCap} post ids.`,
      });
    }
    if (connection.userId === null) {
      if (type !== 'hello' || typeof token !== 'string' || token.length === 0 || token.length > 4096) {
        return close(connection, LIVE_CLOSE.unauthorised, 'Send {"type":"hello","token":"…"} first, with your token.');
      }
      if (lastEventId !== undefined && lastEventId !== null && typeof lastEventId !== 'string') {
        return close(connection, LIVE_CLOSE.badFrame, 'lastEventId must be the id of a notification frame.');
      }
      return hello(connection, { token, lastEventId, posts: postIds });
    }
    if (type !== 'watch') {
      return send(connection, { type: 'error', message: 'Only {"type":"watch","posts":[…]} is expected now.' });
    }
    const added = watch(connection, postIds);
    for (const counts of await readCounts(added)) send(connection, { type: 'counts', ...counts });
  }

  return {
    /** Takes over a freshly upgraded socket. */
    accept(socket: WebSocket, onSignedIn?: () => void) {
      const connection: Connection = {
        onSignedIn,
        socket,
        userId: null,
        posts: new Set(),
        alive: true,
        lastEventId: null,
        held: null,
        frameTimes: [],
        timers: [],
      };
      connections.add(connection);
      connection.timers.push(
        setTimeout(() => {
          if (connection.userId === null) {
            close(connection, LIVE_CLOSE.helloTimeout, 'No hello frame with a token arrived in time.');
          }
        }, timings.helloTimeoutMs),
      );
      socket.on('pong', () => (connection.alive = true));
      socket.on('close', () => forget(connection));
      socket.on('message', (data, isBinary) => {
        connection.alive = true;
        const now = Date.now();
        connection.frameTimes = connection.frameTimes.filter((at) => now - at < FLOOD.windowMs);
        connection.frameTimes.push(now);
        if (connection.frameTimes.length > FLOOD.frames) {
          return close(
            connection,
            LIVE_CLOSE.badFrame,
            'Too many frames: send watch only when what is on screen changes.',
          );
        }
        if (isBinary) return close(connection, LIVE_CLOSE.badFrame, 'Frames must be JSON text.');
        onFrame(connection, String(data)).catch((error: unknown) => {
          const status = (error as { statusCode?: number }).statusCode;
          if (status && status < 500) return close(connection, LIVE_CLOSE.badFrame, (error as Error).message);
          log.error({ err: error }, 'live: a frame could not be handled');
          close(connection, 1011, 'Something went wrong on the server: reconnect in a moment.');
        });
      });
    },

    /** Closes every socket with "going away" and stops listening. */
    async close() {
      clearInterval(heartbeat);
      clearTimeout(countsTimer);
      for (const connection of connections) {
        close(connection, LIVE_CLOSE.goingAway, 'The server is restarting: reconnect in a moment.');
      }
      await queue;
    },

    /** Open sockets, for tests and health figures. */
    get size() {
      return connections.size;
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
