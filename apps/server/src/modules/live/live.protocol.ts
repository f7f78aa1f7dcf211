import { ERRORS, LIVE, LIVE_CLOSE, type LiveServerFrame } from '@share-arts/contract';
import { isUuid } from '../../lib/ids.js';
import { ACCOUNT_GONE, suspendedError, type TokenVerdict } from '../../plugins/auth.js';
import type { Connection } from './live.registry.js';

/**
 * The live socket's protocol: the frames a client may send (a hello, then watch frames), how the server
 * refuses the others, and the reason that goes with each close code.
 */

/** The reason of each close (sent as an error frame first, then as the close reason). */
export const CLOSE_REASONS = {
  notJson: 'Frames must be JSON objects with a "type".',
  notText: 'Frames must be JSON text.',
  helloFirst: 'Send {"type":"hello","token":"…"} first, with your token.',
  badLastEventId: 'lastEventId must be the id of a notification frame.',
  flood: 'Too many frames: send watch only when what is on screen changes.',
  helloTimeout: 'No hello frame with a token arrived in time.',
  replaced: `At most ${LIVE.connectionsPerUser} live connections per account: this one was replaced by a newer one.`,
  expired: 'Your session has expired: log in again.',
  serverError: 'Something went wrong on the server: reconnect in a moment.',
  goingAway: 'The server is restarting: reconnect in a moment.',
} as const;

export interface HelloFrame {
  type: 'hello';
  token: string;
  lastEventId?: string | null;
  posts: string[];
}

export type ClientFrame = HelloFrame | { type: 'watch'; posts: string[] };

/** How a frame is refused: an error frame (the socket stays open), or a close with its code. */
export type Refusal = { error: string } | { code: number; reason: string };

export const send = (connection: Connection, frame: LiveServerFrame) => {
  if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(frame));
};

export const close = (connection: Connection, code: number, reason: string) => {
  if (connection.socket.readyState === connection.socket.OPEN) send(connection, { type: 'error', message: reason });
  connection.socket.close(code, reason);
};

export const refuse = (connection: Connection, refusal: Refusal) =>
  'error' in refusal
    ? send(connection, { type: 'error', message: refusal.error })
    : close(connection, refusal.code, refusal.reason);

/** Why a hello's token is refused (the client must not retry with it). */
export const tokenRefusal = (verdict: Exclude<TokenVerdict, { status: 'valid' }>): Refusal => ({
  code: LIVE_CLOSE.unauthorised,
  reason:
    verdict.status === 'gone'
      ? ACCOUNT_GONE
      : verdict.status === 'suspended'
        ? suspendedError(verdict.until).message
        : ERRORS.invalidToken,
});

/**
 * Reads one text frame: a hello until the socket has signed in, then watch frames. A `posts` list that is
 * not valid is answered with an error frame and leaves the socket open.
 */
export function readFrame(data: string, signedIn: boolean): { frame: ClientFrame } | { refusal: Refusal } {
  let frame: unknown;
  try {
    frame = JSON.parse(data);
  } catch {
    return { refusal: { code: LIVE_CLOSE.badFrame, reason: CLOSE_REASONS.notJson } };
  }
  const { type, token, lastEventId, posts } = (frame ?? {}) as Record<string, unknown>;
  const postIds = posts === undefined ? [] : posts;
  if (
    !Array.isArray(postIds) ||
    postIds.length > LIVE.watchCap ||
    !postIds.every((id): id is string => typeof id === 'string' && isUuid(id))
  ) {
    return { refusal: { error: `posts must be an array of at most ${LIVE.watchCap} post ids.` } };
  }
  if (!signedIn) {
    if (type !== 'hello' || typeof token !== 'string' || token.length === 0 || token.length > 4096) {
      return { refusal: { code: LIVE_CLOSE.unauthorised, reason: CLOSE_REASONS.helloFirst } };
    }
    if (lastEventId !== undefined && lastEventId !== null && typeof lastEventId !== 'string') {
      return { refusal: { code: LIVE_CLOSE.badFrame, reason: CLOSE_REASONS.badLastEventId } };
    }
    return { frame: { type: 'hello', token, lastEventId, posts: postIds } };
  }
  if (type !== 'watch') return { refusal: { error: 'Only {"type":"watch","posts":[…]} is expected now.' } };
  return { frame: { type: 'watch', posts: postIds } };
}
