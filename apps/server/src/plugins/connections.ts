import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { addressKey } from '../lib/client-address.js';

/**
 * How long a client may take and how much it may hold open. Without these a machine trickling bodies
 * one byte every 5 s held 20,000 connections and every other client was reset (issue 18).
 */
export interface ConnectionLimits {
  /** Request headers (a few hundred bytes, one packet even on a phone) must arrive within this. */
  headersTimeoutMs: number;
  /** A whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** A body must advance by `bodyMinBytes` in every window of this length, or its connection is closed. */
  bodyWindowMs: number;
  bodyMinBytes: number;
  /** A kept-alive connection idle between requests is closed after this. */
  keepAliveTimeoutMs: number;
  /** A connection on which no byte moves either way (a client that stopped reading its answer). */
  idleTimeoutMs: number;
  /** Connections open at once from one address (IPv6 by its /64); more are reset as they arrive. */
  perAddress: number;
  /** Live WebSockets from one address that have not signed in with a hello frame yet. */
  liveUnauthenticatedPerAddress: number;
  /** How often the timeouts above are checked (a deadline is late by at most this much). */
  checkIntervalMs: number;
  /**
   * After an answer sent before its request's body has all arrived (a 413), the rest of the body is read
   * and thrown away for at most this long and this many bytes, then the connection is closed.
   */
  lingerMs: number;
  lingerBytes: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  // Ample for headers; Node also counts a fresh connection that sends nothing against it.
  headersTimeoutMs: 15_000,
  // 20 MB (the largest upload) in 15 minutes is 180 kbit/s: a weak 3G uplink still gets through. The
  // progress rule below, not this, is what stops a trickle.
  requestTimeoutMs: 15 * 60_000,
  // 4 KiB in 20 s (about 200 bytes/s, as Kestrel's minimum body rate of 240 bytes/s): the slowest phone
  // line sends that many times over, and survives a stall of most of a window (a cell change); a byte
  // every 5 s is closed within 25 s. Time the server itself keeps the body waiting does not count.
  bodyWindowMs: 20_000,
  bodyMinBytes: 4096,
  // Browsers reopen a connection in one round trip; an idle one costs a descriptor the cap counts.
  keepAliveTimeoutMs: 15_000,
  // Longer than the live stream's 25 s ping and than the slowest answer (a queued 40-megapixel upload).
  idleTimeoutMs: 120_000,
  // A browser opens at most 6 connections to a host (plus its live socket): 256 leaves room for about
  // 40 busy people behind one NAT, while one machine can no longer hold thousands.
  perAddress: 256,
  // A live socket signs in within a round trip of opening; 20 waiting at once is a crowd behind one NAT
  // opening the app in the same second (3,000 from one address in 0.7 s were accepted before).
  liveUnauthenticatedPerAddress: 20,
  checkIntervalMs: 2_000,
  // nginx's lingering close reads for up to 30 s, at most 5 s after the last byte. 5 s lets the answer
  // reach a client on the slowest line and be read; 8 MB drains a body several times the 1 MB limit (the
  // 5 MB post of issue 38) without a reset on any fast line.
  lingerMs: 5_000,
  lingerBytes: 8 * 1024 * 1024,
};

type ClientErrorHandler = (this: FastifyInstance, error: Error & { code?: string }, socket: Socket) => void;

/** The options of Fastify(...) that carry the limits Node's HTTP server enforces itself. */
export function serverOptions(limits: ConnectionLimits) {
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
    clientErrorHandler: answerClientError,
  };
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time: send it again on a new connection.'],
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
};

/** Answers what Node's parser refused (a timeout, bad HTTP) in the API's error shape, then closes. */
const answerClientError: ClientErrorHandler = function (error, socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'The request is not valid HTTP.'];
  this.log.debug({ err: error, address: socket.remoteAddress }, 'client error');
  refuse(socket, status, message);
};

/** The latest response of each socket: a refusal is written only where no answer is half sent. */
const responses = new WeakMap<Socket, ServerResponse>();

