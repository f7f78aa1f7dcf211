/**
 * What an app's authorization (issue 45, the oauth module) writes in another module's table: the person's new
 * session in `sessions`, naming the app, the scopes granted and the SHA-256 of the access token, so that the app
 * is listed in "Where you're signed in" and ended there (or by POST /oauth/revoke) like any session.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';

export async function insertAppSession(
  db: Db,
  session: {
    userId: string;
    appId: string;
    scopes: string;
    tokenHash: string;
    userAgent: string;
    address: string;
  },
): Promise<string> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into sessions (user_id, user_agent, address, oauth_app_id, oauth_scopes, oauth_token_hash)
        values (${session.userId}::uuid, ${session.userAgent.slice(0, 512)}, ${session.address.slice(0, 64)},
                ${session.appId}::uuid, ${session.scopes}, ${session.tokenHash})
        returning id`,
  );
  return rows[0]!.id;
}
