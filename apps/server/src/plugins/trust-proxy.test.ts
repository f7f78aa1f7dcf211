import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../lib/rate-limiter.js';
import { proxyMatcher } from '../lib/client-address.js';
import { ConfigError, loadConfig } from '../config.js';
import { createTestApp, uniqueUsername, type TestContext } from '../test/helpers.js';
import { CONNECTION_LIMITS } from './connections.js';

// TRUST_PROXY (issue 25): behind an HTTP load balancer every request comes from the balancer's address.
// Trusted, its X-Forwarded-For names the client; anyone else's is ignored.
const BALANCER = '127.0.0.31';

describe('TRUST_PROXY', () => {
  it('takes addresses, CIDR ranges and the named ranges, and refuses anything else saying what it takes', () => {
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16 ,fd00::/8,uniquelocal' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      'uniquelocal',
    ]);
    expect(loadConfig({}).trustProxy).toBeUndefined();
    for (const bad of ['true', '10.0.0.0/33', 'lb.internal', '10.0.0.1/8/2', 'fd00::/129']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1, *' })).toThrow(/"\*" is none of them/);
  });

  it('matches addresses in its ranges, IPv4 mapped into IPv6 as IPv4', () => {
    const trusted = proxyMatcher(['10.1.0.0/16', '192.0.2.7', 'loopback', 'fd00::/8']);
    for (const address of ['10.1.200.3', '192.0.2.7', '::ffff:10.1.0.9', '127.0.0.1', '::1', 'fd12::1']) {
      expect(trusted(address), address).toBe(true);
    }
    for (const address of ['10.2.0.1', '192.0.2.8', 'fe80::1', 'not an address', undefined]) {
      expect(trusted(address), String(address)).toBe(false);
    }
  });
});

describe('behind a trusted load balancer', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestApp({
      config: {
        rateLimits: true,
        trustProxy: [BALANCER],
        connections: { ...CONNECTION_LIMITS, perAddress: 3 },
      },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => ctx.close());

  const signup = (remoteAddress: string, forwardedFor?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      payload: {
        fullname: 'Behind A Balancer',
        email: 'b@example.com',
        username: uniqueUsername('lb'),
        password: 'long-enough-1',
      },
    });

  it("counts each client the balancer forwards under the client's own address", async () => {
    const max = RATE_LIMITS.signupPerIp.max;
    // Many clients through one balancer: none is refused for the others' sign-ups.
    for (let i = 0; i < max + 2; i += 1) {
      expect((await signup(BALANCER, `198.51.100.${i + 1}`)).statusCode).toBe(201);
    }
    // One client through it is limited as if it came directly (the leftmost untrusted hop counts).
    const statuses: number[] = [];
    for (let i = 0; i <= max; i += 1) statuses.push((await signup(BALANCER, `6.6.6.6, ${BALANCER}`)).statusCode);
    expect(statuses.slice(0, -1).every((status) => status === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('ignores X-Forwarded-For from anyone else', async () => {
    const max = RATE_LIMITS.signupPerIp.max;
    const statuses: number[] = [];
    // A client that claims a new address on each request is still counted under its own.
    for (let i = 0; i <= max; i += 1) statuses.push((await signup('203.0.113.9', `198.18.0.${i + 1}`)).statusCode);
    expect(statuses.at(-1)).toBe(429);
  });

  it("does not cap the balancer's connections per address, while others' stay capped", async () => {
    const open = async (localAddress: string) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress });
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write('GET /api/health HTTP/1.1\r\nHost: test\r\n\r\n');
      await Promise.race([
        closed,
        new Promise<void>((resolve) => {
          const check = () => (received.includes('\r\n\r\n') ? resolve() : socket.once('data', check));
          check();
        }),
      ]);
      return { socket, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0) };
    };
    const balancer = [];
    for (let i = 0; i < 6; i += 1) balancer.push(await open(BALANCER));
    expect(balancer.map((connection) => connection.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const other = [];
    for (let i = 0; i < 4; i += 1) other.push(await open('127.0.0.32'));
    expect(other.map((connection) => connection.status)).toEqual([200, 200, 200, 0]);
    for (const connection of [...balancer, ...other]) connection.socket.destroy();
  });
});
