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

/**
 * The artist a feed is of, by username in any letter case; undefined when there is none, or it is a remote person's
 * shadow account (issue 39: their feed, if any, is their own server's).
 */
export async function selectFeedAuthor(db: Db, username: string): Promise<FeedAuthorRow | undefined> {
  const [row] = await queryRows<FeedAuthorRow>(
    db,
    sql`select id, username, first_name, last_name, bio, created_at from users
        where lower(username) = lower(${username}) and remote_actor_id is null`,
  );
  return row;
}
