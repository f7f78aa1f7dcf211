/**
 * What a picture change means for the posts module's tables: the post showing the picture (one at most,
 * through post_media, or as a process picture through post_process_pictures, issue 41) changed for its readers.
 * Called by the media module only.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { publishSql } from '../events/events.js';

/** Tells every process that the post showing this picture, if any, changed (its caches, its watchers). */
export async function announcePictureChanged(db: Db, mediaId: string): Promise<void> {
  await db.execute(
    sql`select ${publishSql({ type: 'post-changed', postId: sql`post_id::text` })}
        from (select post_id from post_media where media_id = ${mediaId}::uuid
              union all select post_id from post_process_pictures where media_id = ${mediaId}::uuid) shown`,
  );
}

/**
 * A picture a post shows got a new alt text through the media route (POST /api/media/{id}/alt, issue 41): the post
 * keeps it in its history as an edit does (docs/post-history.md), a revision of the list the picture is in
 * (`pictures` or `processPictures`, the same counts before and after) keeping that list as it was, with the alt text
 * the picture had (`before`), and the post says "edited". Nothing when no post shows the picture. Run in the alt
 * text's own transaction, before it is written; the post's row is locked first, as an edit locks it.
 */
export async function recordAltRevision(tx: Db, mediaId: string, before: string): Promise<void> {
  await tx.execute(
    sql`select 1 from posts where id in (select post_id from post_media where media_id = ${mediaId}::uuid
                                         union all
                                         select post_id from post_process_pictures where media_id = ${mediaId}::uuid)
        for update`,
  );
  await tx.execute(
    sql`with shown as (
          select post_id, 'picture' as kind from post_media where media_id = ${mediaId}::uuid
          union all
          select post_id, 'process' from post_process_pictures where media_id = ${mediaId}::uuid
        ), list as (
          select s.post_id, s.kind, (row_number() over (partition by s.post_id order by x.position) - 1)::smallint as position,
                 x.media_id, case when x.media_id = ${mediaId}::uuid then ${before} else m.alt end as alt
          from shown s
          join lateral (
            select pm.position, pm.media_id from post_media pm where s.kind = 'picture' and pm.post_id = s.post_id
            union all
            select pp.position, pp.media_id from post_process_pictures pp
            where s.kind = 'process' and pp.post_id = s.post_id
          ) x on true
          join media m on m.id = x.media_id
        ), counted as (
          select post_id, kind, count(*)::int as n from list group by post_id, kind
        ), revision as (
          insert into post_revisions (post_id, changed, before, after, picture_count_before, picture_count_after)
          select post_id,
                 array[case when kind = 'picture' then 'pictures' else 'processPictures' end]::text[],
                 case when kind = 'process' then jsonb_build_object('processPictures', n) else '{}'::jsonb end,
                 case when kind = 'process' then jsonb_build_object('processPictures', n) else '{}'::jsonb end,
                 case when kind = 'picture' then n end, case when kind = 'picture' then n end
          from counted
          returning id, post_id
        ), kept as (
          insert into post_revision_media (revision_id, kind, position, media_id, alt)
          select r.id, l.kind, l.position, l.media_id, l.alt from revision r join list l on l.post_id = r.post_id
        )
        update posts set edited_at = now() where id in (select post_id from revision)`,
  );
}
