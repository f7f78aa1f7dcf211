import { asc, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { postPins } from '../../db/schema.js';
import { publish } from '../../events/events.js';

/**
 * Makes an artist's pin writes take turns (a transaction-scoped advisory lock on their id), so two pins
 * racing for the 6th place cannot both have it, and a reorder never interleaves with a pin.
 */
export async function lockPinsOf(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`post_pins:${userId}`}, 0))`);
}

/** Who wrote the post; undefined when there is no such post. */
export async function selectPostAuthor(db: Db, postId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ author_id: string }>(db, sql`select author_id from posts where id = ${postId}::uuid`);
  return row?.author_id;
}

/** The ids of an artist's pinned posts, first shown first. */
export async function selectPinnedIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ postId: postPins.postId })
    .from(postPins)
    .where(eq(postPins.userId, userId))
    .orderBy(asc(postPins.position));
  return rows.map((row) => row.postId);
}

/** The ids of the pinned posts of the user with this username (any letter case), first shown first. */
export async function selectPinnedIdsByUsername(db: Db, username: string): Promise<string[]> {
  const rows = await queryRows<{ post_id: string }>(
    db,
    sql`select pp.post_id from post_pins pp
        where pp.user_id = (select id from users where lower(username) = lower(${username}))
        order by pp.position`,
  );
  return rows.map((row) => row.post_id);
}

/**
 * Makes `postIds` the artist's pinned posts in that order (positions 0, 1, …): one write for pin, unpin, reorder.
 * The profile's public copies show the pins (`profile-changed`: the fediverse re-reads the featured collection).
 */
export async function replacePins(tx: Db, userId: string, postIds: readonly string[]): Promise<void> {
  await tx.delete(postPins).where(eq(postPins.userId, userId));
  await publish(tx, { type: 'profile-changed', userId });
  if (postIds.length === 0) return;
  await tx.insert(postPins).values(postIds.map((postId, position) => ({ postId, userId, position })));
}