/** Sockets closing after an answer whose request's body is still being read and thrown away. */
const lingering = new WeakSet<Socket>();

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function refuse(socket: Socket, status: number, message: string): void {
  const response = responses.get(socket);
  const answered = lingering.has(socket); // what still arrives is the body of a request answered already
  if (socket.writable && !answered && (!response || !response.headersSent || response.writableEnded)) {
    const body = JSON.stringify({ errors: [message] });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * The answer is written but its request's body is still arriving (a 413 or another refusal of the body
 * parser, which closes the connection). Node would close the socket as soon as the answer is written, and
 * the bytes the client still sends would be answered with a reset: it saw EPIPE, and could lose the answer
 * still unread in its buffers (issue 38). As nginx's lingering close, the rest of the body is read and
 * thrown away (never buffered) until it ends, then the connection is closed; for at most lingerMs and
 * lingerBytes (the slow-body rule still applies), past which it is closed anyway. The FIN comes at the end,
 * not with the answer: a client that half-closes in return (Node's sockets do) would fail its next write.
 */
function discardRestOfBody(
  socket: Socket,
  request: IncomingMessage,
  response: ServerResponse,
  limits: ConnectionLimits,
): void {
  let left = limits.lingerBytes;
  // Read here, which also replaces Node's own discarding (that does not count), and from whatever the body
  // parser gave up reading (the pipe into a decompressor).
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0 && lingering.has(socket)) socket.destroy();
  });
  request.resume();
  // How Node closes a `Connection: close` answer once it is written. A kept-alive one is not closed: the
  // discarded body is followed by the next request, as before.
  const destroySoon = socket.destroySoon;
  socket.destroySoon = () => {
    lingering.add(socket);
    if (left < 0) return socket.destroy();
    const timer = setTimeout(() => socket.destroy(), limits.lingerMs);
    socket.once('close', () => clearTimeout(timer));
    // The whole body read: nothing is left unread to turn the close into a reset.
    const close = () => destroySoon.call(socket);
    if (request.readableEnded) close();
    else request.once('end', close);
  };
  // Node calls it (or not) on 'finish' before this listener runs.
  response.once('finish', () => (socket.destroySoon = destroySoon));
}

interface Receiving {
  request: IncomingMessage;
  /** socket.bytesRead when the current window began, and when that was. */
  bytes: number;
  since: number;
}

/**
 * What Node's server does not do itself: the connections of one address are capped, and a body must keep
 * arriving at a minimum rate (Node's timeouts are reset by every byte, or measure only the whole request).
 */
export function registerConnectionLimits(
  app: FastifyInstance,
  limits: ConnectionLimits,
  /** A trusted load balancer (TRUST_PROXY) carries many clients' connections: not capped per address. */
  isProxy: (address: string | undefined) => boolean = () => false,
): void {
  const server = app.server;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    if (isProxy(socket.remoteAddress)) return;
    const key = addressKey(socket.remoteAddress);
    const count = (open.get(key) ?? 0) + 1;
    if (count > limits.perAddress) {
      // Reset at once, as Node does past maxConnections: holding the socket to answer 429 is what the
      // cap must not allow, and an attacker does not read answers.
      app.log.debug({ address: socket.remoteAddress }, 'connection refused: too many from this address');
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = open.get(key)! - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });

  const receiving = new Map<Socket, Receiving>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    responses.set(socket, response);
    receiving.set(socket, { request, bytes: socket.bytesRead, since: Date.now() });
    response.once('prefinish', () => {
      if (!request.complete) discardRestOfBody(socket, request, response, limits);
    });
  });

  const timer = setInterval(
    () => {
      const now = Date.now();
      for (const [socket, entry] of receiving) {
        const { request } = entry;
        if (request.complete || socket.destroyed || receiving.get(socket) !== entry) {
          receiving.delete(socket);
          continue;
        }
        if (now - entry.since < limits.bodyWindowMs) continue;
        const progress = socket.bytesRead - entry.bytes;
        // Bytes received but not yet read by the handler: the wait is the server's, not the client's.
        if (progress >= limits.bodyMinBytes || request.readableLength > 0) {
          entry.bytes = socket.bytesRead;
          entry.since = now;
          continue;
        }
        receiving.delete(socket);
        app.log.info(
          { address: socket.remoteAddress, url: request.url, progress },
          'closed a body arriving too slowly',
        );
        refuse(
          socket,
          408,
          `The request body arrived too slowly (under ${limits.bodyMinBytes} bytes in ${limits.bodyWindowMs / 1000} s): send it again.`,
        );
      }
    },
    Math.max(10, Math.min(limits.checkIntervalMs, limits.bodyWindowMs / 4)),
  );
  timer.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(timer);
    done();
  });
}
