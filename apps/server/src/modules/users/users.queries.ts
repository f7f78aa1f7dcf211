import { sql } from 'drizzle-orm';
import { USER_LIST_CAP } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';

export interface SummaryRow {
  _id: string;
  username: string;
  firstName: string;
  lastName: string;
  photoUrl: string | null;
}

export interface UserRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  bio: string;
  link: string;
  photo_url: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  follower_count: number;
  following_count: number;
  post_count: number;
  bookmark_count: number;
  followers: SummaryRow[];
  following: SummaryRow[];
  bookmarks: string[];
}

const summaryJson = (alias: string) =>
  sql.raw(
    `json_build_object('_id', ${alias}.id, 'username', ${alias}.username, 'firstName', ${alias}.first_name, ` +
      `'lastName', ${alias}.last_name, 'photoUrl', ${alias}.photo_url)`,
  );

/** One round trip for a user with its newest followers, followings and bookmark ids (each capped). */
export async function selectUserWithLists(db: Db, userId: string): Promise<UserRow | undefined> {
  const rows = await queryRows<UserRow>(
    db,
    sql`
    select u.id, u.username, u.first_name, u.last_name, u.email, u.bio, u.link, u.photo_url,
           u.created_at, u.updated_at, u.follower_count, u.following_count, u.post_count, u.bookmark_count,
           coalesce((
             select json_agg(${summaryJson('s')} order by f.created_at desc)
             from (select follower_id, created_at from follows where followee_id = u.id
                   order by created_at desc limit ${USER_LIST_CAP}) f
             join users s on s.id = f.follower_id
           ), '[]'::json) as followers,
           coalesce((
             select json_agg(${summaryJson('s')} order by f.created_at desc)
             from (select followee_id, created_at from follows where follower_id = u.id
                   order by created_at desc limit ${USER_LIST_CAP}) f
             join users s on s.id = f.followee_id
           ), '[]'::json) as following,
           coalesce((
             select json_agg(b.post_id order by b.created_at desc)
             from (select post_id, created_at from bookmarks where user_id = u.id
                   order by created_at desc limit ${USER_LIST_CAP}) b
           ), '[]'::json) as bookmarks
    from users u
    where u.id = ${userId}
  `,
  );
  return rows[0];
}

export async function selectCredentialsByUsername(
  db: Db,
  username: string,
): Promise<{ id: string; username: string; password_hash: string } | undefined> {
  const rows = await queryRows<{ id: string; username: string; password_hash: string }>(
    db,
    sql`select id, username, password_hash from users where lower(username) = lower(${username})`,
  );
  return rows[0];
}
