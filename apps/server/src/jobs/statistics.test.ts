import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, eventually, type TestContext } from '../test/helpers.js';
import { STATISTICS_JOB } from './statistics.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** The planner's idea of a table's rows: -1 until its statistics were ever gathered. */
async function plannedRows(table: string): Promise<number> {
  const result = await ctx.database.db.execute<{ rows: number }>(
    sql`select reltuples::int as rows from pg_class where relname = ${table}`,
  );
  return Number((result as unknown as { rows: { rows: number }[] }).rows[0]!.rows);
}

describe('the planner statistics', () => {
  it('are gathered every hour on the embedded database, which has no autovacuum', async () => {
    await ctx.database.db.execute(sql`create table statistics_probe (id int primary key)`);
    await ctx.database.db.execute(sql`insert into statistics_probe select generate_series(1, 5000)`);
    if (ctx.database.kind !== 'pglite') {
      // PostgreSQL's autovacuum gathers them; the job is not defined there.
      await expect(ctx.app.jobs.send(STATISTICS_JOB.kind, {})).rejects.toThrow();
      return;
    }
    expect(await plannedRows('statistics_probe')).toBeLessThan(1);
    await ctx.app.jobs.send(STATISTICS_JOB.kind, {});
    await eventually(async () => expect(await plannedRows('statistics_probe')).toBe(5000), 20_000);
  });
});
