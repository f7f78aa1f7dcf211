import { startHeartbeat } from '../../lib/socket-heartbeat.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { DomainEvent } from '../../events/events.js';
import { HttpError } from '../../lib/http-error.js';
import { tokenFromHeader } from '../../lib/tokens.js';
import { allows } from '../oauth/index.js';
import { normalizeTag } from '../tags/index.js';
import type { MastoStatus } from './entities/index.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { INVALID_TOKEN, RECORD_NOT_FOUND } from './errors.js';
import { MASTODON_ROUTE } from './params.js';
import { selectHomeReaders, selectListReaders, selectNotificationRows, selectStreamPost } from './more.sql.js';
import { presentNotifications, TYPE_OF_KIND } from './notifications.js';

/**
 * The streams Mastodon's clients subscribe to that exist here. `user` is the person's Home (works by the people and
 * tags they follow, and their own) and their notifications; `user:notification` the notifications alone; `public`
 * every public work of ours (works from other servers are on their followers' Home only, as in the web app);
 * `public:local` the same; `hashtag` and `hashtag:local` a tag's works. Others (`list`, `direct`, `public:remote`,
 * `public:media`) are refused as Mastodon refuses an unknown stream.
 */
const STREAMS = ['user', 'user:notification', 'public', 'public:local', 'hashtag', 'hashtag:local'] as const;
type StreamName = (typeof STREAMS)[number];
const SIGNED_IN_STREAMS = new Set<StreamName>(['user', 'user:notification']);

/** A socket's subscriptions: a stream, and its tag for the hashtag streams (the key is `name` or `name tag`). */
interface Subscription {
  name: StreamName;
  tag?: string;
}

/**
 * What a connection is carried by: a WebSocket, or an HTTP answer of server-sent events (`sse`) that behaves as one
 * for the rest of this file (open while the answer is, closed by ending it, pinged by a `:thump` comment).
 */
interface StreamSocket {
  readonly readyState: number;
  readonly OPEN: number;
  close(code?: number, reason?: string): void;
  ping(): void;
  terminate(): void;
}

interface Connection {
  socket: StreamSocket;
  /** Writes one event (`stream`, `event`, `payload` as JSON text) as the carrier frames it. */
  write(stream: string[], event: string, payload: string): void;
  /** Writes an error (WebSocket: `{"error","status"}`; server-sent events: nothing, the answer's status said it). */
  error(status: number, message: string): void;
  userId: string | null;
  sessionId: string | null;
  subscriptions: Map<string, Subscription>;
  alive: boolean;
  /** The site's origin as this socket reached it, for the events' URLs. */
  origin: string;
}

/** Pings every 30 s; a socket that did not answer the previous one is closed. */
const HEARTBEAT_MS = 30_000;
/** Sockets one account may hold; the oldest is closed past it. */
const SOCKETS_PER_USER = 20;
/** Subscriptions one socket may hold. */
const SUBSCRIPTIONS_MAX = 50;
/** The scopes that may read the streams (Mastodon: read or read:statuses/notifications). */
const READ_SCOPES = ['read', 'read:statuses', 'read:notifications'];

const keyOf = (subscription: Subscription) =>
  subscription.tag ? `${subscription.name} ${subscription.tag}` : subscription.name;

/** The stream array Mastodon sends with each event (`["hashtag", "art"]`). */
const streamOf = (subscription: Subscription) =>
  subscription.tag ? [subscription.name, subscription.tag] : [subscription.name];

function send(connection: Connection, subscription: Subscription, event: string, payload: unknown) {
  if (connection.socket.readyState !== connection.socket.OPEN) return;
  connection.write(streamOf(subscription), event, typeof payload === 'string' ? payload : JSON.stringify(payload));
}

const sendError = (connection: Connection, status: number, error: string) => {
  if (connection.socket.readyState === connection.socket.OPEN) connection.error(status, error);
};

/** A WebSocket's frames: `{"stream":[…],"event":…,"payload":"<JSON text>"}`, and errors as `{"error","status"}`. */
const socketFrames = (socket: WebSocket) => ({
  write: (stream: string[], event: string, payload: string) => socket.send(JSON.stringify({ stream, event, payload })),
  error: (status: number, error: string) => socket.send(JSON.stringify({ error, status })),
});

/**
 * The server-sent-events paths (`/api/v1/streaming/user`, …) and the stream each names, as Mastodon serves them.
 * `public/remote`, `public/media`, `list` and `direct` name streams that do not exist here (400, as the socket).
 */
