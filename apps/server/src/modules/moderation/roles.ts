import { sql } from 'drizzle-orm';
import { ROLES, type Role } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';

/**
 * Gives the account with this username (any letter case) a role, outside any route: the server's
 * ADMIN_USERNAME at start and `npm run admin -- grant <username> <role>`. Answers the account's username
 * and its previous role, or undefined when there is no such account here (a remote person's shadow account, issue
 * 39, is not one).
 */
export async function grantRole(
  db: Db,
  username: string,
  role: Role,
): Promise<{ username: string; previous: Role } | undefined> {
  if (!(ROLES as readonly string[]).includes(role))
    throw new Error(`role must be one of ${ROLES.join(', ')}; got "${role}".`);
  const [row] = await queryRows<{ username: string; previous: Role }>(
    db,
    sql`update users u set role = ${role}, updated_at = now()
        from (select id, role from users where lower(username) = lower(${username}) and remote_actor_id is null) old
        where u.id = old.id
        returning u.username, old.role as previous`,
  );
  return row;
}

/** Makes this account admin (ADMIN_USERNAME's first sign-up). */
export async function makeAdmin(db: Db, userId: string): Promise<void> {
  await db.execute(sql`update users set role = 'admin' where id = ${userId}::uuid`);
}
