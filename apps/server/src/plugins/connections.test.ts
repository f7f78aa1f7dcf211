import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers.js';
import type { ConnectionLimits } from './connections.js';

// The production figures scaled down so each case takes well under a second.
const LIMITS: ConnectionLimits = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 10_000,
  bodyWindowMs: 300,
  bodyMinBytes: 64,
  keepAliveTimeoutMs: 300,
  idleTimeoutMs: 10_000,
  perAddress: 3,
  liveUnauthenticatedPerAddress: 2,
  checkIntervalMs: 50,
};

let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await createTestApp({ config: { connections: LIMITS } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});
afterAll(() => ctx.close());

/** A raw TCP client from a chosen loopback address: what it received, and when the server closed it. */
async function connect(localAddress: string) {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  return {
    socket,
    closed,
    received: () => received,
    /** Resolves with what arrived once it holds a whole answer (headers and a body of Content-Length). */
    async answer(): Promise<string> {
      for (;;) {
        const length = /content-length: (\d+)/i.exec(received);
        const head = received.indexOf('\r\n\r\n');
        if (length && head >= 0 && received.length >= head + 4 + Number(length[1])) return received;
        if (socket.destroyed) return received;
        await new Promise((resolve) => socket.once('data', resolve).once('close', resolve));
      }
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const health = 'GET /api/health HTTP/1.1\r\nHost: test\r\n\r\n';
const loginHead = (length: number) =>
  `POST /api/auth/login HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
const errorsOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).errors as string[];

describe('connection limits', () => {
  it('closes a body that trickles in, with a 408 that says why', async () => {
    const client = await connect('127.0.0.11');
    client.socket.write(loginHead(1000));
    const trickle = setInterval(() => client.socket.write(' '), 50);
    await client.closed;
    clearInterval(trickle);
    expect(statusOf(client.received())).toBe(408);
    expect(errorsOf(client.received())).toEqual([expect.stringContaining('arrived too slowly')]);
  });

  it('lets a slow but steady body through, however long it takes', async () => {
    const body = Buffer.from(JSON.stringify({ username: 'nobody', password: 'not the password' }).padEnd(1500, ' '));
    const client = await connect('127.0.0.12');
    client.socket.write(loginHead(body.length));
    // 50 bytes every 20 ms: 2,500 bytes/s, over about twice the window.
    for (let at = 0; at < body.length; at += 50) {
      client.socket.write(body.subarray(at, at + 50));
      await sleep(20);
    }
    const answer = await client.answer();
    const sentAtOnce = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: body.toString(),
      headers: { 'content-type': 'application/json' },
    });
    expect(statusOf(answer)).toBe(sentAtOnce.statusCode);
    expect(sentAtOnce.statusCode).not.toBe(408);
    client.socket.destroy();
  });

  it('closes a connection that never finishes its headers, and one that sends nothing', async () => {
    const slow = await connect('127.0.0.13');
    slow.socket.write('GET /api/health HTTP/1.1\r\n');
    const trickle = setInterval(() => slow.socket.write('X'), 50);
    const silent = await connect('127.0.0.13');
    await Promise.all([slow.closed, silent.closed]);
    clearInterval(trickle);
    expect(statusOf(slow.received())).toBe(408);
    expect(errorsOf(slow.received())).toEqual([expect.stringContaining('did not arrive in time')]);
  });

  it('closes a kept-alive connection left idle', async () => {
    const client = await connect('127.0.0.14');
    client.socket.write(health);
    expect(statusOf(await client.answer())).toBe(200);
    await client.closed;
  });

  it(`refuses connection ${LIMITS.perAddress + 1} from one address while the others and other addresses are served`, async () => {
    const mine = [];
    for (let i = 0; i < LIMITS.perAddress; i++) {
      const client = await connect('127.0.0.15');
      client.socket.write(health);
      expect(statusOf(await client.answer())).toBe(200);
      mine.push(client);
    }
    const extra = await connect('127.0.0.15');
    extra.socket.write(health);
    await extra.closed;
    expect(extra.received()).toBe('');

    const other = await connect('127.0.0.16');
    other.socket.write(health);
    expect(statusOf(await other.answer())).toBe(200);
    other.socket.destroy();

    // The ones already open still work, and a place freed is a place taken.
    const [first] = mine;
    first!.socket.destroy();
    await first!.closed;
    // The server learns of the close a moment after the client: until then a new one is still refused.
    let next = await connect('127.0.0.15');
    for (let attempt = 0; attempt < 50; attempt++) {
      next.socket.write(health);
      if (statusOf(await next.answer()) === 200) break;
      next = await connect('127.0.0.15');
    }
    expect(statusOf(next.received())).toBe(200);
    for (const client of [...mine, next]) client.socket.destroy();
  });
});
