import { sql } from 'drizzle-orm';
import type { DraftRights } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { isoDate, mediaJson } from '../../lib/sql-json.js';
import type { MediaRow } from '../media/index.js';

/**
 * Every statement of the drafts module (issue 41). It writes `drafts` and `draft_media` only; it reads `media`
 * (a draft's pictures and whether they may join it), `post_media`, `users` (an avatar) and `series` (the artist's
 * own), and `posts` (whether a publishing that stopped half-way had already posted).
 */

export interface DraftRow {
  id: string;
  author_id: string;
  content: string;
  /** The language of its words (issue 43, migration 0055); null: not said. */
  language: string | null;
  rights: DraftRights;
  series_id: string | null;
  chapter: string | null;
  revision: number;
  scheduled_at: string | null;
  time_zone: string | null;
  publish_error: string | null;
  publishing_since: string | null;
  created_at: string;
  updated_at: string;
  updated_key: Date | string;
  /** The pictures in order, as media rows. */
  pictures: MediaRow[];
  /** The process pictures in order (draft_media.process, migration 0050). */
  process_pictures: MediaRow[];
}

const draftColumns = sql`d.id, d.author_id, d.content, d.language, d.rights, d.series_id, d.chapter, d.revision,
  ${isoDate('d.scheduled_at')} as scheduled_at, d.time_zone, d.publish_error,
  d.publishing_since::text as publishing_since,
  ${isoDate('d.created_at')} as created_at, ${isoDate('d.updated_at')} as updated_at, d.updated_at as updated_key,
  coalesce((select json_agg(${mediaJson('m')} order by dm.position)
            from draft_media dm join media m on m.id = dm.media_id where dm.draft_id = d.id and not dm.process),
           '[]'::json) as pictures,
  coalesce((select json_agg(${mediaJson('m')} order by dm.position)
            from draft_media dm join media m on m.id = dm.media_id where dm.draft_id = d.id and dm.process),
           '[]'::json) as process_pictures`;

/** One draft of its author (anyone else: none). */
export async function selectDraft(db: Db, id: string, authorId: string): Promise<DraftRow | undefined> {
  const [row] = await queryRows<DraftRow>(
    db,
    sql`select ${draftColumns} from drafts d where d.id = ${id}::uuid and d.author_id = ${authorId}::uuid`,
  );
  return row;
}

export interface DraftSummaryRow {
  id: string;
  excerpt: string;
  cover: MediaRow | null;
  picture_count: number;
  series_id: string | null;
  revision: number;
  scheduled_at: string | null;
  time_zone: string | null;
  publish_error: string | null;
  created_at: string;
  updated_at: string;
  updated_key: Date | string;
}

const DRAFT_ORDER: Keyset = { columns: [sql`d.updated_at`, sql`d.id`], shape: ['date', 'uuid'], direction: 'desc' };

/** The author's drafts, the last changed first, by keyset: each its start, its cover and its number of pictures. */
export async function selectDraftPage(
  db: Db,
  authorId: string,
  options: { cursor?: string | undefined; limit: number; excerpt: number },
): Promise<{ page: DraftSummaryRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(DRAFT_ORDER, options.cursor, options.limit);
  const rows = await queryRows<DraftSummaryRow>(
    db,
    sql`select d.id, left(d.content, ${options.excerpt}) as excerpt, d.series_id, d.revision,
          ${isoDate('d.scheduled_at')} as scheduled_at, d.time_zone, d.publish_error,
          ${isoDate('d.created_at')} as created_at, ${isoDate('d.updated_at')} as updated_at, d.updated_at as updated_key,
          (select count(*)::int from draft_media c where c.draft_id = d.id and not c.process) as picture_count,
          (select ${mediaJson('m')} from draft_media dm join media m on m.id = dm.media_id
           where dm.draft_id = d.id and not dm.process order by dm.position limit 1) as cover
        from drafts d where d.author_id = ${authorId}::uuid and ${after} order by ${orderBy} ${limit}`,
  );
  return keysetPage(rows, options.limit, DRAFT_ORDER.shape, (row) => [row.updated_key, row.id]);
}

/** Makes one artist's new drafts take turns, so that the count of their drafts holds under it. */
export async function lockAuthorDrafts(tx: Db, authorId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`drafts:${authorId}`}, 0))`);
}

export async function countDrafts(db: Db, authorId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from drafts where author_id = ${authorId}::uuid`,
  );
  return row?.count ?? 0;
}

