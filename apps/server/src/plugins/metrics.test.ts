import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { createMetrics } from '../lib/metrics.js';
import { createTestApp, liveSocket, multipart, signUp, type SignedUp, type TestContext } from '../test/helpers.js';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const FIXTURES = path.join(import.meta.dirname, '..', 'modules', 'media', 'fixtures');

let ctx: TestContext;
let ana: SignedUp;
const lines: string[] = [];

beforeAll(async () => {
  ctx = await createTestApp({
    config: {
      metricsToken: TOKEN,
      rateLimits: true,
      logLevel: 'info',
      logStream: { write: (line) => lines.push(line) },
    },
  });
  ana = await signUp(ctx.app, { username: `metrics_${Date.now() % 1e6}` });
});
afterAll(() => ctx.close());

type Sample = { name: string; labels: Record<string, string>; value: number };

/**
 * Parses a scrape in Prometheus' text format (version 0.0.4): every line is a comment (# HELP, # TYPE) or
 * a sample `name{label="value",...} number` (prom-client writes NaN as `Nan`, which Prometheus reads); a line
 * that is neither fails the test.
 */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[Nn]a[Nn]|[+-]Inf)$/.exec(line);
    expect(match, `not a sample: ${line}`).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const [, key, value] of match![2]?.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g) ?? []) {
      labels[key!] = value!;
    }
    samples.push({ name: match![1]!, labels, value: Number(match![3]) });
  }
  return samples;
}

async function scrape(): Promise<Sample[]> {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/metrics' });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(response.body);
}

