import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { isoDate, mediaJson } from '../../lib/sql-json.js';
import type { MediaRow } from '../media/index.js';
import { notBlockedWith } from '../safety/index.js';

/**
 * Every statement of the commissions module (issue 42). It writes `commission_profiles`, `commission_examples` and
 * `commission_watchers` only; the notification of an opening is events/notification-rules.ts's. The conditions the
 * lists narrowed to open artists add (search, tag pages, Explore) and the "open" badge of posts and people are here
 * too, for the modules that read them (posts, users).
 */

/** The artist (aliased by `userId`) is open for commissions: one probe of commission_profiles_open_idx. */
export const openForCommissionsOf = (userId: SQL): SQL =>
  sql`exists (select from commission_profiles cpo where cpo.user_id = ${userId} and cpo.open)`;

/** What a list may be narrowed by: artists open for commissions, of a kind of work, within a price range. */
export interface CommissionFilter {
  kind?: string | undefined;
  /** The currency of the price bounds (and alone, artists pricing in it): prices are never converted. */
  currency?: string | undefined;
  priceMin?: number | undefined;
  priceMax?: number | undefined;
}

/**
 * The person `userId` is an artist open for commissions who matches the filter: a semi-join with the open artists
 * (the partial indexes of migration 0046: by kind, GIN; by currency and price, B-tree), which the planner hashes
 * once per statement, so a keyset walk of posts or a page of people checks each row against it in memory.
 * A price range overlaps the filter's: the artist's max ≥ priceMin, their min ≤ priceMax, in the same currency.
 */
export const openArtistMatching = (userId: SQL, filter: CommissionFilter): SQL => {
  const conditions: SQL[] = [sql`cpf.open`];
  if (filter.kind) conditions.push(sql`cpf.kinds @> array[${filter.kind}]::text[]`);
  if (filter.currency) conditions.push(sql`cpf.currency = ${filter.currency}`);
  if (filter.priceMin !== undefined) conditions.push(sql`cpf.price_max >= ${filter.priceMin}`);
  if (filter.priceMax !== undefined) conditions.push(sql`cpf.price_min <= ${filter.priceMax}`);
  return sql`${userId} in (select cpf.user_id from commission_profiles cpf where ${sql.join(conditions, sql` and `)})`;
};

/** Among `ids`, the people who match the filter (a page of people search), in no particular order. */
export async function selectMatchingArtists(db: Db, ids: string[], filter: CommissionFilter): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select a.id::text as id from unnest(${`{${ids.join(',')}}`}::uuid[]) a(id)
        where ${openArtistMatching(sql`a.id`, filter)}`,
  );
  return rows.map((row) => row.id);
}

/** The artist of a panel, and whether the viewer may see it. */
export interface ArtistRow {
  id: string;
  username: string;
  /** Suspended (for anyone but themselves), a remote person's shadow account, or a blocked pair with the viewer. */
  hidden: boolean;
  /** Signed out, an artist who shows their works to signed-in people only: their panel shows no works. */
  works_hidden: boolean;
  viewer_follows: boolean;
}

/** The artist by username (any letter case) or id. */
export async function selectArtist(
  db: Db,
  by: { username: string } | { id: string },
  viewerId: string | null,
): Promise<ArtistRow | undefined> {
  const [row] = await queryRows<ArtistRow>(
    db,
    sql`select u.id, u.username,
               not (u.remote_actor_id is null
                    and (u.suspended_until is null or u.suspended_until <= now()
                         ${viewerId === null ? sql`` : sql`or u.id = ${viewerId}::uuid`})
                    ${viewerId === null ? sql`` : sql`and ${notBlockedWith(viewerId, sql`u.id`)}`}) as hidden,
               ${viewerId === null ? sql`u.works_signed_in_only` : sql`false`} as works_hidden,
               ${
                 viewerId === null
                   ? sql`false`
                   : sql`exists (select from follows f where f.follower_id = ${viewerId}::uuid and f.followee_id = u.id)`
               } as viewer_follows
        from users u
        where ${'id' in by ? sql`u.id = ${by.id}::uuid` : sql`lower(u.username) = lower(${by.username})`}`,
  );
  return row;
}

export interface ProfileRow {
  open: boolean;
  kinds: string[];
  kinds_note: string;
  slots_total: number | null;
  slots_taken: number;
  currency: string | null;
  price_min: number | null;
  price_max: number | null;
  turnaround_days: number | null;
  terms: string;
  terms_url: string | null;
  languages: string[];
  opened_at: string | null;
  updated_at: string;
}

export async function selectProfile(db: Db, userId: string): Promise<ProfileRow | undefined> {
  const [row] = await queryRows<ProfileRow>(
    db,
    sql`select open, kinds, kinds_note, slots_total, slots_taken, currency, price_min, price_max, turnaround_days,
               terms, terms_url, languages,
               case when opened_at is null then null else ${isoDate('opened_at')} end as opened_at,
               ${isoDate('updated_at')} as updated_at
        from commission_profiles where user_id = ${userId}::uuid`,
  );
  return row;
}

export interface ExampleRow {
  id: string;
  content: string;
  content_warning: string | null;
  media: MediaRow | null;
}

/**
 * The panel's example works the viewer may see, in the artist's order: never one moderation hid (but to the artist)
 * or removed. The artist's own state (suspended, blocked, signed-in only) is the caller's, checked once per panel.
 */
export function selectExamples(db: Db, userId: string, viewerId: string | null): Promise<ExampleRow[]> {
  return queryRows<ExampleRow>(
    db,
    sql`select p.id, left(p.content, 140) as content, p.content_warning,
               (select ${mediaJson('m')} from post_media pm join media m on m.id = pm.media_id
                where pm.post_id = p.id order by pm.position limit 1) as media
        from commission_examples e join posts p on p.id = e.post_id
        where e.user_id = ${userId}::uuid
          and (p.moderation_state is null
               ${viewerId === null ? sql`` : sql`or (p.moderation_state = 'hidden' and p.author_id = ${viewerId}::uuid)`})
        order by e.position`,
  );
}

export async function selectWatching(db: Db, artistId: string, viewerId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from commission_watchers where artist_id = ${artistId}::uuid and watcher_id = ${viewerId}::uuid`,
  );
  return rows.length > 0;
}

