import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { media, postMedia, postProcessPictures, type MediaVariant } from '../../db/schema.js';

export type MediaRow = typeof media.$inferSelect;
export type NewMediaRow = typeof media.$inferInsert;

export async function insertMedia(db: Db, row: NewMediaRow): Promise<MediaRow> {
  const [inserted] = await db.insert(media).values(row).returning();
  return inserted!;
}

export async function selectMediaById(db: Db, id: string): Promise<MediaRow | undefined> {
  const [row] = await db.select().from(media).where(eq(media.id, id));
  return row;
}

/** The row whose original is `file` (names are `<id>-original.<ext>`: the id finds it by its key). */
export async function selectMediaByOriginalFile(db: Db, id: string, file: string): Promise<MediaRow | undefined> {
  const [row] = await db
    .select()
    .from(media)
    .where(and(eq(media.id, id), eq(media.originalFile, file)));
  return row;
}

export async function selectMediaByIds(db: Db, ids: string[]): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(media).where(inArray(media.id, ids));
}

export async function updateMediaAlt(db: Db, id: string, alt: string): Promise<MediaRow | undefined> {
  const [row] = await db.update(media).set({ alt }).where(eq(media.id, id)).returning();
  return row;
}

/** Sets a picture's focal point (Mastodon's `focus`, issue 45); null clears it. */
export async function updateMediaFocus(
  db: Db,
  id: string,
  focus: { x: number; y: number } | null,
): Promise<MediaRow | undefined> {
  const [row] = await db
    .update(media)
    .set({ focusX: focus?.x ?? null, focusY: focus?.y ?? null })
    .where(eq(media.id, id))
    .returning();
  return row;
}

export async function deleteMediaRow(db: Db, id: string): Promise<MediaRow | undefined> {
  const [row] = await db.delete(media).where(eq(media.id, id)).returning();
  return row;
}

/** The ids among `ids` that have a row. */
export async function selectMediaIdsAmong(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: media.id }).from(media).where(inArray(media.id, ids));
  return rows.map((row) => row.id);
}

/**
 * Deletes up to `batch` pictures uploaded before `cutoff` that no post (as a picture or a process picture, issue
 * 41) and no profile uses, and no draft holds (draft_media, issue 41), in two
 * statements (see sweepMedia): the first locks the candidates, skipping a row locked by an attach in
 * progress, the second deletes those still unattached as seen by a new snapshot. `full` says a whole
 * batch was found (there may be more).
 */
export async function deleteUnattachedMedia(
  db: Db,
  cutoff: string,
  batch: number,
): Promise<{ rows: { original_file: string; variants: MediaVariant[] }[]; full: boolean }> {
  return db.transaction(async (tx) => {
    const locked = await queryRows<{ id: string }>(
      tx,
      sql`select m.id from media m
          where m.created_at < ${cutoff}::timestamptz
            and not exists (select 1 from post_media pm where pm.media_id = m.id)
            and not exists (select 1 from post_process_pictures pp where pp.media_id = m.id)
            and not exists (select 1 from post_revision_media rm where rm.media_id = m.id)
            and not exists (select 1 from users u where u.photo_media_id = m.id)
            and not exists (select 1 from draft_media dm where dm.media_id = m.id)
          limit ${batch} for update skip locked`,
    );
    if (locked.length === 0) return { rows: [], full: false };
    const gone = await queryRows<{ original_file: string; variants: MediaVariant[] }>(
      tx,
      sql`delete from media m
          where m.id in (${sql.join(
            locked.map((row) => sql`${row.id}::uuid`),
            sql`, `,
          )})
            and not exists (select 1 from post_media pm where pm.media_id = m.id)
            and not exists (select 1 from post_process_pictures pp where pp.media_id = m.id)
            and not exists (select 1 from post_revision_media rm where rm.media_id = m.id)
            and not exists (select 1 from users u where u.photo_media_id = m.id)
            and not exists (select 1 from draft_media dm where dm.media_id = m.id)
          returning original_file, variants`,
    );
    return { rows: gone, full: locked.length === batch };
  });
}

/**
 * What serving a media file needs to know of its picture (issue 23): whether its owner asks AI crawlers not
 * to train on their work, and whether a post showing it lets anyone download its original (a CC licence or
 * downloads allowed); the post showing it (a picture is in one post at most), and whether a moderator
 * removed that post (issue 38, item 6: its files are served to nobody). Primary-key probes of media, users,
 * post_media and post_process_pictures (a process picture follows its work's rights, issue 41; each by its unique
 * media_id) and posts. `kept`: no post shows it and a revision keeps it (issue 41, post history): served to nobody
 * under /media/ (its author sees it through the history's own route); `post_id` is then the revision's post, whose
 * change forgets what is remembered of it.
 */
