/**
 * What a picture change means for the posts module's tables: the post showing the picture (one at most,
 * through post_media) changed for its readers. Called by the media module only.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { publishSql } from '../events/events.js';

/** Tells every process that the post showing this picture, if any, changed (its caches, its watchers). */
export async function announcePictureChanged(db: Db, mediaId: string): Promise<void> {
  await db.execute(
    sql`select ${publishSql({ type: 'post-changed', postId: sql`post_id::text` })}
        from post_media where media_id = ${mediaId}::uuid`,
  );
}