/** The posts among `ids` that may be the user's examples: theirs, posted here, not hidden or removed. */
export async function selectOwnPublicWorks(db: Db, userId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select p.id::text as id from posts p
        where p.id = any(${`{${ids.join(',')}}`}::uuid[]) and p.author_id = ${userId}::uuid
          and p.note_iri is null and p.moderation_state is null`,
  );
  return rows.map((row) => row.id);
}

/** The user's panel row locked for the change (undefined before the first), with whether it was open. */
export async function lockProfile(tx: Db, userId: string): Promise<{ open: boolean } | undefined> {
  const [row] = await queryRows<{ open: boolean }>(
    tx,
    sql`select open from commission_profiles where user_id = ${userId}::uuid for update`,
  );
  return row;
}

export interface ProfileValues {
  open: boolean;
  kinds: string[];
  kindsNote: string;
  slotsTotal: number | null;
  slotsTaken: number;
  currency: string | null;
  priceMin: number | null;
  priceMax: number | null;
  turnaroundDays: number | null;
  terms: string;
  termsUrl: string | null;
  languages: string[];
}

/** Writes the whole panel; `opening` sets its opened_at to now. */
export async function upsertProfile(tx: Db, userId: string, values: ProfileValues, opening: boolean): Promise<void> {
  const textArray = (items: string[]) => sql`${JSON.stringify(items)}::json`;
  const asArray = (items: string[]) => sql`array(select json_array_elements_text(${textArray(items)}))::text[]`;
  await tx.execute(
    sql`insert into commission_profiles as cp (user_id, open, kinds, kinds_note, slots_total, slots_taken, currency,
          price_min, price_max, turnaround_days, terms, terms_url, languages, opened_at, updated_at)
        values (${userId}::uuid, ${values.open}, ${asArray(values.kinds)}, ${values.kindsNote}, ${values.slotsTotal},
          ${values.slotsTaken}, ${values.currency}, ${values.priceMin}, ${values.priceMax}, ${values.turnaroundDays},
          ${values.terms}, ${values.termsUrl}, ${asArray(values.languages)},
          ${opening ? sql`now()` : sql`null`}, now())
        on conflict (user_id) do update set
          open = excluded.open, kinds = excluded.kinds, kinds_note = excluded.kinds_note,
          slots_total = excluded.slots_total, slots_taken = excluded.slots_taken, currency = excluded.currency,
          price_min = excluded.price_min, price_max = excluded.price_max, turnaround_days = excluded.turnaround_days,
          terms = excluded.terms, terms_url = excluded.terms_url, languages = excluded.languages,
          opened_at = ${opening ? sql`now()` : sql`cp.opened_at`}, updated_at = now()`,
  );
}

/** Makes `postIds` the user's example works, in that order. */
export async function replaceExamples(tx: Db, userId: string, postIds: string[]): Promise<void> {
  await tx.execute(sql`delete from commission_examples where user_id = ${userId}::uuid`);
  if (postIds.length === 0) return;
  await tx.execute(
    sql`insert into commission_examples (user_id, post_id, position)
        select ${userId}::uuid, e.id, (e.n - 1)::smallint
        from unnest(${`{${postIds.join(',')}}`}::uuid[]) with ordinality e(id, n)`,
  );
}

/**
 * The watchers to tell of an opening, marked told now: those not told in the last day who still follow the artist
 * (the notification rule leaves out a blocked pair and shadow accounts).
 */
export async function markWatchersTold(tx: Db, artistId: string): Promise<string[]> {
  const rows = await queryRows<{ watcher_id: string }>(
    tx,
    sql`update commission_watchers w set notified_at = now()
        where w.artist_id = ${artistId}::uuid
          and (w.notified_at is null or w.notified_at <= now() - interval '1 day')
          and exists (select from follows f where f.follower_id = w.watcher_id and f.followee_id = ${artistId}::uuid)
        returning w.watcher_id`,
  );
  return rows.map((row) => row.watcher_id);
}

export async function insertWatcher(db: Db, artistId: string, watcherId: string): Promise<void> {
  await db.execute(
    sql`insert into commission_watchers (artist_id, watcher_id) values (${artistId}::uuid, ${watcherId}::uuid)
        on conflict do nothing`,
  );
}

export async function deleteWatcher(db: Db, artistId: string, watcherId: string): Promise<void> {
  await db.execute(
    sql`delete from commission_watchers where artist_id = ${artistId}::uuid and watcher_id = ${watcherId}::uuid`,
  );
}
