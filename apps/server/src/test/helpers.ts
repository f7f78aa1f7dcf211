import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import WebSocket from 'ws';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { LiveServerFrame } from '@share-arts/contract';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openPglite, openPostgres, type Database, type Db } from '../db/client.js';
import * as schema from '../db/schema.js';
import { migrate } from '../db/migrate.js';
import { seedSampleData } from '../seed/seed.js';
import { createMediaStorage, type MediaStorage } from '../modules/media/index.js';
import { startS3Server, type TestS3Server } from './s3.js';
import { adminStatement } from './postgres-admin.js';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** The app's picture storage (the media folder, or the bucket with MEDIA_STORE=s3), for reading what it holds. */
  storage: MediaStorage;
  /** With MEDIA_STORE=s3: the S3 server the test started (stop it to see the storage fail). */
  s3?: TestS3Server;
  close(): Promise<void>;
}

/** The names of the media files in the app's storage (the folder or the bucket), sorted. */
export async function storedFiles(ctx: Pick<TestContext, 'storage'>): Promise<string[]> {
  const names: string[] = [];
  for await (const batch of ctx.storage.list()) names.push(...batch.map((file) => file.name));
  return names.sort();
}

/** A stored media file's bytes, or undefined when there is none by that name. */
export async function readStored(ctx: Pick<TestContext, 'storage'>, name: string): Promise<Buffer | undefined> {
  const found = await ctx.storage.read(name);
  if (found.status !== 'ok') return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of found.file.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// What test/global-setup.ts provides to the test files.
declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: the file holding the template's dumped data folder. */
    pgliteTemplate: string;
    /** PostgreSQL (DATABASE_URL): the template database's name. */
    postgresTemplate: string;
  }
}

/** The template's dumped data folder (PGlite), read once per test worker. */
let pgliteTemplate: Promise<Blob | undefined> | undefined;

/** The template's dumped data folder (PGlite); undefined outside vitest or on PostgreSQL. */
function pgliteTemplateDump(): Promise<Blob | undefined> {
  pgliteTemplate ??= template('pgliteTemplate').then(async (file) =>
    file ? new Blob([await readFile(file)]) : undefined,
  );
  return pgliteTemplate;
}

/** The run's template (test/global-setup.ts); none outside vitest (the benchmarks migrate a new database). */
async function template(key: 'pgliteTemplate' | 'postgresTemplate'): Promise<string> {
  if (!process.env.VITEST) return '';
  const { inject } = await import('vitest');
  return inject(key);
}

/**
 * A fresh, migrated database for one test app, a copy of the run's template (test/global-setup.ts): PGlite in
 * memory by default; with DATABASE_URL, a new database on that PostgreSQL server, dropped afterwards.
 */
async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const loadDataDir = await pgliteTemplateDump();
    const database = await openPglite(undefined, loadDataDir ? { loadDataDir } : {});
    return { database, drop: async () => {} };
  }
  const name = `sharearts_test_${randomBytes(6).toString('hex')}`;
  const from = await template('postgresTemplate');
  await adminStatement(url, `create database ${name}${from ? ` template ${from}` : ''}`);
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const database = await openPostgres(testUrl.toString());
  return {
    database,
    drop: () => adminStatement(url, `drop database if exists ${name} with (force)`),
  };
}

/**
 * A migrated PGlite database kept in the folder `dir`, as a server keeps it under DATA_DIR (for a test that hands
 * the folder to a server process or a command), a copy of the run's template: making one from nothing (initdb,
 * then every migration) took 40 s on a loaded host, the copy 7 s.
 */
export async function openMigratedPglite(dir: string): Promise<Database> {
  const loadDataDir = await pgliteTemplateDump();
  const database = await openPglite(dir, loadDataDir ? { loadDataDir } : {});
  await migrate(database);
  return database;
}

