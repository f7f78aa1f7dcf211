// Once per test run, before any test file: one migrated database, with the job queue's schema, that every
// test app starts as a copy of (createTestApp). Opening an empty PGlite and migrating it cost each app about
// 3.3 s; loading the dumped copy costs 1.0 s. On PostgreSQL each test database is created from a template.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres, type Database } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { createJobQueue } from '../jobs/queue.js';
import { adminStatement } from './postgres-admin.js';

/** Migrates the database and installs the job queue's schema (what an app does on its first start). */
async function prepare(database: Database): Promise<void> {
  await migrate(database);
  const jobs = createJobQueue(database);
  jobs.start();
  await jobs.whenStarted(120_000);
  await jobs.stop(1);
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openPglite(undefined);
    await prepare(database);
    const dump = await database.pglite!.dumpDataDir('none');
    await database.close();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-template-'));
    const file = path.join(dir, 'template.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
    project.provide('postgresTemplate', '');
    return () => rm(dir, { recursive: true, force: true });
  }
  const name = `sharearts_template_${randomBytes(6).toString('hex')}`;
  await adminStatement(url, `create database ${name}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  // Every connection to it is closed before a copy is made (PostgreSQL refuses a template in use).
  const database = await openPostgres(templateUrl.toString());
  await prepare(database);
  await database.close();
  project.provide('pgliteTemplate', '');
  project.provide('postgresTemplate', name);
  return () => adminStatement(url, `drop database if exists ${name} with (force)`);
}
