import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';

/** The OAuth module's statements (issue 45): `oauth_apps`, `oauth_codes`, `oauth_app_tokens`; reads of `sessions`. */

export interface AppRow {
  id: string;
  client_id: string;
  client_secret_hash: string;
  name: string;
  website: string | null;
  redirect_uris: string[];
  scopes: string;
}

const appColumns = sql`id, client_id, client_secret_hash, name, website, redirect_uris, scopes`;

export async function insertApp(
  db: Db,
  app: {
    clientId: string;
    clientSecretHash: string;
    name: string;
    website: string | null;
    redirectUris: string[];
    scopes: string;
  },
): Promise<AppRow> {
  const rows = await queryRows<AppRow>(
    db,
    sql`insert into oauth_apps (client_id, client_secret_hash, name, website, redirect_uris, scopes)
        values (${app.clientId}, ${app.clientSecretHash}, ${app.name}, ${app.website},
                ${sql`array[${sql.join(
                  app.redirectUris.map((uri) => sql`${uri}`),
                  sql`, `,
                )}]::text[]`}, ${app.scopes})
        returning ${appColumns}`,
  );
  return rows[0]!;
}

export async function selectAppByClientId(db: Db, clientId: string): Promise<AppRow | undefined> {
  const rows = await queryRows<AppRow>(db, sql`select ${appColumns} from oauth_apps where client_id = ${clientId}`);
  return rows[0];
}

export async function selectAppById(db: Db, id: string): Promise<AppRow | undefined> {
  const rows = await queryRows<AppRow>(db, sql`select ${appColumns} from oauth_apps where id = ${id}::uuid`);
  return rows[0];
}

/** An authorization code, with the expired ones of the same app swept in the same statement. */
export async function insertCode(
  db: Db,
  code: {
    codeHash: string;
    appId: string;
    userId: string;
    redirectUri: string;
    scopes: string;
    codeChallenge: string | null;
    codeChallengeMethod: string | null;
    lifetimeSeconds: number;
  },
): Promise<void> {
  await db.execute(
    sql`with swept as (delete from oauth_codes where expires_at < now())
        insert into oauth_codes (code_hash, app_id, user_id, redirect_uri, scopes, code_challenge,
                                 code_challenge_method, expires_at)
        values (${code.codeHash}, ${code.appId}::uuid, ${code.userId}::uuid, ${code.redirectUri}, ${code.scopes},
                ${code.codeChallenge}, ${code.codeChallengeMethod},
                now() + make_interval(secs => ${code.lifetimeSeconds}))`,
  );
}

export interface CodeRow {
  app_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  expired: boolean;
}

/** Takes a code (single use: it is deleted as it is read, whatever the exchange then decides). */
export async function takeCode(db: Db, codeHash: string): Promise<CodeRow | undefined> {
  const rows = await queryRows<CodeRow>(
    db,
    sql`delete from oauth_codes where code_hash = ${codeHash}
        returning app_id, user_id, redirect_uri, scopes, code_challenge, code_challenge_method,
                  expires_at <= now() as expired`,
  );
  return rows[0];
}

export async function insertAppToken(db: Db, tokenHash: string, appId: string, scopes: string): Promise<void> {
  await db.execute(
    sql`insert into oauth_app_tokens (token_hash, app_id, scopes) values (${tokenHash}, ${appId}::uuid, ${scopes})`,
  );
}

export async function selectAppToken(
  db: Db,
  tokenHash: string,
): Promise<{ app_id: string; scopes: string } | undefined> {
  const rows = await queryRows<{ app_id: string; scopes: string }>(
    db,
    sql`select app_id, scopes from oauth_app_tokens where token_hash = ${tokenHash}`,
  );
  return rows[0];
}

export async function deleteAppToken(db: Db, tokenHash: string): Promise<void> {
  await db.execute(sql`delete from oauth_app_tokens where token_hash = ${tokenHash}`);
}

export interface TokenSessionRow {
  id: string;
  user_id: string;
  username: string;
  oauth_app_id: string;
  oauth_scopes: string;
}

/** The session an app's access token names (by its SHA-256), with its account's username. */
export async function selectSessionByToken(db: Db, tokenHash: string): Promise<TokenSessionRow | undefined> {
  const rows = await queryRows<TokenSessionRow>(
    db,
    sql`select s.id, s.user_id, u.username, s.oauth_app_id, s.oauth_scopes
        from sessions s join users u on u.id = s.user_id where s.oauth_token_hash = ${tokenHash}`,
  );
  return rows[0];
}

/** The sessions an app holds (to end them when the app goes). */
export function selectAppSessions(db: Db, appId: string): Promise<{ id: string; user_id: string }[]> {
  return queryRows(db, sql`select id, user_id from sessions where oauth_app_id = ${appId}::uuid`);
}

export async function deleteApp(db: Db, appId: string): Promise<void> {
  await db.execute(sql`delete from oauth_apps where id = ${appId}::uuid`);
}
