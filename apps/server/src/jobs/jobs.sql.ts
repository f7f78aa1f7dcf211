import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';

export interface JobCounts {
  kind: string;
  queued: number;
  running: number;
  failed: number;
  /** How long the oldest job ready to run has waited, in seconds (0 when none waits). */
  oldestWaitingSeconds: number;
}

export interface FailedJob {
  id: string;
  kind: string;
  /** Tries made. */
  attempts: number;
  failedAt: string;
  createdAt: string;
  /** The last error's message. */
  error: string;
}

/** Whether the job already had this effect. */
export async function selectEffect(db: Db, jobId: string, effect: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from job_effects where job_id = ${jobId} and effect = ${effect}`);
  return rows.length > 0;
}

export async function insertEffect(db: Db, jobId: string, effect: string): Promise<void> {
  await db.execute(sql`insert into job_effects (job_id, effect) values (${jobId}, ${effect}) on conflict do nothing`);
}

export async function deleteEffectsBefore(db: Db, before: Date): Promise<void> {
  await db.execute(sql`delete from job_effects where done_at < ${before.toISOString()}::timestamptz`);
}

/**
 * Counts by kind: waiting (created or retry), running (active), failed (out of tries, still kept), and how
 * long the oldest job ready to run has waited. pg-boss's internal queues (`__pgboss__…`) are left out.
 */
export async function selectJobCounts(db: Db, schema: string): Promise<JobCounts[]> {
  const rows = await queryRows<{
    kind: string;
    queued: string;
    running: string;
    failed: string;
    oldest: string | null;
  }>(
    db,
    sql`select q.name as kind,
          count(j.id) filter (where j.state in ('created', 'retry')) as queued,
          count(j.id) filter (where j.state = 'active') as running,
          count(j.id) filter (where j.state = 'failed') as failed,
          extract(epoch from now() - min(j.created_on) filter (
            where j.state in ('created', 'retry') and j.start_after <= now())) as oldest
        from ${sql.identifier(schema)}.queue q
        left join ${sql.identifier(schema)}.job j on j.name = q.name
          and j.state in ('created', 'retry', 'active', 'failed')
        where q.name not like '\\_\\_pgboss%'
        group by q.name
        order by q.name`,
  );
  return rows.map((row) => ({
    kind: row.kind,
    queued: Number(row.queued),
    running: Number(row.running),
    failed: Number(row.failed),
    oldestWaitingSeconds: row.oldest === null ? 0 : Math.max(0, Number(row.oldest)),
  }));
}

/** The newest failed jobs (or the one with `id`). */
export async function selectFailedJobs(db: Db, schema: string, limit: number, id?: string): Promise<FailedJob[]> {
  const rows = await queryRows<{
    id: string;
    kind: string;
    attempts: number;
    failed_at: string;
    created_at: string;
    error: string | null;
  }>(
    db,
    sql`select id::text, name as kind, retry_count + 1 as attempts, completed_on as failed_at,
          created_on as created_at, coalesce(output ->> 'message', output::text) as error
        from ${sql.identifier(schema)}.job
        where state = 'failed' ${id ? sql`and id = ${id}::uuid` : sql``}
        order by completed_on desc nulls last
        limit ${limit}`,
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    attempts: Number(row.attempts),
    failedAt: new Date(row.failed_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    error: (row.error ?? '').slice(0, 1000),
  }));
}