export async function createTestApp(
  options: { seed?: boolean; config?: Partial<Config>; beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<TestContext> {
  const { database, drop } = await openTestDatabase();
  await migrate(database);
  const mediaDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-media-'));
  // MEDIA_STORE=s3 runs the suite with the pictures in a bucket of a real S3-protocol server (issue 25).
  const s3 = process.env.MEDIA_STORE === 's3' && !options.config?.mediaStore ? await startS3Server() : undefined;
  const mediaStore = s3 ? await s3.bucket() : undefined;
  const config: Config = {
    ...loadConfig({}),
    jwtSecret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    mediaDir,
    logLevel: 'silent',
    // Low scrypt cost keeps the suite fast; production uses 2^15.
    passwordHashCost: 1024,
    // Tests sign up many users from one address; the limits have their own tests.
    rateLimits: false,
    // Every answer a test receives matches its documented schema.
    checkResponses: true,
    ...(mediaStore ? { mediaStore } : {}),
    ...options.config,
  };
  if (options.seed) {
    await seedSampleData(database.db, {
      mediaDir,
      mediaStore: config.mediaStore,
      passwordHashCost: config.passwordHashCost,
    });
  }
  const app = await buildApp(config, database);
  options.beforeReady?.(app);
  await app.ready();
  // The background jobs start beside the app (issue 37); tests begin once they work (slow on a loaded host).
  await app.jobs.whenStarted(50_000);
  return {
    app,
    database,
    config,
    storage: createMediaStorage({ store: config.mediaStore, mediaDir: config.mediaDir }, quietLog),
    ...(s3 ? { s3 } : {}),
    async close() {
      await app.close();
      await database.close();
      await drop();
      await s3?.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

/**
 * The test app and `other`, a second instance on the same database: two processes behind a load balancer, each with
 * its own memory and event listener (for what one process must learn from another's writes). Closes both.
 */
export async function createTwoProcesses(): Promise<TestContext & { other: FastifyInstance }> {
  const ctx = await createTestApp();
  const other = await buildApp(ctx.config, ctx.database);
  await other.ready();
  return {
    ...ctx,
    other,
    async close() {
      await other.close();
      await ctx.close();
    },
  };
}

const quietLog = { info: () => {}, warn: () => {}, error: () => {} };

let counter = 0;
/** A unique, valid username for this test run. */
export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  return `${prefix}_${process.pid}_${counter}_${randomBytes(2).toString('hex')}`.slice(0, 30);
}

export interface SignedUp {
  token: string;
  user: { _id: string; username: string };
  password: string;
}

export async function signUp(app: FastifyInstance, overrides: Record<string, unknown> = {}): Promise<SignedUp> {
  const password = 'correct horse battery';
  const body = {
    fullname: 'Ana Maria Rivera',
    email: 'ana@example.com',
    username: uniqueUsername(),
    password,
    ...overrides,
  };
  const response = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: body });
  if (response.statusCode !== 201) throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  const json = response.json();
  return { token: json.encodedToken, user: json.createdUser, password: String(body.password) };
}

/** The first error message of an error response. */
export const errorOf = (response: LightMyRequestResponse): string => response.json().errors[0];

/**
 * Follows nextCursor from the first page to the last; `url` builds a page's URL from the cursor
 * (null for the first page). Answers each page's `key` list, in order.
 */
export async function walkPages<T = { _id: string }>(
  app: FastifyInstance,
  url: (cursor: string | null) => string,
  key: string,
  headers: Record<string, string> = {},
): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  do {
    const response: LightMyRequestResponse = await app.inject({ method: 'GET', url: url(cursor), headers });
    if (response.statusCode !== 200) throw new Error(`${url(cursor)}: ${response.statusCode} ${response.body}`);
    const body = response.json() as Record<string, unknown> & { nextCursor: string | null };
    pages.push(body[key] as T[]);
    cursor = body.nextCursor;
    if (pages.length > 1000) throw new Error('too many pages');
  } while (cursor);
  return pages;
}

export interface MultipartPart {
  name: string;
  data: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body, as a browser's FormData would send it. */
export function multipart(parts: MultipartPart[]) {
  const boundary = `----share-arts-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A live socket of `app` (listening) signed in with `token`: resolves once it is ready, rejects with the
 * server's error frame. `closed` settles with the close code and reason.
 */
export async function liveSocket(app: FastifyInstance, token: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/live`);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  socket.on('error', () => {});
  /** Every frame the server sent, in order. */
  const frames: LiveServerFrame[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as LiveServerFrame;
      frames.push(frame);
      if (frame.type === 'ready') resolve();
      else if (frame.type === 'error') reject(new Error(String(data)));
    });
  });
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'hello', token }));
  await ready;
  return { socket, closed, frames, isOpen: () => socket.readyState === WebSocket.OPEN };
}

/**
 * A PostgreSQL database nothing answers for (port 1): every query fails to connect after
 * `connectTimeoutMs`, as when the database server is down.
 */
export function unreachableDatabase(connectTimeoutMs: number): Database {
  const pool = new pg.Pool({
    connectionString: 'postgres://postgres@127.0.0.1:1/none',
    connectionTimeoutMillis: connectTimeoutMs,
  });
  pool.on('error', () => {});
  return {
    db: drizzle(pool, { schema }) as unknown as Db,
    kind: 'postgres',
    listen: async () => async () => {},
    close: () => pool.end(),
  };
}

/**
 * Uploads a flat JPEG of `width` × `height` as a post picture with `alt`; answers the media's JSON (201, or
 * the test fails with the answer's body).
 */
export async function uploadPicture(
  app: FastifyInstance,
  who: SignedUp,
  alt: string,
  { width = 1600, height = 1200, background = { r: 200, g: 90, b: 40 } } = {},
): Promise<{ _id: string; url: string; sources: { type: string; srcset: string }[] }> {
  const data = await sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();
  const { payload, contentType } = multipart([
    { name: 'purpose', data: 'post' },
    { name: 'alt', data: alt },
    { name: 'file', data, filename: 'work.jpg', contentType: 'image/jpeg' },
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/media',
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${who.token}` },
  });
  if (response.statusCode !== 201) throw new Error(`upload answered ${response.statusCode}: ${response.body}`);
  return response.json().media;
}

/** Creates a post of `who` (with the uploaded `mediaIds`, if any); answers its id, or throws with the answer. */
export async function createPost(
  app: FastifyInstance,
  who: SignedUp,
  content: string,
  mediaIds: string[] = [],
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: mediaIds.length > 0 ? { content, mediaIds } : { content },
    headers: { authorization: `Bearer ${who.token}`, prefer: 'return=minimal' },
  });
  if (response.statusCode !== 201) throw new Error(`POST /api/posts answered ${response.statusCode}: ${response.body}`);
  return response.json().post._id;
}

/**
 * Retries `check` until it passes (for at most `timeoutMs`, a second by default): for what another process learns through the event
 * bus, at once on PGlite and soon after the writer's commit on PostgreSQL.
 */
export async function eventually(check: () => Promise<void>, timeoutMs = 1000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