export async function selectMediaRights(
  db: Db,
  id: string,
  withDownload: boolean,
): Promise<
  { ai_opt_out: boolean; may_download: boolean; post_id: string | null; removed: boolean; kept: boolean } | undefined
> {
  const [row] = await queryRows<{
    ai_opt_out: boolean;
    may_download: boolean;
    post_id: string | null;
    removed: boolean;
    kept: boolean;
  }>(
    db,
    sql`select u.ai_training_opt_out as ai_opt_out, ${
      withDownload
        ? // A work's original by its post's rights; one no post shows (a profile photo, an upload not yet
          // posted) is no published work, and its uploader may take it back.
          sql`coalesce(p.downloadable or p.licence <> 'all-rights-reserved', true)`
        : sql`false`
    } as may_download, coalesce(p.id, kept.post_id) as post_id, coalesce(p.moderation_state = 'removed', false) as removed,
        p.id is null and kept.post_id is not null as kept
        from media m join users u on u.id = m.owner_id
        -- A picture an edit took out, which the post's history keeps for its author (issue 41, migration 0045).
        left join lateral (
          select r.post_id from post_revision_media rm join post_revisions r on r.id = rm.revision_id
          where rm.media_id = m.id limit 1
        ) kept on true
        left join post_media pm on pm.media_id = m.id
        left join post_process_pictures pp on pp.media_id = m.id
        left join posts p on p.id = coalesce(pm.post_id, pp.post_id)
        where m.id = ${id}::uuid`,
  );
  return row;
}

/** The files (originals and variants) of the pictures the post shows, its process pictures' too (issue 41). */
export async function selectPostMediaFiles(
  db: Db,
  postId: string,
): Promise<Pick<MediaRow, 'originalFile' | 'variants'>[]> {
  const finished = db
    .select({ originalFile: media.originalFile, variants: media.variants })
    .from(postMedia)
    .innerJoin(media, eq(media.id, postMedia.mediaId))
    .where(eq(postMedia.postId, postId));
  const process = db
    .select({ originalFile: media.originalFile, variants: media.variants })
    .from(postProcessPictures)
    .innerJoin(media, eq(media.id, postProcessPictures.mediaId))
    .where(eq(postProcessPictures.postId, postId));
  return [...(await finished), ...(await process)];
}

/** A picture still without its rendition for other servers (migration 0037), what writing it needs. */
export type PendingRendition = Pick<MediaRow, 'id' | 'originalFile' | 'pixelated' | 'animated'>;

/** Up to `batch` pictures still without their rendition for other servers, oldest first (their partial index). */
export async function selectPendingRenditions(db: Db, batch: number): Promise<PendingRendition[]> {
  return db
    .select({
      id: media.id,
      originalFile: media.originalFile,
      pixelated: media.pixelated,
      animated: media.animated,
    })
    .from(media)
    .where(eq(media.federatedPending, true))
    .orderBy(media.createdAt)
    .limit(batch);
}

/**
 * Takes a pending picture for one run (clears its mark): false when another run took it or the row is gone. A run
 * that fails gives it back (releasePendingRendition); one that dies leaves it without (its JPEG goes out).
 */
export async function claimPendingRendition(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(media)
    .set({ federatedPending: false })
    .where(and(eq(media.id, id), eq(media.federatedPending, true)))
    .returning({ id: media.id });
  return rows.length > 0;
}

/** Marks a picture pending again, for the next run. */
export async function releasePendingRendition(db: Db, id: string): Promise<void> {
  await db.update(media).set({ federatedPending: true }).where(eq(media.id, id));
}

/**
 * Adds a picture's rendition for other servers to its variants, leaving the others as they are (one statement:
 * an alt text edited meanwhile is kept). False when the row is gone.
 */
export async function addFederatedRendition(db: Db, id: string, variant: MediaVariant): Promise<boolean> {
  const rows = await db
    .update(media)
    .set({ variants: sql`${media.variants} || ${JSON.stringify([variant])}::jsonb` })
    .where(eq(media.id, id))
    .returning({ id: media.id });
  return rows.length > 0;
}
