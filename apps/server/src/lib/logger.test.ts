import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prettyFactory } from 'pino-pretty';
import { createTestApp, type TestContext } from '../test/helpers.js';
import { PRETTY_OPTIONS } from './logger.js';

const lines: string[] = [];
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    config: { logLevel: 'info', logStream: { write: (line) => void lines.push(line) } },
    beforeReady: (app) => {
      app.get('/api/test-log-boom', () => {
        throw new Error('boom');
      });
    },
  });
});
afterAll(() => ctx.close());

/** The JSON lines logged while `send` ran. */
async function logOf(send: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const from = lines.length;
  await send();
  return lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('request log', () => {
  it('is one JSON line per request with its method, URL, status and time', async () => {
    const logged = await logOf(() => ctx.app.inject({ method: 'GET', url: '/api/health?probe=1' }));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'GET',
      url: '/api/health?probe=1',
      statusCode: 200,
      reqId: expect.any(String),
    });
    expect(logged[0]!.responseTime).toEqual(expect.any(Number));
    expect(logged[0]!.responseTime).toBeGreaterThanOrEqual(0);
    // Not the whole request and reply objects, as Fastify's own lines had.
    expect(logged[0]).not.toHaveProperty('req');
    expect(logged[0]).not.toHaveProperty('res');
  });

  it('is one line for a 404 and for a refused body too', async () => {
    const missing = await logOf(() => ctx.app.inject({ method: 'GET', url: '/api/no-such-route' }));
    expect(missing.map((l) => [l.method, l.url, l.statusCode])).toEqual([['GET', '/api/no-such-route', 404]]);
    const refused = await logOf(() =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'x' } }),
    );
    expect(refused.map((l) => [l.method, l.url, l.statusCode])).toEqual([['POST', '/api/auth/login', 400]]);
  });

  it('keeps the error of a failed request beside its one request line', async () => {
    const logged = await logOf(() => ctx.app.inject({ method: 'GET', url: '/api/test-log-boom' }));
    const requestLines = logged.filter((l) => l.url === '/api/test-log-boom');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({ method: 'GET', statusCode: 500 });
    expect(logged.some((l) => l.level === 50)).toBe(true);
  });
});

describe('readable lines on a terminal', () => {
  const format = prettyFactory({ ...PRETTY_OPTIONS, colorize: false });

  it('print a request as one line: time, level, method, URL, status and time taken', () => {
    const text = format(
      JSON.stringify({
        level: 30,
        time: Date.UTC(2026, 0, 1, 12, 0, 0),
        pid: 1,
        hostname: 'h',
        reqId: 'abc',
        method: 'GET',
        url: '/api/posts?sort=trending',
        statusCode: 200,
        responseTime: 3.14,
        msg: 'request completed',
      }),
    );
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/posts\?sort=trending 200 3\.14 ms\n$/);
  });

  it('print other lines with their message and their fields', () => {
    const text = format(JSON.stringify({ level: 30, time: 0, pid: 1, msg: 'shutting down', signal: 'SIGINT' }));
    expect(text).toContain('INFO: shutting down');
    expect(text).toContain('signal: "SIGINT"');
  });
});
