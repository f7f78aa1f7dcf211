import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';

export interface FeedAuthorRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  bio: string;
  created_at: string;
}

/** The artist a feed is of, by username in any letter case; undefined when there is none. */
export async function selectFeedAuthor(db: Db, username: string): Promise<FeedAuthorRow | undefined> {
  const [row] = await queryRows<FeedAuthorRow>(
    db,
    sql`select id, username, first_name, last_name, bio, created_at from users where lower(username) = lower(${username})`,
  );
  return row;
}
