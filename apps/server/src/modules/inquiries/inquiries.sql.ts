import { sql, type SQL } from 'drizzle-orm';
import { INQUIRY_LIMITS, type InquiryAccepting, type InquiryState } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { isoDate } from '../../lib/sql-json.js';
import { blockedBetween, notBlockedWith } from '../safety/index.js';

/**
 * Every statement of the inquiries module (issue 42). It writes `inquiries`, `inquiry_messages`,
 * `inquiry_references` and `inquiry_settings` only; the notifications are events/notification-rules.ts's. Reads join
 * `users`, `follows` and `blocks`.
 */

/** A person as the contract's UserSummary wants it (users.presenter's SummaryRow), from the alias `u`. */
const summaryJson = (alias: string): SQL =>
  sql.raw(
    `json_build_object('_id', ${alias}.id, 'username', ${alias}.username, 'firstName', ${alias}.first_name, ` +
      `'lastName', ${alias}.last_name, 'photoUrl', ${alias}.photo_url)`,
  );

/**
 * The inquiry `iq` is there for the viewer: they are one of its two people and have not deleted it for themselves,
 * and the two are not a blocked pair (a block hides the thread from both; unblocking shows it again).
 */
export const inquiryShownTo = (viewerId: string): SQL => sql`
  ((iq.artist_id = ${viewerId}::uuid and iq.artist_deleted_at is null)
    or (iq.client_id = ${viewerId}::uuid and iq.client_deleted_at is null))
  and ${notBlockedWith(viewerId, sql`case when iq.artist_id = ${viewerId}::uuid then iq.client_id else iq.artist_id end`)}`;

export interface SummaryJson {
  _id: string;
  username: string;
  firstName: string;
  lastName: string;
  photoUrl: string | null;
}

export interface InquiryRow {
  id: string;
  artist: SummaryJson;
  client: SummaryJson;
  body: string;
  budget_amount: number | null;
  budget_currency: string | null;
  deadline: string | null;
  state: InquiryState;
  decline_reason: string | null;
  message_count: number;
  created_at: string;
  updated_at: string;
  /** For the keyset: updated_at as the database holds it. */
  updated_key: Date | string;
  other_left: boolean;
  artist_id: string;
  client_id: string;
  references: { _id: string; width: number; height: number; bytes: number }[];
}

/** `cut`: a list's, whose body is its start only (INQUIRY_LIMITS.listBodyMax characters, ending in …). */
const inquiryColumns = (viewerId: string, cut = false): SQL => sql`
  iq.id,
  ${cut ? sql`case when char_length(iq.body) > ${INQUIRY_LIMITS.listBodyMax} then left(iq.body, ${INQUIRY_LIMITS.listBodyMax - 1}) || '…' else iq.body end` : sql`iq.body`} as body,
  iq.budget_amount, iq.budget_currency, to_char(iq.deadline, 'YYYY-MM-DD') as deadline, iq.state,
  iq.decline_reason, iq.message_count, ${isoDate('iq.created_at')} as created_at,
  ${isoDate('iq.updated_at')} as updated_at, iq.updated_at as updated_key, iq.artist_id, iq.client_id,
  ${summaryJson('a')} as artist, ${summaryJson('c')} as client,
  case when iq.artist_id = ${viewerId}::uuid then iq.client_deleted_at is not null
       else iq.artist_deleted_at is not null end as other_left,
  coalesce((select json_agg(json_build_object('_id', r.id, 'width', r.width, 'height', r.height, 'bytes', r.bytes)
                            order by r.created_at, r.id)
            from inquiry_references r where r.inquiry_id = iq.id), '[]'::json) as references`;

/** One inquiry, if it is there for the viewer. */
export async function selectInquiry(db: Db, id: string, viewerId: string): Promise<InquiryRow | undefined> {
  const [row] = await queryRows<InquiryRow>(
    db,
    sql`select ${inquiryColumns(viewerId)}
        from inquiries iq join users a on a.id = iq.artist_id join users c on c.id = iq.client_id
        where iq.id = ${id}::uuid and ${inquiryShownTo(viewerId)}`,
  );
  return row;
}

const INQUIRY_ORDER: Keyset = {
  columns: [sql`iq.updated_at`, sql`iq.id`],
  shape: ['date', 'uuid'],
  direction: 'desc',
};

/** The viewer's inbox (as the artist) or sent inquiries (as the client), the latest activity first. */
export async function selectInquiryPage(
  db: Db,
  viewerId: string,
  as: 'artist' | 'client',
  options: { cursor?: string | undefined; limit: number },
): Promise<{ page: InquiryRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(INQUIRY_ORDER, options.cursor, options.limit);
  const mine =
    as === 'artist'
      ? sql`iq.artist_id = ${viewerId}::uuid and iq.artist_deleted_at is null`
      : sql`iq.client_id = ${viewerId}::uuid and iq.client_deleted_at is null`;
  const rows = await queryRows<InquiryRow>(
    db,
    sql`select ${inquiryColumns(viewerId, true)}
        from inquiries iq join users a on a.id = iq.artist_id join users c on c.id = iq.client_id
        where ${mine} and ${inquiryShownTo(viewerId)} and ${after}
        order by ${orderBy}
        ${limit}`,
  );
  return keysetPage(rows, options.limit, INQUIRY_ORDER.shape, (row) => [row.updated_key, row.id]);
}

