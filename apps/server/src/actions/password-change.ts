/**
 * What a password change (issue 24, the sessions module) writes: the account's new password hash in
 * `users`, and every other session of the account deleted from `sessions`, in one transaction with the
 * `session-ended` event (sent on commit): a token taken with the old password stops working the moment
 * the new password does. Answers how many sessions ended.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { publish } from '../events/events.js';

export async function changePasswordEndingOthers(
  db: Db,
  userId: string,
  passwordHash: string,
  keep: string,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`update users set password_hash = ${passwordHash} where id = ${userId}::uuid`);
    const ended = await queryRows<{ id: string }>(
      tx,
      sql`delete from sessions where user_id = ${userId}::uuid and id <> ${keep}::uuid returning id`,
    );
    if (ended.length > 0) await publish(tx, { type: 'session-ended', userId, except: keep });
    return ended.length;
  });
}
