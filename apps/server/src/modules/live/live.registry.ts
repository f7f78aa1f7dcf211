import { startHeartbeat } from '../../lib/socket-heartbeat.js';
import type { WebSocket } from 'ws';
import { LIVE, type LiveNotification, type LiveServerFrame } from '@share-arts/contract';

export interface Connection {
  socket: WebSocket;
  userId: string | null;
  /** The session its token names (issue 24): the socket closes when that session ends. */
  sessionId: string | null;
  posts: Set<string>;
  /** Answered the last ping (or sent something) since the heartbeat before. */
  alive: boolean;
  /** The id of the newest notification this connection has been sent: where a catch-up starts. */
  lastEventId: string | null;
  /**
   * The notifications the last catch-up replayed: the event of one of them can still arrive after the replay
   * read its row (another process's NOTIFY, a slow listener), and is then not sent a second time.
   */
  replayed: Set<string>;
  /**
   * From sign-in until `ready` has been sent (and what was missed replayed): the notification and new-post
   * frames that arrived meanwhile, sent after them in order. `ready` is always a socket's first frame.
   */
  held: HeldFrame[] | null;
  /** When recent frames from the client arrived, for flood control. */
  frameTimes: number[];
  timers: NodeJS.Timeout[];
  /** Called once the socket has signed in (it no longer counts as waiting for its hello). */
  onSignedIn?: () => void;
}

/** A frame a connection may be sent while it is being signed in. */
export type HeldFrame = LiveNotification | Extract<LiveServerFrame, { type: 'post' }>;

const FLOOD = { frames: 60, windowMs: 10_000 };

/**
 * The open sockets of one server process: all of them, the signed-in ones by user, and by the posts they
 * watch. It only files them; what they are sent is the hub's.
 */
export function createSocketRegistry() {
  const connections = new Set<Connection>();
  const byUser = new Map<string, Set<Connection>>();
  const byPost = new Map<string, Set<Connection>>();

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

  return {
    /** Files a freshly upgraded socket, not signed in yet. */
    add(socket: WebSocket, onSignedIn?: () => void): Connection {
      const connection: Connection = {
        onSignedIn,
        socket,
        userId: null,
        sessionId: null,
        posts: new Set(),
        alive: true,
        lastEventId: null,
        replayed: new Set(),
        held: null,
        frameTimes: [],
        timers: [],
      };
      connections.add(connection);
      return connection;
    },

    /** Forgets a closed socket, and stops its timers. */
    forget(connection: Connection) {
      connections.delete(connection);
      for (const timer of connection.timers) clearTimeout(timer);
      if (connection.userId) {
        const mine = byUser.get(connection.userId);
        mine?.delete(connection);
        if (mine?.size === 0) byUser.delete(connection.userId);
      }
      watch(connection, []);
    },

    watch,

    /**
     * Files a connection under the user it signed in as. Answers the user's oldest connections beyond
     * LIVE.connectionsPerUser, no longer filed under the user, for the caller to close.
     */
    signIn(connection: Connection, userId: string): Connection[] {
      connection.userId = userId;
      let mine = byUser.get(userId);
      if (!mine) byUser.set(userId, (mine = new Set()));
      mine.add(connection);
      const replaced: Connection[] = [];
      for (const oldest of mine) {
        if (mine.size <= LIVE.connectionsPerUser) break;
        mine.delete(oldest);
        replaced.push(oldest);
      }
      return replaced;
    },

    /** Notes a frame from the client (it is alive); false once it sends more than flood control allows. */
    admitFrame(connection: Connection): boolean {
      connection.alive = true;
      const now = Date.now();
      connection.frameTimes = connection.frameTimes.filter((at) => now - at < FLOOD.windowMs);
      connection.frameTimes.push(now);
      return connection.frameTimes.length <= FLOOD.frames;
    },

    /** Every open socket, signed in or not. */
    all: (): Iterable<Connection> => connections,
    /** The signed-in sockets by user. */
    users: (): ReadonlyMap<string, ReadonlySet<Connection>> => byUser,
    ofUser: (userId: string): ReadonlySet<Connection> | undefined => byUser.get(userId),
    watchersOf: (postId: string): ReadonlySet<Connection> | undefined => byPost.get(postId),

    /**
     * Pings every socket each `heartbeatMs`; one that did not answer the ping before is ended. Answers
     * the function that stops it.
     */
    startHeartbeat: (heartbeatMs: number): (() => void) => startHeartbeat(connections, heartbeatMs),

    get size() {
      return connections.size;
    },
  };
}

export type SocketRegistry = ReturnType<typeof createSocketRegistry>;