const SSE_PATHS: Record<string, string> = {
  user: 'user',
  'user/notification': 'user:notification',
  public: 'public',
  'public/local': 'public:local',
  'public/remote': 'public:remote',
  'public/media': 'public:media',
  hashtag: 'hashtag',
  'hashtag/local': 'hashtag:local',
  list: 'list',
  direct: 'direct',
};
/** The comment a server-sent-events answer is kept open with (Mastodon's). */
const SSE_HEARTBEAT = ':thump\n\n';

/** What a query or a subscribe message names: a stream and, for hashtags, its tag. */
function subscriptionOf(stream: unknown, tag: unknown): Subscription {
  if (typeof stream !== 'string' || !(STREAMS as readonly string[]).includes(stream)) {
    throw new HttpError(400, 'Unknown stream type');
  }
  const name = stream as StreamName;
  if (name === 'hashtag' || name === 'hashtag:local') {
    if (typeof tag !== 'string' || tag.length === 0) throw new HttpError(400, 'Missing tag name parameter');
    try {
      return { name, tag: normalizeTag(tag.replace(/^#/u, '')) };
    } catch {
      throw new HttpError(400, 'Invalid tag name parameter');
    }
  }
  return { name };
}

/** The token of an upgrading request: `access_token` in the query, a Bearer header, or Sec-WebSocket-Protocol. */
function tokenOf(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown>;
  if (typeof query.access_token === 'string' && query.access_token) return query.access_token;
  const bearer = tokenFromHeader(request.headers.authorization);
  if (bearer) return bearer;
  const protocol = request.headers['sec-websocket-protocol'];
  return typeof protocol === 'string' && protocol ? protocol.split(',')[0]!.trim() : undefined;
}

/**
 * Mastodon's streaming API (https://docs.joinmastodon.org/methods/streaming/) as a WebSocket at /api/v1/streaming:
 * the token as Mastodon takes it; `stream` (and `tag`) in the query, and `{"type":"subscribe"|"unsubscribe",
 * "stream":…,"tag":…}` messages; events `update` (a new work), `status.update` (an edited one), `delete` (a work
 * gone, or no longer visible to the person) and `notification`, each `{stream, event, payload}` with the payload as
 * JSON text, as Mastodon sends them. They are fed by the same events of the bus that feed the web app's live socket,
 * and each socket gets only what its person may see: the posts service's visibility for them, blocks both ways,
 * mutes and muted words (for `update` on every stream), their notifications only. GET /api/v1/streaming/health
 * answers `OK`.
 */
export function streamingRoutes(app: FastifyInstance, deps: MastodonDeps): void {
  const { shared, posts, present } = deps;
  const { db, bus, tokenCheck, log } = shared;
  const connections = new Set<Connection>();
  const byUser = new Map<string, Set<Connection>>();

  app.get('/v1/streaming/health', { schema: MASTODON_ROUTE }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send('OK'),
  );

  app.route({
    method: 'GET',
    url: '/v1/streaming',
    schema: { hide: true },
    handler: async () => {
      throw new HttpError(426, 'Open /api/v1/streaming as a WebSocket (an Upgrade: websocket request).', {
        upgrade: 'websocket',
      });
    },
    wsHandler: (socket, request) =>
      void accept(socket, request).catch((error: unknown) => {
        log.error({ err: error }, 'mastodon streaming: a socket could not be opened');
        socket.close(1011, 'Try again later');
      }),
  });

  /**
   * The server-sent-events form (Mastodon's `GET /api/v1/streaming/user`, `/public`, `/hashtag?tag=`, …): one stream
   * per answer, the token as for the socket (`access_token` or a Bearer header), the same events as the socket's,
   * each as `event: update` / `data: <JSON text>` lines, kept open by a `:thump` comment at each heartbeat.
   */
  app.get('/v1/streaming/*', { schema: MASTODON_ROUTE }, async (request, reply) => {
    const path = (request.params as { '*': string })['*'].replace(/\/+$/, '');
    const stream = SSE_PATHS[path];
    if (stream === undefined) return reply.code(404).send({ error: RECORD_NOT_FOUND });
    const query = request.query as Record<string, unknown>;
    let subscription: Subscription;
    try {
      subscription = subscriptionOf(stream, query.tag);
    } catch (error) {
      return reply.code(400).send({ error: (error as Error).message });
    }
    const token = tokenOf(request);
    let claims: { userId: string; sessionId: string | null } | null = null;
    if (token) {
      const verdict = await tokenCheck.check(token);
      if (verdict.status !== 'valid' || !allows(verdict.claims.scopes, READ_SCOPES)) {
        return reply.code(401).send({ error: INVALID_TOKEN });
      }
      claims = { userId: verdict.claims.userId, sessionId: verdict.claims.sessionId ?? null };
    } else if (SIGNED_IN_STREAMS.has(subscription.name)) {
      return reply.code(401).send({ error: 'Missing access token' });
    }
    const raw = reply.raw;
    const headers = Object.fromEntries(
      Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => {
        return entry[1] !== undefined;
      }),
    );
    reply.hijack();
    raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    raw.write(':)\n\n');
    let open = true;
    const connection: Connection = {
      socket: {
        OPEN: 1,
        get readyState() {
          return open && !raw.destroyed ? 1 : 3;
        },
        close: () => {
          if (!open) return;
          open = false;
          raw.end();
        },
        ping: () => {
          // No pong comes back over HTTP: a comment that could be written is the sign of life.
          if (open && !raw.destroyed) {
            raw.write(SSE_HEARTBEAT);
            connection.alive = true;
          }
        },
        terminate: () => {
          open = false;
          raw.destroy();
        },
      },
      write: (_stream, event, payload) => void raw.write(`event: ${event}\ndata: ${payload}\n\n`),
      error: () => {},
      userId: claims?.userId ?? null,
      sessionId: claims?.sessionId ?? null,
      subscriptions: new Map([[keyOf(subscription), subscription]]),
      alive: true,
      origin: present.origin(request),
    };
    raw.on('close', () => {
      open = false;
      forget(connection);
    });
    if (raw.destroyed) return;
    keep(connection);
  });

  /** A connection opened: kept, and counted among its person's (the oldest closed past the limit). */
  function keep(connection: Connection) {
    connections.add(connection);
    if (!connection.userId) return;
    const mine = byUser.get(connection.userId) ?? new Set();
    byUser.set(connection.userId, mine);
    mine.add(connection);
    if (mine.size > SOCKETS_PER_USER) mine.values().next().value?.socket.close(4009, 'Too many connections');
  }

  function forget(connection: Connection) {
    connections.delete(connection);
    if (connection.userId) byUser.get(connection.userId)?.delete(connection);
  }

  async function accept(socket: WebSocket, request: FastifyRequest) {
    const connection: Connection = {
      socket,
      ...socketFrames(socket),
      userId: null,
      sessionId: null,
      subscriptions: new Map(),
      alive: true,
      origin: present.origin(request),
    };
    // Messages sent while the token is being checked are read once it is (a subscribe right after opening).
    const early: string[] = [];
    let checked = false;
    socket.on('message', (data) => (checked ? receive(connection, String(data)) : early.push(String(data))));
    socket.on('close', () => forget(connection));
    const token = tokenOf(request);
    if (token) {
      const verdict = await tokenCheck.check(token);
      if (verdict.status !== 'valid' || !allows(verdict.claims.scopes, READ_SCOPES)) {
        sendError(connection, 401, 'Error 401: The access token is invalid');
        socket.close(4001, 'The access token is invalid');
        return;
      }
      connection.userId = verdict.claims.userId;
      connection.sessionId = verdict.claims.sessionId;
    }
    const query = request.query as Record<string, unknown>;
    if (query.stream !== undefined) {
      try {
        subscribe(connection, subscriptionOf(query.stream, query.tag));
      } catch (error) {
        sendError(connection, 400, error instanceof Error ? error.message : 'Bad request');
        socket.close(4000, 'Bad stream');
        return;
      }
    }
    // Closed while its token was checked: nothing to keep.
    if (socket.readyState !== socket.OPEN) return;
    keep(connection);
    socket.on('pong', () => (connection.alive = true));
    checked = true;
    for (const text of early) receive(connection, text);
  }

  function subscribe(connection: Connection, subscription: Subscription) {
    if (SIGNED_IN_STREAMS.has(subscription.name) && !connection.userId) {
      throw new HttpError(401, 'Missing access token');
    }
    if (connection.subscriptions.size >= SUBSCRIPTIONS_MAX) throw new HttpError(400, 'Too many subscriptions');
    connection.subscriptions.set(keyOf(subscription), subscription);
  }

  function receive(connection: Connection, text: string) {
    let message: { type?: unknown; stream?: unknown; tag?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return sendError(connection, 400, 'Invalid JSON');
    }
    if (typeof message !== 'object' || message === null) return sendError(connection, 400, 'Invalid message');
    try {
      const subscription = subscriptionOf(message.stream, message.tag);
      if (message.type === 'subscribe') subscribe(connection, subscription);
      else if (message.type === 'unsubscribe') connection.subscriptions.delete(keyOf(subscription));
      else sendError(connection, 400, 'Unknown message type');
    } catch (error) {
      sendError(connection, error instanceof HttpError ? error.statusCode : 400, (error as Error).message);
    }
  }

  // ── Events ──
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (task: () => Promise<void>) => {
    queue = queue
      .then(task)
      .catch((error: unknown) => log.error({ err: error }, 'mastodon streaming: an event was not sent'));
  };

  bus.subscribe((event) => {
    if (connections.size === 0) return;
    if (event.type === 'session-ended') return closeEnded(event);
    if (event.type === 'account-deleted') {
      for (const connection of byUser.get(event.userId) ?? []) connection.socket.close(4001, 'The account is gone');
      return;
    }
    if (event.type === 'post-published' && !event.imported) enqueue(() => published(event.postId, 'update'));
    else if (event.type === 'post-changed') enqueue(() => published(event.postId, 'status.update'));
    else if (event.type === 'notification-added') enqueue(() => notified(event.recipientId, event.notificationId));
  });

  function closeEnded(event: Extract<DomainEvent, { type: 'session-ended' }>) {
    for (const connection of byUser.get(event.userId) ?? []) {
      const ended =
        event.sessionId === undefined
          ? connection.sessionId !== event.except
          : connection.sessionId === event.sessionId;
      if (ended) connection.socket.close(4001, 'The session ended');
    }
  }

  /** Which of the connection's subscriptions a work belongs to. */
  function matching(
    connection: Connection,
    work: { tags: string[]; remote: boolean },
    home: Set<string>,
  ): Subscription[] {
    return [...connection.subscriptions.values()].filter((subscription) => {
      switch (subscription.name) {
        case 'user':
          return connection.userId !== null && home.has(connection.userId);
        case 'public':
        case 'public:local':
          return !work.remote;
        case 'hashtag':
        case 'hashtag:local':
          return !work.remote && work.tags.includes(subscription.tag!);
        default:
          return false;
      }
    });
  }

  /** A work published or changed: `update` / `status.update` to whoever's streams have it, `delete` if it is gone. */
  async function published(postId: string, kind: 'update' | 'status.update') {
    const work = await selectStreamPost(db, postId);
    const all = [...connections];
    if (!work) {
      if (kind === 'status.update') {
        for (const connection of all) {
          for (const subscription of connection.subscriptions.values()) {
            if (subscription.name !== 'user:notification') send(connection, subscription, 'delete', postId);
          }
        }
      }
      return;
    }
    const userIds = [...new Set(all.flatMap((connection) => (connection.userId ? [connection.userId] : [])))];
    const [home, readers] = await Promise.all([
      selectHomeReaders(db, work.author_id, work.tags, userIds),
      selectListReaders(db, postId, userIds),
    ]);
    const statuses = new Map<string, MastoStatus | null>();
    const statusFor = async (viewerId: string | null, at: string) => {
      const key = `${viewerId ?? ''} ${at}`;
      if (!statuses.has(key)) {
        const [found] = await posts.getPosts([postId], viewerId);
        statuses.set(key, found ? ((await present.statuses([found], viewerId, at))[0] ?? null) : null);
      }
      return statuses.get(key)!;
    };
    for (const connection of all) {
      const wanted = matching(connection, work, home);
      if (wanted.length === 0) continue;
      // Blocks, mutes and muted words: not in their lists (a changed work they saw is gone from them).
      if (connection.userId && !readers.has(connection.userId)) continue;
      const status = await statusFor(connection.userId, connection.origin);
      for (const subscription of wanted) {
        if (status) send(connection, subscription, kind, status);
        else if (kind === 'status.update') send(connection, subscription, 'delete', postId);
      }
    }
  }

  /** A notification of one person, to their `user` and `user:notification` streams. */
  async function notified(recipientId: string, notificationId: string) {
    const mine = [...(byUser.get(recipientId) ?? [])];
    if (mine.length === 0) return;
    const rows = await selectNotificationRows(
      db,
      recipientId,
      { kinds: Object.keys(TYPE_OF_KIND), id: notificationId },
      {},
      1,
    );
    const [notification] = await presentNotifications(deps, rows, recipientId, mine[0]!.origin);
    if (!notification) return;
    for (const connection of mine) {
      for (const subscription of connection.subscriptions.values()) {
        if (subscription.name === 'user' || subscription.name === 'user:notification') {
          send(connection, subscription, 'notification', notification);
        }
      }
    }
  }

  // Heartbeat, and closing every socket when the server begins to close.
  const stopHeartbeat = startHeartbeat(connections, HEARTBEAT_MS);
  shared.beforeClose(async () => {
    stopHeartbeat();
    for (const connection of connections) connection.socket.close(1001, 'The server is restarting');
    await queue;
  });
}