/** What decides whether the viewer may send this artist an inquiry. Undefined: no such account. */
export interface ArtistRow {
  id: string;
  username: string;
  remote: boolean;
  suspended: boolean;
  blocked: boolean;
  accepting: InquiryAccepting;
  follows: boolean;
}

export async function selectArtist(db: Db, username: string, viewerId: string): Promise<ArtistRow | undefined> {
  const [row] = await queryRows<ArtistRow>(
    db,
    sql`select u.id, u.username, u.remote_actor_id is not null as remote,
               coalesce(u.suspended_until > now(), false) as suspended,
               ${blockedBetween(sql`u.id`, sql`${viewerId}::uuid`)} as blocked,
               coalesce(s.accepting, 'everyone') as accepting,
               exists (select from follows f where f.follower_id = ${viewerId}::uuid and f.followee_id = u.id
                       and not f.pending) as follows
        from users u left join inquiry_settings s on s.user_id = u.id
        where lower(u.username) = lower(${username})`,
  );
  return row;
}

export async function insertInquiry(
  tx: Db,
  inquiry: {
    artistId: string;
    clientId: string;
    body: string;
    budget: { amount: number; currency: string } | null;
    deadline: string | null;
  },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into inquiries (artist_id, client_id, body, budget_amount, budget_currency, deadline)
        values (${inquiry.artistId}::uuid, ${inquiry.clientId}::uuid, ${inquiry.body},
                ${inquiry.budget?.amount ?? null}::int, ${inquiry.budget?.currency ?? null}::text,
                ${inquiry.deadline}::date)
        returning id`,
  );
  return row!.id;
}

/** Whether `day` (YYYY-MM-DD) is a real date no earlier than today (UTC). Undefined: not a date at all. */
export async function selectDeadlineOk(db: Db, day: string): Promise<boolean | undefined> {
  try {
    const [row] = await queryRows<{ ok: boolean }>(
      db,
      sql`select ${day}::date >= (now() at time zone 'UTC')::date as ok`,
    );
    return row?.ok;
  } catch {
    return undefined;
  }
}

/** The inquiry's row locked for a change, whoever may see it (the service checks). */
export interface LockedInquiry {
  id: string;
  artist_id: string;
  client_id: string;
  state: InquiryState;
  artist_deleted_at: string | null;
  client_deleted_at: string | null;
  blocked: boolean;
  reference_count: number;
}

export async function lockInquiry(tx: Db, id: string): Promise<LockedInquiry | undefined> {
  const [row] = await queryRows<LockedInquiry>(
    tx,
    sql`select iq.id, iq.artist_id, iq.client_id, iq.state, iq.artist_deleted_at, iq.client_deleted_at,
               ${blockedBetween(sql`iq.artist_id`, sql`iq.client_id`)} as blocked,
               (select count(*)::int from inquiry_references r where r.inquiry_id = iq.id) as reference_count
        from inquiries iq where iq.id = ${id}::uuid for update`,
  );
  return row;
}

export interface MessageRow {
  id: string;
  author: SummaryJson;
  body: string;
  created_at: string;
  created_key: Date | string;
}

const messageColumns = sql`m.id, ${summaryJson('u')} as author, m.body, ${isoDate('m.created_at')} as created_at,
  m.created_at as created_key`;

export async function insertMessage(
  tx: Db,
  message: { inquiryId: string; authorId: string; body: string },
): Promise<MessageRow> {
  const [row] = await queryRows<MessageRow>(
    tx,
    sql`with m as (
          insert into inquiry_messages (inquiry_id, author_id, body)
          values (${message.inquiryId}::uuid, ${message.authorId}::uuid, ${message.body})
          returning *
        ),
        counted as (
          update inquiries set message_count = message_count + 1, updated_at = now()
          where id = ${message.inquiryId}::uuid
        )
        select ${messageColumns} from m join users u on u.id = m.author_id`,
  );
  return row!;
}

const MESSAGE_ORDER: Keyset = {
  columns: [sql`m.created_at`, sql`m.id`],
  shape: ['date', 'uuid'],
  direction: 'asc',
};

/** The messages of an inquiry, oldest first (the service checked the viewer may read it). */
export async function selectMessagePage(
  db: Db,
  inquiryId: string,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ page: MessageRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(MESSAGE_ORDER, options.cursor, options.limit);
  const rows = await queryRows<MessageRow>(
    db,
    sql`select ${messageColumns} from inquiry_messages m join users u on u.id = m.author_id
        where m.inquiry_id = ${inquiryId}::uuid and ${after}
        order by ${orderBy}
        ${limit}`,
  );
  return keysetPage(rows, options.limit, MESSAGE_ORDER.shape, (row) => [row.created_key, row.id]);
}

export async function updateState(tx: Db, id: string, state: InquiryState, reason: string | null): Promise<void> {
  await tx.execute(
    sql`update inquiries set state = ${state}, decline_reason = ${reason}, updated_at = now()
        where id = ${id}::uuid`,
  );
}

/**
 * Deletes the inquiry for one of its two people; once both have, the row goes (and with it its messages, pictures
 * and notifications, by cascade). Answers whether the row is gone.
 */
export async function deleteForPerson(tx: Db, id: string, role: 'artist' | 'client'): Promise<boolean> {
  const column = sql.raw(role === 'artist' ? 'artist_deleted_at' : 'client_deleted_at');
  await tx.execute(sql`update inquiries set ${column} = now() where id = ${id}::uuid and ${column} is null`);
  const gone = await queryRows<{ id: string }>(
    tx,
    sql`delete from inquiries where id = ${id}::uuid
          and artist_deleted_at is not null and client_deleted_at is not null
        returning id`,
  );
  return gone.length > 0;
}

export async function insertReference(
  tx: Db,
  reference: { inquiryId: string; width: number; height: number; contentType: string; data: Buffer },
): Promise<{ _id: string; width: number; height: number; bytes: number }> {
  const [row] = await queryRows<{ _id: string; width: number; height: number; bytes: number }>(
    tx,
    sql`insert into inquiry_references (inquiry_id, width, height, bytes, content_type, data)
        values (${reference.inquiryId}::uuid, ${reference.width}, ${reference.height}, ${reference.data.length},
                ${reference.contentType}, decode(${reference.data.toString('base64')}, 'base64'))
        returning id as "_id", width, height, bytes`,
  );
  await tx.execute(sql`update inquiries set updated_at = now() where id = ${reference.inquiryId}::uuid`);
  return row!;
}

/** A reference picture's bytes, only when the inquiry is there for the viewer. */
export async function selectReferenceData(
  db: Db,
  inquiryId: string,
  referenceId: string,
  viewerId: string,
): Promise<{ content_type: string; data: Uint8Array; created_at: string } | undefined> {
  const [row] = await queryRows<{ content_type: string; data: Uint8Array; created_at: string }>(
    db,
    sql`select r.content_type, r.data, ${isoDate('r.created_at')} as created_at
        from inquiry_references r join inquiries iq on iq.id = r.inquiry_id
        where r.id = ${referenceId}::uuid and r.inquiry_id = ${inquiryId}::uuid and ${inquiryShownTo(viewerId)}`,
  );
  return row;
}

export async function selectSettings(db: Db, userId: string): Promise<{ accepting: InquiryAccepting; mail: boolean }> {
  const [row] = await queryRows<{ accepting: InquiryAccepting; mail: boolean }>(
    db,
    sql`select accepting, mail from inquiry_settings where user_id = ${userId}::uuid`,
  );
  return row ?? { accepting: 'everyone', mail: false };
}

export async function upsertSettings(
  db: Db,
  userId: string,
  change: { accepting?: InquiryAccepting | undefined; mail?: boolean | undefined },
): Promise<{ accepting: InquiryAccepting; mail: boolean }> {
  const [row] = await queryRows<{ accepting: InquiryAccepting; mail: boolean }>(
    db,
    sql`insert into inquiry_settings (user_id, accepting, mail)
        values (${userId}::uuid, ${change.accepting ?? 'everyone'}, ${change.mail ?? false})
        on conflict (user_id) do update set
          accepting = ${change.accepting === undefined ? sql`inquiry_settings.accepting` : sql`${change.accepting}`},
          mail = ${change.mail === undefined ? sql`inquiry_settings.mail` : sql`${change.mail}`},
          updated_at = now()
        returning accepting, mail`,
  );
  return row!;
}

/** What the mail of a new inquiry says, when its artist asked for mail and it is still there. */
export async function selectInquiryMail(
  db: Db,
  inquiryId: string,
): Promise<
  | {
      email: string;
      language: string | null;
      artist_username: string;
      client_username: string;
      body: string;
      mail: boolean;
      blocked: boolean;
    }
  | undefined
> {
  const [row] = await queryRows<{
    email: string;
    language: string | null;
    artist_username: string;
    client_username: string;
    body: string;
    mail: boolean;
    blocked: boolean;
  }>(
    db,
    sql`select a.email, a.language, a.username as artist_username, c.username as client_username, iq.body,
               coalesce(s.mail, false) and iq.artist_deleted_at is null as mail,
               ${blockedBetween(sql`iq.artist_id`, sql`iq.client_id`)} as blocked
        from inquiries iq join users a on a.id = iq.artist_id join users c on c.id = iq.client_id
        left join inquiry_settings s on s.user_id = iq.artist_id
        where iq.id = ${inquiryId}::uuid`,
  );
  return row;
}
