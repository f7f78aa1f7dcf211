// The auth module's statements for mail links (issue 24): `account_tokens` (confirmation and reset links,
// as hashes), and the column of `users` a confirmation sets (email_verified_at: the users module reads it;
// a trigger of migration 0020 clears it when the address changes).
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';

export type TokenPurpose = 'verify-email' | 'reset-password' | 'undo-email';

export interface MailTarget {
  id: string;
  username: string;
  email: string;
  verified: boolean;
  /** The language the person chose (issue 43): their mails are written in it. */
  language: string | null;
}

/**
 * The account's address and whether it is confirmed; undefined when there is no such account, or it is a remote
 * person's shadow account (issue 39), which is never mailed.
 */
export async function selectMailTarget(db: Db, userId: string): Promise<MailTarget | undefined> {
  const [row] = await queryRows<MailTarget>(
    db,
    sql`select id, username, email, email_verified_at is not null as verified, language from users
        where id = ${userId}::uuid and remote_actor_id is null`,
  );
  return row;
}

/**
 * The accounts "Forgot password?" may mail: `login` is a username (in any letter case) or a confirmed
 * address; unconfirmed addresses are never looked at, nor remote people's shadow accounts (issue 39). Each part
 * reads its own index.
 */
export async function selectResetTargets(db: Db, login: string, limit: number): Promise<MailTarget[]> {
  return queryRows<MailTarget>(
    db,
    sql`(select id, username, email, true as verified, language from users
         where lower(username) = lower(${login}) and email_verified_at is not null and remote_actor_id is null)
        union
        (select id, username, email, true as verified, language from users
         where lower(email) = lower(${login}) and email_verified_at is not null and remote_actor_id is null
         limit ${limit})
        limit ${limit}`,
  );
}

export async function insertToken(
  db: Db,
  token: { hash: string; userId: string; purpose: TokenPurpose; email: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.execute(
    sql`insert into account_tokens (token_hash, user_id, purpose, email, created_at, expires_at)
        values (${token.hash}, ${token.userId}::uuid, ${token.purpose}, ${token.email}, ${token.createdAt.toISOString()},
                ${token.expiresAt.toISOString()})
        on conflict (token_hash) do nothing`,
  );
}

/** Whether a link of `purpose` for this address, other than `exceptHash`, is still out there, unused and unexpired. */
export async function hasLiveToken(
  db: Db,
  userId: string,
  purpose: TokenPurpose,
  email: string,
  now: Date,
  exceptHash: string,
) {
  const [row] = await queryRows<{ live: boolean }>(
    db,
    sql`select exists (select from account_tokens where user_id = ${userId}::uuid and purpose = ${purpose}
          and email = ${email} and used_at is null and expires_at > ${now.toISOString()}
          and token_hash <> ${exceptHash}) as live`,
  );
  return row?.live ?? false;
}

export interface TokenRow {
  user_id: string;
  email: string;
  expired: boolean;
  used: boolean;
  /** The account's address now, and its username. */
  current_email: string;
  username: string;
}

export async function selectToken(db: Db, hash: string, purpose: TokenPurpose, now: Date) {
  const [row] = await queryRows<TokenRow>(
    db,
    sql`select t.user_id, t.email, t.expires_at <= ${now.toISOString()} as expired, t.used_at is not null as used,
               u.email as current_email, u.username
        from account_tokens t join users u on u.id = t.user_id
        where t.token_hash = ${hash} and t.purpose = ${purpose}`,
  );
  return row;
}

/**
 * Uses the link: true for the one call that marked it used while it was unused and unexpired (two
 * clicks at once: one wins). Every other live link of the same purpose and account goes with it.
 */
export async function claimToken(db: Db, hash: string, purpose: TokenPurpose, now: Date): Promise<boolean> {
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`with claimed as (
          update account_tokens set used_at = ${now.toISOString()}
          where token_hash = ${hash} and purpose = ${purpose} and used_at is null and expires_at > ${now.toISOString()}
          returning user_id
        ), others as (
          update account_tokens t set used_at = ${now.toISOString()}
          from claimed c where t.user_id = c.user_id and t.purpose = ${purpose} and t.used_at is null
            and t.token_hash <> ${hash}
        )
        select user_id from claimed`,
  );
  return rows.length === 1;
}

/** Confirms the address, if it is still the account's (a trigger unconfirms it when it changes). */
export async function markEmailVerified(db: Db, userId: string, email: string, now: Date): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update users set email_verified_at = coalesce(email_verified_at, ${now.toISOString()})
        where id = ${userId}::uuid and email = ${email} returning id`,
  );
  return rows.length === 1;
}
