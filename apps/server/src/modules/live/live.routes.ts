import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIVE } from '@share-arts/contract';
import { Type } from 'typebox';
import { HttpError } from '../../lib/http-error.js';
import { errorResponses } from '../../lib/route-schema.js';
import type { LiveHub } from './live.hub.js';

export const liveRoutes: FastifyPluginAsyncTypebox<{ hub: LiveHub }> = async (app, { hub }) => {
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
        `${LIVE.connectionsPerUser} connections per account (the oldest is closed with 4009). Close codes: 4000`,
        'bad frame, 4001 bad or expired token (do not retry), 4008 no hello in time, 4009 replaced, 1001 the',
        'server is restarting (reconnect). Frame types: `LiveClientFrame` and `LiveServerFrame` in the contract.',
      ].join(' '),
      response: {
        101: Type.Null({ description: 'Switching Protocols: the WebSocket is open' }),
        ...errorResponses(426),
      },
    },
    wsHandler: (socket) => hub.accept(socket),
    handler: async () => {
      throw new HttpError(426, 'Open /api/live as a WebSocket (an Upgrade: websocket request).', {
        upgrade: 'websocket',
      });
    },
  });
};
