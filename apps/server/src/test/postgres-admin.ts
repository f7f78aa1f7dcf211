import pg from 'pg';

/** Runs one statement (create or drop a database) on the PostgreSQL server of `url`, on a connection of its own. */
export async function adminStatement(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
