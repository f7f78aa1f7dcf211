import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openPglite, openPostgres, type Database } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { seedSampleData } from '../db/seed.js';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: PGlite in memory by default; with DATABASE_URL, a new
 * database on that PostgreSQL server, dropped afterwards.
 */
async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openPglite(undefined);
    return { database, drop: async () => {} };
  }
  const name = `sharearts_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const database = await openPostgres(testUrl.toString());
  return {
    database,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export async function createTestApp(
  options: { seed?: boolean; config?: Partial<Config>; beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<TestContext> {
  const { database, drop } = await openTestDatabase();
  await migrate(database);
  const mediaDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-media-'));
  const config: Config = {
    ...loadConfig({}),
    jwtSecret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    mediaDir,
    logLevel: 'silent',
    // Low scrypt cost keeps the suite fast; production uses 2^15.
    passwordHashCost: 1024,
    ...options.config,
  };
  if (options.seed) await seedSampleData(database.db, { mediaDir, passwordHashCost: config.passwordHashCost });
  const app = await buildApp(config, database);
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await drop();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

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
