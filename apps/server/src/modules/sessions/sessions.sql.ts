import { sql } from 'drizzle-orm';
import { SESSIONS_LIST_MAX, type SecurityEventKind } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import { publish } from '../../events/events.js';

/** The user agent as stored: a client may send anything, the row keeps a bounded prefix. */
export const USER_AGENT_MAX = 512;
/** The address as stored (an addressKey: IPv4, or an IPv6 /64). */
export const ADDRESS_MAX = 64;

export interface SessionRow {
  id: string;
  user_agent: string;
  address: string;
  created_at: string;
  last_used_at: string;
  /** An authorized app's session (issue 45): the app's name, website and the scopes granted; null otherwise. */
  app_name: string | null;
  app_website: string | null;
  app_scopes: string | null;
}

/** Web sessions older than the tokens' lifetime: their token has expired. An app's (issue 45) never expires. */
const expired = (lifetimeSeconds: number, table = '') =>
  sql`(${sql.raw(table)}oauth_app_id is null and ${sql.raw(table)}created_at <= now() - make_interval(secs => ${lifetimeSeconds}))`;

/**
 * A new session of the user; its id goes in the token (`sid`). The user's sessions whose token has expired
 * go in the same statement (their tokens are refused already: no event), so the table keeps no dead rows.
 */
export async function insertSession(
  db: Db,
  userId: string,
  client: { userAgent: string; address: string },
  lifetimeSeconds: number,
): Promise<string> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with over as (delete from sessions where user_id = ${userId}::uuid and ${expired(lifetimeSeconds)})
        insert into sessions (user_id, user_agent, address)
        values (${userId}::uuid, ${client.userAgent.slice(0, USER_AGENT_MAX)}, ${client.address.slice(0, ADDRESS_MAX)})
        returning id`,
  );
  return rows[0]!.id;
}

/** The session's owner and when it was last used (ms since the epoch), or undefined once it has ended. */
export async function selectSessionOwner(
  db: Db,
  sessionId: string,
): Promise<{ user_id: string; last_used_ms: number } | undefined> {
  const rows = await queryRows<{ user_id: string; last_used_ms: string | number }>(
    db,
    sql`select user_id, (extract(epoch from last_used_at) * 1000)::float8 as last_used_ms
        from sessions where id = ${sessionId}::uuid`,
  );
  const row = rows[0];
  return row && { user_id: row.user_id, last_used_ms: Number(row.last_used_ms) };
}

/** Notes that the session was used now (at most every few minutes: session-check.ts). */
export async function touchSession(db: Db, sessionId: string): Promise<void> {
  await db.execute(sql`update sessions set last_used_at = now() where id = ${sessionId}::uuid`);
}

/** The user's sessions whose token has not expired, the most recently used first, at most SESSIONS_LIST_MAX. */
export function selectSessions(db: Db, userId: string, lifetimeSeconds: number): Promise<SessionRow[]> {
  return queryRows<SessionRow>(
    db,
    sql`select s.id, s.user_agent, s.address,
               to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
               to_char(s.last_used_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_used_at,
               a.name as app_name, a.website as app_website, s.oauth_scopes as app_scopes
        from sessions s left join oauth_apps a on a.id = s.oauth_app_id
        where s.user_id = ${userId}::uuid and not ${expired(lifetimeSeconds, 's.')}
        order by s.last_used_at desc, s.created_at desc, s.id
        limit ${SESSIONS_LIST_MAX}`,
  );
}

/**
 * Ends sessions of the user: one (`sessionId`), or all but `except`, or all. The event leaves with the
 * deletion (NOTIFY is sent on commit), so every process forgets them. Answers how many ended.
 */
export async function deleteSessions(
  db: Db,
  userId: string,
  which: { sessionId?: string; except?: string } = {},
): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`delete from sessions where user_id = ${userId}::uuid
          ${which.sessionId === undefined ? sql`` : sql`and id = ${which.sessionId}::uuid`}
          ${which.except === undefined ? sql`` : sql`and id <> ${which.except}::uuid`}
          returning id`,
    );
    if (rows.length > 0) {
      await publish(tx, {
        type: 'session-ended',
        userId,
        ...(which.sessionId === undefined ? {} : { sessionId: which.sessionId }),
        ...(which.except === undefined ? {} : { except: which.except }),
      });
    }
    return rows.length;
  });
}

/** The account's password hash (the password change checks the current one). */
export async function selectPasswordHash(db: Db, userId: string): Promise<string | undefined> {
  const rows = await queryRows<{ password_hash: string }>(
    db,
    sql`select password_hash from users where id = ${userId}::uuid`,
  );
  return rows[0]?.password_hash;
}

/** Notes that the session confirmed who it is now (issue 38: SECURITY.reauthMinutes). */
export async function markReauthenticated(db: Db, userId: string, sessionId: string, at: Date): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update sessions set reauthenticated_at = ${at.toISOString()}
        where id = ${sessionId}::uuid and user_id = ${userId}::uuid returning id`,
  );
  return rows.length === 1;
}

/** Whether the session signed in or confirmed who it is after `since`. */
export async function confirmedSince(db: Db, userId: string, sessionId: string, since: Date): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from sessions where id = ${sessionId}::uuid and user_id = ${userId}::uuid
          and greatest(created_at, reauthenticated_at) > ${since.toISOString()}`,
  );
  return rows.length === 1;
}

export interface SecurityEventRow {
  id: string;
  kind: SecurityEventKind;
  detail: string;
  at: string;
  user_agent: string;
  address: string;
}

export async function insertSecurityEvent(
  db: Db,
  event: { userId: string; kind: SecurityEventKind; detail: string; at: Date; userAgent: string; address: string },
): Promise<string> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into security_events (user_id, kind, detail, at, user_agent, address)
        values (${event.userId}::uuid, ${event.kind}, ${event.detail.slice(0, 600)}, ${event.at.toISOString()},
                ${event.userAgent.slice(0, USER_AGENT_MAX)}, ${event.address.slice(0, ADDRESS_MAX)})
        returning id`,
  );
  return rows[0]!.id;
}

const eventColumns = sql`id, kind, detail, user_agent, address,
  to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at`;

/** The account's newest security events, at most `limit`. */
export function selectSecurityEvents(db: Db, userId: string, limit: number): Promise<SecurityEventRow[]> {
  return queryRows<SecurityEventRow>(
    db,
    sql`select ${eventColumns} from security_events where user_id = ${userId}::uuid
        order by at desc, id desc limit ${limit}`,
  );
}

/** One event with the account's address and username now (for the mail about it); undefined once gone. */
export async function selectSecurityEvent(db: Db, eventId: string) {
  const rows = await queryRows<SecurityEventRow & { email: string; username: string; language: string | null }>(
    db,
    sql`select e.id, e.kind, e.detail, e.user_agent, e.address,
               to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, u.email, u.username, u.language
        from security_events e join users u on u.id = e.user_id where e.id = ${eventId}::uuid`,
  );
  return rows[0];
}