/** A draft's revision, locked for a save (undefined: none of this author's). */
export async function lockDraft(
  tx: Db,
  id: string,
  authorId: string,
): Promise<{ revision: number; publishing: boolean } | undefined> {
  const [row] = await queryRows<{ revision: number; publishing: boolean }>(
    tx,
    sql`select revision, publishing_since is not null as publishing from drafts
        where id = ${id}::uuid and author_id = ${authorId}::uuid for update`,
  );
  return row;
}

export interface DraftFields {
  content: string;
  /** Canonical (the posts module's languageOf); null: not said. */
  language: string | null;
  rights: DraftRights;
  seriesId: string | null;
  chapter: string | null;
}

export async function insertDraft(tx: Db, authorId: string, fields: DraftFields): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into drafts (author_id, content, language, rights, series_id, chapter)
        values (${authorId}::uuid, ${fields.content}, ${fields.language}, ${JSON.stringify(fields.rights)}::jsonb,
                ${fields.seriesId}::uuid, ${fields.chapter})
        returning id`,
  );
  return row!.id;
}

/** A save: the fields given, the next revision, and any earlier publishing error cleared (the artist changed it). */
export async function updateDraft(tx: Db, id: string, fields: Partial<DraftFields>): Promise<void> {
  const sets = [sql`revision = revision + 1`, sql`updated_at = now()`, sql`publish_error = null`];
  if (fields.content !== undefined) sets.push(sql`content = ${fields.content}`);
  if (fields.language !== undefined) sets.push(sql`language = ${fields.language}`);
  if (fields.rights !== undefined) sets.push(sql`rights = ${JSON.stringify(fields.rights)}::jsonb`);
  if (fields.seriesId !== undefined) sets.push(sql`series_id = ${fields.seriesId}::uuid`);
  if (fields.chapter !== undefined) sets.push(sql`chapter = ${fields.chapter}`);
  await tx.execute(sql`update drafts set ${sql.join(sets, sql`, `)} where id = ${id}::uuid`);
}

/** The draft's pictures (or, with `process`, its process pictures) become `mediaIds`, in order. */
export async function replaceDraftMedia(tx: Db, draftId: string, mediaIds: string[], process = false): Promise<void> {
  await tx.execute(sql`delete from draft_media where draft_id = ${draftId}::uuid and process = ${process}`);
  if (mediaIds.length === 0) return;
  await tx.execute(
    sql`insert into draft_media (draft_id, media_id, position, process)
        select ${draftId}::uuid, id, ord::int - 1, ${process}
        from unnest(${`{${mediaIds.join(',')}}`}::uuid[]) with ordinality as t(id, ord)`,
  );
}

/** What decides whether a picture may join a draft: its owner and purpose, and where else it is. */
export interface PictureUse {
  id: string;
  owner_id: string;
  purpose: string;
  alt: string;
  in_post: boolean;
  in_other_draft: boolean;
  avatar: boolean;
}

export async function selectPictureUses(db: Db, ids: string[], draftId: string | null): Promise<PictureUse[]> {
  if (ids.length === 0) return [];
  return queryRows<PictureUse>(
    db,
    sql`select m.id, m.owner_id, m.purpose, m.alt,
               (exists (select 1 from post_media pm where pm.media_id = m.id)
                or exists (select 1 from post_process_pictures pp where pp.media_id = m.id)) as in_post,
               exists (select 1 from draft_media dm where dm.media_id = m.id
                        and dm.draft_id is distinct from ${draftId}::uuid) as in_other_draft,
               exists (select 1 from users u where u.photo_media_id = m.id) as avatar
        from media m where m.id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
}

