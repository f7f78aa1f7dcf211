import { sql } from 'drizzle-orm';
import type { JobQueue } from './queue.js';
import type { Database } from '../db/client.js';

/** The embedded database's hourly ANALYZE: a job of the cluster's queue (one run an hour whatever the processes). */
export const STATISTICS_JOB = { kind: 'db.analyze', every: '23 * * * *' } as const;

/** Gathers the planner's statistics of every table (what PostgreSQL's autovacuum does by itself). */
export async function analyze(database: Database): Promise<void> {
  await database.db.execute(sql`analyze`);
}

/**
 * PGlite has no autovacuum, so nothing gathers the planner's statistics there: a table that grew since the database
 * was made still looks as small as it was, and the planner reads it whole (a series of 10,000 works sorted every
 * remaining work for each page, 58 ms a page, until an ANALYZE made it an index scan under 1 ms). The embedded
 * database analyzes itself every hour; PostgreSQL's autovacuum does it there.
 */
export function keepStatistics(database: Database, jobs: JobQueue): void {
  if (database.kind !== 'pglite') return;
  jobs.define(STATISTICS_JOB.kind, () => analyze(database), {
    every: STATISTICS_JOB.every,
    retryLimit: 1,
    expireInSeconds: 600,
    batchSize: 1,
  });
}
