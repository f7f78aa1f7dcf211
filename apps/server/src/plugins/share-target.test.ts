import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers.js';
import { sharedWords } from './share-target.js';

/** A multipart body as a browser's share target sends it. */
function multipartBody(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]) {
  const boundary = '----share-arts-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

let ctx: TestContext;
let webDistDir: string;

beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-pwa-'));
  await writeFile(
    path.join(webDistDir, 'index.html'),
    '<!doctype html><html><head><meta charset="UTF-8" /><link rel="manifest" href="/manifest.webmanifest"></head><body><div id="root"></div></body></html>',
  );
  await writeFile(
    path.join(webDistDir, 'manifest.webmanifest'),
    JSON.stringify({ name: 'Share Arts', start_url: '/' }),
  );
  await writeFile(path.join(webDistDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  ctx = await createTestApp({ config: { webDistDir } });
});

afterAll(async () => {
  await ctx?.close();
  await rm(webDistDir, { recursive: true, force: true });
});

describe('the installable app’s files (issue 44)', () => {
  it('serves the manifest as application/manifest+json', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.json()).toMatchObject({ name: 'Share Arts' });
  });

  it('serves the service worker as JavaScript that every visit checks again', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/sw.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['service-worker-allowed']).toBe('/');
  });
});

describe('POST /share-target without the service worker', () => {
  it('sends the shared words to the composer, and says how many pictures it could not keep', async () => {
    const { payload, contentType } = multipartBody([
      { name: 'title', value: 'Morning study' },
      { name: 'text', value: 'Ink on paper' },
      { name: 'url', value: 'https://example.com/work' },
      { name: 'files', value: Buffer.from([0xff, 0xd8, 0xff]), filename: 'a.jpg', type: 'image/jpeg' },
      { name: 'files', value: Buffer.from([0x89, 0x50]), filename: 'b.png', type: 'image/png' },
    ]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/share-target',
      payload,
      headers: { 'content-type': contentType },
    });
    expect(response.statusCode).toBe(303);
    const location = new URL(response.headers.location!, 'http://localhost');
    expect(location.pathname).toBe('/');
    expect(location.searchParams.get('compose')).toBe('1');
    expect(location.searchParams.get('text')).toBe('Morning study\nInk on paper\nhttps://example.com/work');
    expect(location.searchParams.get('dropped')).toBe('2');
  });

  it('opens the composer empty for a body that is not multipart, never an error', async () => {
    for (const [contentType, body] of [
      ['application/x-www-form-urlencoded', 'text=hello'],
      ['application/json', '{"text":'],
      ['text/plain', ''],
    ] as const) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/share-target',
        payload: body,
        headers: { 'content-type': contentType },
      });
      expect(response.statusCode, contentType).toBe(303);
      expect(response.headers.location).toBe('/?compose=1');
    }
  });

  it('keeps each shared part once (apps often put the link in the text too)', () => {
    expect(sharedWords({ title: '', text: 'Look https://x.test/a', url: 'https://x.test/a' })).toBe(
      'Look https://x.test/a',
    );
    expect(sharedWords({})).toBe('');
  });
});