/** The value of the sample `name` whose labels include `labels` (0 when there is none). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, v]) => sample.labels[key] === v),
  );
  return found.reduce((sum, sample) => sum + sample.value, 0);
}

describe('GET /api/metrics', () => {
  it('answers Prometheus text with the process, request, pool, live and picture metrics', async () => {
    const samples = await scrape();
    const names = new Set(samples.map((sample) => sample.name));
    for (const name of [
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'sharearts_http_requests_total',
      'sharearts_http_request_duration_seconds_bucket',
      'sharearts_live_sockets',
      'sharearts_picture_processing_jobs',
      'sharearts_picture_processing_seconds_count',
    ]) {
      expect(names, name).toContain(name);
    }
    if (ctx.database.kind === 'postgres') {
      expect(value(samples, 'sharearts_db_pool_connections', { pool: 'primary' })).toBeGreaterThan(0);
      expect(value(samples, 'sharearts_db_query_duration_seconds_count', { pool: 'primary' })).toBeGreaterThan(0);
    }
  });

  it('counts requests by route pattern and status, never by their URL', async () => {
    const before = await scrape();
    const id = randomUUID();
    const unknown = `/api/no-such-route-${randomUUID()}`;
    for (let i = 0; i < 3; i += 1) {
      expect((await ctx.app.inject({ method: 'GET', url: `/api/posts/${id}` })).statusCode).toBe(404);
    }
    expect((await ctx.app.inject({ method: 'GET', url: unknown })).statusCode).toBe(404);
    const response = await ctx.app.inject({ method: 'GET', url: '/api/metrics' });
    const after = parse(response.body);
    const post = { method: 'GET', route: '/api/posts/:id', status: '404' };
    expect(
      value(after, 'sharearts_http_requests_total', post) - value(before, 'sharearts_http_requests_total', post),
    ).toBe(3);
    expect(
      value(after, 'sharearts_http_request_duration_seconds_count', post) -
        value(before, 'sharearts_http_request_duration_seconds_count', post),
    ).toBe(3);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(value(after, 'sharearts_http_requests_total', unmatched)).toBe(
      value(before, 'sharearts_http_requests_total', unmatched) + 1,
    );
    expect(response.body).not.toContain(id);
    expect(response.body).not.toContain(unknown);
  });

  it('counts each 429 under the limit that refused it', async () => {
    const from = { remoteAddress: '198.51.100.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: {
          fullname: 'Limit Test',
          email: 'limit@example.com',
          username: `limited_${i}_${Date.now() % 1e6}`,
          password: 'correct horse battery',
        },
        ...from,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    const samples = await scrape();
    expect(
      value(samples, 'sharearts_rate_limit_refusals_total', { limit: 'signupPerIp', route: '/api/auth/signup' }),
    ).toBe(1);
    expect(value(samples, 'sharearts_http_requests_total', { route: '/api/auth/signup', status: '429' })).toBe(1);
  });

  it('times picture processing, and counts live sockets open', async () => {
    const { payload, contentType } = multipart([
      {
        name: 'file',
        data: await readFile(path.join(FIXTURES, 'art.png')),
        filename: 'art.png',
        contentType: 'image/png',
      },
    ]);
    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/api/media',
      payload,
      headers: { 'content-type': contentType, authorization: ana.token },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const samples = await scrape();
    expect(value(samples, 'sharearts_picture_processing_seconds_count')).toBe(1);
    expect(value(samples, 'sharearts_picture_processing_seconds_sum')).toBeGreaterThan(0);
    expect(value(samples, 'sharearts_picture_processing_jobs', { state: 'queued' })).toBe(0);

    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const live = await liveSocket(ctx.app, ana.token);
    expect(value(await scrape(), 'sharearts_live_sockets')).toBe(1);
    live.socket.close();
    await live.closed;
    await expect.poll(async () => value(await scrape(), 'sharearts_live_sockets')).toBe(0);
  });

  it('answers only loopback or the token; anyone else gets the 404 of an unknown route', async () => {
    const remote = { remoteAddress: '203.0.113.5' };
    const notFound = await ctx.app.inject({ method: 'GET', url: `/api/no-such-route-${randomUUID()}`, ...remote });
    const asks = [
      { ...remote },
      { ...remote, headers: { authorization: 'Bearer wrong-token-of-the-same-kind-0123456' } },
      { ...remote, headers: { authorization: TOKEN } },
      // A proxy on this machine connects from loopback on behalf of a distant client.
      { headers: { 'x-forwarded-for': '203.0.113.5' } },
      { remoteAddress: '::1', headers: { forwarded: 'for=203.0.113.5' } },
    ];
    for (const ask of asks) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/metrics', ...ask });
      expect([response.statusCode, response.json()], JSON.stringify(ask)).toEqual([404, notFound.json()]);
    }
    const withToken = await ctx.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
      ...remote,
    });
    expect(withToken.statusCode).toBe(200);
    expect(parse(withToken.body).length).toBeGreaterThan(10);
    const ipv6Loopback = await ctx.app.inject({ method: 'GET', url: '/api/metrics', remoteAddress: '::1' });
    expect(ipv6Loopback.statusCode).toBe(200);
  });

  it('is not logged at info level, while other requests are', async () => {
    lines.length = 0;
    await scrape();
    await ctx.app.inject({ method: 'GET', url: '/api/metrics', remoteAddress: '203.0.113.5' });
    await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const urls = lines.map((line) => (JSON.parse(line) as { url?: string }).url);
    expect(urls).toContain('/api/health');
    expect(urls).not.toContain('/api/metrics');
  });
});

describe('METRICS_TOKEN', () => {
  it('is read when set; a short one, or one with spaces, is refused with what to fix', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    for (const bad of ['short', 'a token with spaces in it, long enough']) {
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(/^METRICS_TOKEN must be 24 to 256 printable characters/);
    }
  });
});

describe('several workers', () => {
  it("label every series with the worker's slot, so two workers' counters are two series", async () => {
    process.env.SHARE_ARTS_WORKER_SLOT = '2';
    try {
      const metrics = createMetrics();
      metrics.request('GET', '/api/posts', 200, 0.004);
      const text = await metrics.text();
      expect(text).toContain(
        'sharearts_http_requests_total{method="GET",route="/api/posts",status="200",worker="2"} 1',
      );
      expect(text).toMatch(/^sharearts_live_sockets\{worker="2"\} 0$/m);
    } finally {
      delete process.env.SHARE_ARTS_WORKER_SLOT;
    }
  });
});