/** Whether the series is the author's own. */
export async function isOwnSeries(db: Db, seriesId: string, authorId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from series where id = ${seriesId}::uuid and owner_id = ${authorId}::uuid`,
  );
  return rows.length > 0;
}

/** Deletes the author's draft; its pictures' ids (in order), or undefined when there was no such draft. */
export async function deleteDraftRow(db: Db, id: string, authorId: string): Promise<string[] | undefined> {
  return db.transaction(async (tx) => {
    const pictures = await queryRows<{ media_id: string }>(
      tx,
      sql`select dm.media_id from draft_media dm join drafts d on d.id = dm.draft_id
          where d.id = ${id}::uuid and d.author_id = ${authorId}::uuid order by dm.process, dm.position`,
    );
    const gone = await queryRows<{ id: string }>(
      tx,
      sql`delete from drafts where id = ${id}::uuid and author_id = ${authorId}::uuid returning id`,
    );
    return gone.length === 0 ? undefined : pictures.map((row) => row.media_id);
  });
}

/** Among `ids`, the pictures attached to nothing (no post, draft or profile): a discarded draft's to delete. */
export async function selectLoosePictures(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select m.id from media m
        where m.id = any(${`{${ids.join(',')}}`}::uuid[])
          and not exists (select 1 from post_media pm where pm.media_id = m.id)
          and not exists (select 1 from post_process_pictures pp where pp.media_id = m.id)
          and not exists (select 1 from draft_media dm where dm.media_id = m.id)
          and not exists (select 1 from users u where u.photo_media_id = m.id)`,
  );
  return rows.map((row) => row.id);
}

/** Schedules the draft (or cancels with null), the next revision; clears an earlier publishing error. */
export async function updateSchedule(
  tx: Db,
  id: string,
  schedule: { at: Date; timeZone: string } | null,
): Promise<void> {
  await tx.execute(
    sql`update drafts set scheduled_at = ${schedule ? schedule.at.toISOString() : null}::timestamptz,
          time_zone = ${schedule?.timeZone ?? null}, publish_error = null,
          revision = revision + 1, updated_at = now()
        where id = ${id}::uuid`,
  );
}

/**
 * Claims one draft to publish: the given one (publishing now) or the first scheduled one that is due. A draft
 * being published by another worker is skipped unless its claim is older than `staleBefore` (that worker stopped).
 * Answers the draft as it was claimed, with `reclaimed` when an earlier claim had not finished.
 */
export async function claimDraft(
  db: Db,
  target: { id: string; authorId: string } | 'due',
  staleBefore: Date,
): Promise<(DraftRow & { reclaimed: boolean; claimed_at: string }) | undefined> {
  const which =
    target === 'due'
      ? sql`scheduled_at <= now() and publish_error is null`
      : sql`id = ${target.id}::uuid and author_id = ${target.authorId}::uuid`;
  const [claimed] = await queryRows<{ id: string; reclaimed: boolean; claimed_at: string }>(
    db,
    sql`with old as (
          select id, publishing_since from drafts
          where ${which}
            and (publishing_since is null or publishing_since < ${staleBefore.toISOString()}::timestamptz)
          order by scheduled_at nulls last, id
          limit 1 for update skip locked
        )
        update drafts d set publishing_since = now()
        from old where d.id = old.id
        returning d.id, old.publishing_since is not null as reclaimed, old.publishing_since::text as claimed_at`,
  );
  if (!claimed) return undefined;
  const [row] = await queryRows<DraftRow>(
    db,
    sql`select ${draftColumns} from drafts d where d.id = ${claimed.id}::uuid`,
  );
  return row && { ...row, reclaimed: claimed.reclaimed, claimed_at: claimed.claimed_at };
}

/**
 * A post its author published since `since` with these words (and this first picture): what an earlier publishing
 * of the draft that stopped before the draft went would have left.
 */
export async function selectPublishedSince(
  db: Db,
  authorId: string,
  since: string,
  content: string,
  firstMediaId: string | undefined,
): Promise<string | undefined> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select p.id from posts p
        where p.author_id = ${authorId}::uuid and p.created_at >= ${since}::timestamptz and p.content = ${content}
          and (${firstMediaId ?? null}::uuid is null
               or exists (select 1 from post_media pm where pm.post_id = p.id and pm.media_id = ${firstMediaId ?? null}::uuid))
        order by p.created_at limit 1`,
  );
  return row?.id;
}

/** Publishing failed for a reason the artist must fix: the draft stays, unscheduled, with the reason. */
export async function markPublishFailed(db: Db, id: string, message: string): Promise<void> {
  await db.execute(
    sql`update drafts set publish_error = ${message}, publishing_since = null, scheduled_at = null, time_zone = null,
          revision = revision + 1, updated_at = now()
        where id = ${id}::uuid`,
  );
}

/** The draft is published: it goes (its pictures are the post's now). */
export async function deletePublished(db: Db, id: string): Promise<void> {
  await db.execute(sql`delete from drafts where id = ${id}::uuid`);
}
