import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRowsAfterLock, statementTemplate, type Database } from './client.js';
import { createTestApp, type TestContext } from '../test/helpers.js';

// statementTemplate (issue 26): a hot write's statements built once, each use with its own values.
let ctx: TestContext;
let database: Database;
beforeAll(async () => {
  ctx = await createTestApp();
  database = ctx.database;
  await database.db.execute(sql`create table template_rows (id text primary key, n int not null)`);
  await database.db.execute(sql`insert into template_rows values ('a', 1), ('b', 2)`);
});
afterAll(() => ctx.close());

describe('statementTemplate', () => {
  const bump = statementTemplate((kind: 'up' | 'down', { id }: Record<'id', string>) => ({
    lock: sql`select from template_rows where id = ${id}::text for update`,
    statement: sql`update template_rows set n = n + ${kind === 'up' ? 1 : -1}::int where id = ${id}::text returning id, n`,
  }));

  it('runs each use with its own values, and each key with its own text', async () => {
    const run = ({ lock, statement }: ReturnType<typeof bump>) =>
      queryRowsAfterLock<{ id: string; n: number }>(database.db, lock, statement);
    expect(await run(bump('up', { id: 'a' }))).toEqual([{ id: 'a', n: 2 }]);
    expect(await run(bump('up', { id: 'b' }))).toEqual([{ id: 'b', n: 3 }]);
    expect(await run(bump('down', { id: 'a' }))).toEqual([{ id: 'a', n: 1 }]);
    expect(await run(bump('up', { id: 'nobody' }))).toEqual([]);
  });

  it('refuses a value that is not a parameter of its own', () => {
    const inText = statementTemplate((_: 'k', { id }: Record<'id', string>) => ({
      statement: sql`select ${sql.raw(`'${id.replaceAll("'", '')}'`)} as id`,
    }));
    expect(() => inText('k', { id: 'a' })).toThrow(/not a parameter of its own/);
    const inAnother = statementTemplate((_: 'k', { id }: Record<'id', string>) => ({
      statement: sql`select ${JSON.stringify([id])}::json as ids`,
    }));
    expect(() => inAnother('k', { id: 'a' })).toThrow(/not a parameter of its own/);
  });
});
