import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIVE } from '@share-arts/contract';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { addressKey } from '../../lib/client-address.js';
import { HttpError, refusal } from '../../lib/http-error.js';
import { errorResponses } from '../../lib/route-schema.js';
import type { LiveHub } from './live.hub.js';
import { createLiveAdmission } from './live.admission.js';

/** The socket's refusal before it signs in (issue 43: `{max}` filled in the reader's language). */
export const LIVE_ROUTE_MESSAGES = {
  tooManyWaiting:
    'Too many live connections from your address are waiting to sign in (at most {max}): try again in a few seconds.',
} as const;

export const liveRoutes: FastifyPluginAsyncTypebox<{ hub: LiveHub; unauthenticatedPerAddress: number }> = async (
  app,
  { hub, unauthenticatedPerAddress },
) => {
  const admission = createLiveAdmission(unauthenticatedPerAddress);
  /** The place each upgrading request holds, handed to its socket until the hello frame. */
  const places = new WeakMap<FastifyRequest, () => void>();
  app.route({
    method: 'GET',
    url: '/live',
    schema: {
      tags: ['live'],
      summary: 'The live stream (WebSocket): new notifications, unread count, like and comment counts, new posts',
      description: [
        'Open as a WebSocket (same origin). The token never goes in the URL: the first frame is',
        '`{"type":"hello","token":"…","lastEventId":"…","posts":["…"]}` within',
        `${LIVE.helloTimeoutMs / 1000} s. Then \`{"type":"watch","posts":[…]}\` whenever the posts on screen`,
        `change (at most ${LIVE.watchCap}). The server answers \`ready\` (unread count and the watched posts'`,
        'counts), then `notification`, `unread`, `counts` and `post` frames as things happen, on whichever',
        'server process the action ran. Reconnect with the last notification `id` as `lastEventId` to receive',
        `what was missed (up to ${LIVE.replayCap}). The server pings every ${LIVE.heartbeatMs / 1000} s and`,
        'closes a connection that misses a pong; at most',
        `${LIVE.connectionsPerUser} connections per account (the oldest is closed with 4009), and at most`,
        `${unauthenticatedPerAddress} sockets per address that have not sent their hello yet (more are answered 429).`,
        'Close codes: 4000 bad frame, 4001 bad or expired token, or the account was deleted (do not retry), 4008 no',
        'hello in time, 4009 replaced, 1001 the server is restarting (reconnect). Frame types: `LiveClientFrame`',
        'and `LiveServerFrame` in the contract.',
      ].join(' '),
      response: {
        101: Type.Null({ description: 'Switching Protocols: the WebSocket is open' }),
        ...errorResponses(426, 429),
      },
    },
    onRequest: (request, _reply, done) => {
      if (!request.ws) return done();
      const leave = admission.enter(addressKey(request.ip));
      if (!leave) {
        return done(
          refusal(
            429,
            LIVE_ROUTE_MESSAGES.tooManyWaiting,
            { max: unauthenticatedPerAddress },
            { 'retry-after': String(Math.ceil(LIVE.helloTimeoutMs / 1000)) },
          ),
        );
      }
      // Given back when the socket signs in, or closes (refused, failed or done) before it does.
      request.raw.socket.once('close', leave);
      places.set(request, leave);
      done();
    },
    wsHandler: (socket, request) => hub.accept(socket, places.get(request)),
    handler: async () => {
      throw new HttpError(426, 'Open /api/live as a WebSocket (an Upgrade: websocket request).', {
        upgrade: 'websocket',
      });
    },
  });
};
