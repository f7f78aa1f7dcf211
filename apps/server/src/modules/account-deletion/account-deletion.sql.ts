import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { isoDate } from '../../lib/sql-json.js';

/** What confirming a deletion needs of the account: its name (held back afterwards) and password hash. */
export async function selectAccountCredentials(
  db: Db,
  userId: string,
): Promise<{ username: string; password_hash: string } | undefined> {
  const [row] = await queryRows<{ username: string; password_hash: string }>(
    db,
    sql`select username, password_hash from users where id = ${userId}::uuid`,
  );
  return row;
}

/**
 * Holds the name back from sign-ups for `days` days (the trigger of migration 0021 refuses it) and drops
 * the holds that ended, in the deleting transaction; answers until when.
 */
export async function holdUsername(tx: Db, username: string, days: number): Promise<string> {
  await tx.execute(sql`delete from held_usernames where until <= now()`);
  const [row] = await queryRows<{ until: string }>(
    tx,
    sql`insert into held_usernames (username, until)
        values (lower(${username}), now() + make_interval(days => ${days}::int))
        on conflict (username) do update set until = excluded.until
        returning ${isoDate('until')} as until`,
  );
  return row!.until;
}
