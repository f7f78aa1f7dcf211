import { Type, type Static } from 'typebox';
import { Id } from './common.js';
import { CollectionRef } from './collections.js';
import { SeriesRef } from './series.js';
import { InquiryRef } from './inquiries.js';
import { PersonSummary } from './user.js';
import { LIVE } from '../constants.js';

/**
 * The live stream: a WebSocket at `GET /api/live` (same origin; `wss:` behind HTTPS). The token never
 * goes in the URL: the first frame the client sends is `hello` with it. Frames are JSON text.
 *
 * Client → server: `hello` (first, within LIVE.helloTimeoutMs), then `watch` whenever the set of posts
 * on screen changes. Server → client: `ready` once signed in (with the counts of watched posts), then
 * `notification`, `unread`, `counts` and `post` as things happen. The server pings every
 * LIVE.heartbeatMs and closes a connection that misses a pong. A client that reconnects sends the `id` of
 * the last `notification` it saw as `lastEventId` and receives every notification it missed.
 */
export const LiveHello = Type.Object({
  type: Type.Literal('hello'),
  token: Type.String({ minLength: 1, maxLength: 4096 }),
  lastEventId: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  posts: Type.Optional(Type.Array(Id, { maxItems: LIVE.watchCap })),
});
export type LiveHello = Static<typeof LiveHello>;

export const LiveWatch = Type.Object({
  type: Type.Literal('watch'),
  posts: Type.Array(Id, { maxItems: LIVE.watchCap }),
});
export type LiveWatch = Static<typeof LiveWatch>;

export const LiveClientFrame = Type.Union([LiveHello, LiveWatch]);
export type LiveClientFrame = Static<typeof LiveClientFrame>;

export const LivePostCounts = Type.Object({
  postId: Id,
  likeCount: Type.Integer(),
  commentCount: Type.Integer(),
});
export type LivePostCounts = Static<typeof LivePostCounts>;

/** One new notification as it happens (the grouped list comes from GET /api/notifications). */
export const LiveNotification = Type.Object({
  type: Type.Literal('notification'),
  /** Pass the last one seen as `lastEventId` when reconnecting. */
  id: Type.String(),
  kind: Type.Enum([
    'like',
    'comment',
    'upvote',
    'follow',
    'mention',
    'report-resolved',
    'boost',
    'series-work',
    'collection-work',
    'commissions-open',
    'inquiry',
    'inquiry-message',
    'inquiry-state',
  ]),
  /** With `remote`: someone on another server (issue 39), named by `@handle` in `text`. */
  actor: PersonSummary,
  postId: Type.Union([Id, Type.Null()]),
  commentId: Type.Union([Id, Type.Null()]),
  /** series-work (issue 41): the series the work was added to, named at the end of `text`. */
  series: Type.Optional(SeriesRef),
  /** collection-work (issue 41): the public collection the work was added to, named at the end of `text`. */
  collection: Type.Optional(CollectionRef),
  /** inquiry, inquiry-message, inquiry-state (issue 42): the inquiry, with its state now. */
  inquiry: Type.Optional(InquiryRef),
  /** A readable sentence for a live region, e.g. "theo liked your post". */
  text: Type.String(),
  unreadCount: Type.Integer(),
  /** True for notifications replayed after a reconnect. */
  replay: Type.Boolean(),
});
export type LiveNotification = Static<typeof LiveNotification>;

export type LiveServerFrame =
  | {
      type: 'ready';
      unreadCount: number;
      counts: LivePostCounts[];
      /** The newest notification's id (null when none): send it as `lastEventId` after a reconnect. */
      lastEventId: string | null;
    }
  | LiveNotification
  /** The unread count changed without a new notification (read elsewhere, or an action was undone). */
  | { type: 'unread'; unreadCount: number }
  | ({ type: 'counts' } & LivePostCounts)
  /** A post was published: `following` is true when the receiver follows its author (or wrote it). */
  | { type: 'post'; postId: string; authorId: string; following: boolean }
  /** An import of the receiver's moved on (issue 40): read it again (GET /api/imports/{importId}). */
  | { type: 'import'; importId: string }
  /**
   * The server of someone on another server the receiver follows answered (issue 39): `accepted` (no longer
   * requested), or refused (the follow ended). `userId` is that person's account here.
   */
  | { type: 'follow'; userId: string; accepted: boolean }
  | { type: 'error'; message: string };
