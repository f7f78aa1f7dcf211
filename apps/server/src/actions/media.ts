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
