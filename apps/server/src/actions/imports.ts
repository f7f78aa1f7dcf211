/**
 * What an import (issue 40) writes beyond the imports module's own tables: each imported work as a post with its
 * pictures in order (posts, post_media), its author's post count (users), and its pins (post_pins), in the
 * transaction that also remembers the source post (import_items) and moves the import's counts (imports). Called
 * by the imports module only.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { publish, publishSql } from '../events/events.js';
import type { PostRights } from './posts.js';

/** One source post as the import remembers it. */
export interface ImportedItem {
  importId: string;
  userId: string;
  /** Its place in the archive, oldest first. */
  position: number;
  /** What names it in its archive, the same in every import of that archive. */
  sourceKey: string;
  caption: string;
  date: Date | null;
  /** Pictures handled (imported or skipped). */
  pictures: number;
}

/** The import's counts moved by one source post, and the item written, in the caller's transaction. */
export async function recordItem(
  tx: Db,
  item: ImportedItem,
  outcome: { kind: 'imported' | 'already' | 'skipped'; postId: string | null; reason: string | null },
): Promise<void> {
  await queryRows(
    tx,
    sql`with item as (
          insert into import_items (import_id, position, user_id, source_key, outcome, post_id, reason, caption, date, pictures)
          values (${item.importId}::uuid, ${item.position}, ${item.userId}::uuid, ${item.sourceKey}, ${outcome.kind},
                  ${outcome.postId}::uuid, ${outcome.reason}, ${[...item.caption].slice(0, 200).join('')}, ${item.date?.toISOString() ?? null}::timestamptz,
                  ${item.pictures})
          on conflict (import_id, position) do nothing
          returning outcome
        )
        update imports set posts_done = posts_done + 1, pictures_done = pictures_done + ${item.pictures},
          imported = imported + (select count(*) from item where outcome = 'imported')::int,
          skipped = skipped + (select count(*) from item where outcome <> 'imported')::int
        where id = ${item.importId}::uuid and exists (select from item)`,
  );
}

/**
 * An imported work: the post at its original time (or now), its pictures in order, its author's post count, and
 * its `post-published` event marked `imported` (the Home timelines take it in at its place; no live frame, no
 * Create to the fediverse, no notification: mentions in an old caption notify nobody), with the source post
 * remembered, in one transaction. Answers the post's id.
 */
export async function insertImportedWork(
  db: Db,
  item: ImportedItem,
  work: {
    content: string;
    tags: string[];
    mediaIds: string[];
    createdAt: Date | null;
    rights: PostRights;
    importedFrom: string | null;
    /** Some pictures were skipped: why. */
    reason: string | null;
  },
): Promise<string> {
  return db.transaction(async (tx) => {
    const tags = sql.join(
      work.tags.map((tag) => sql`${tag}`),
      sql`, `,
    );
    const time = work.createdAt?.toISOString() ?? null;
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`with created as (
            insert into posts (author_id, content, tags, content_warning, comment_policy, licence, ai_generated,
                               downloadable, imported_from, created_at, updated_at)
            values (${item.userId}::uuid, ${work.content}, array[${tags}]::text[], ${work.rights.contentWarning},
                    ${work.rights.commentPolicy}, ${work.rights.licence}, ${work.rights.aiGenerated},
                    ${work.rights.downloadable}, ${work.importedFrom}, coalesce(${time}::timestamptz, now()),
                    coalesce(${time}::timestamptz, now()))
            returning id, author_id, created_at, tags
          ),
          pictures as (
            insert into post_media (post_id, media_id, position)
            select created.id, picked.id::uuid, (picked.n - 1)::smallint
            from created, json_array_elements_text(${JSON.stringify(work.mediaIds)}::json) with ordinality as picked(id, n)
          ),
          counted as (
            update users u set post_count = u.post_count + 1 from created where u.id = created.author_id
          )
          select id, ${publishSql({
            type: 'post-published',
            postId: sql`id`,
            authorId: sql`author_id`,
            createdAt: sql`created_at`,
            tags: sql`tags`,
            imported: sql`true`,
          })} from created`,
    );
    await recordItem(tx, item, { kind: 'imported', postId: row!.id, reason: work.reason });
    return row!.id;
  });
}

/**
 * The pins an archive brings (a Share Arts export's), in their order, after those the artist has: at most the six
 * a profile shows; a work pinned already keeps its place. The artist's profile changed (the fediverse's featured).
 */
export async function pinImportedWorks(db: Db, userId: string, postIds: string[]): Promise<void> {
  if (postIds.length === 0) return;
  await db.transaction(async (tx) => {
    await queryRows(
      tx,
      sql`insert into post_pins (post_id, user_id, position)
          select picked.id::uuid, ${userId}::uuid,
            ((select coalesce(max(position) + 1, 0) from post_pins where user_id = ${userId}::uuid) + picked.n - 1)::smallint
          from json_array_elements_text(${JSON.stringify(postIds)}::json) with ordinality as picked(id, n)
          where not exists (select from post_pins where post_id = picked.id::uuid)
            and (select coalesce(max(position) + 1, 0) from post_pins where user_id = ${userId}::uuid) + picked.n - 1 < 6
          on conflict do nothing`,
    );
    await publish(tx, { type: 'profile-changed', userId });
  });
}

/**
 * The profile an archive brought, applied once (the artist chose "Use the bio and photo from the archive"): its bio
 * replaces the account's (an archive without one leaves it), its photo (uploaded as an avatar by the media module,
 * as a photo from Settings is) becomes the account's, and what was done is written on the import, in one
 * transaction. Then `author-changed` (posts and lists show the photo) and `profile-changed` (the profile page, and
 * the fediverse's Update of the actor), as an edit in Settings publishes them. Answers the photo it replaced, for
 * the caller to delete as Settings does.
 */
export async function applyImportedProfile(
  db: Db,
  { importId, userId }: { importId: string; userId: string },
  profile: {
    bio: string;
    photo: { mediaId: string; url: string } | null;
    /** Why the archive's photo was not set, null when it was or there was none. */
    problem: string | null;
  },
): Promise<{ replacedPhoto: string | null }> {
  return db.transaction(async (tx) => {
    const applied = { bio: profile.bio !== '', photo: profile.photo !== null, problem: profile.problem };
    const [row] = await queryRows<{ replaced: string | null }>(
      tx,
      sql`with old as (select id, photo_media_id from users where id = ${userId}::uuid for update),
          changed as (
            update users u set
              bio = case when ${applied.bio}::boolean then ${profile.bio} else u.bio end,
              photo_media_id = coalesce(${profile.photo?.mediaId ?? null}::uuid, u.photo_media_id),
              photo_url = case when ${applied.photo}::boolean then ${profile.photo?.url ?? null} else u.photo_url end,
              updated_at = now()
            from old where u.id = old.id
            returning u.id
          ),
          noted as (
            update imports set preview = jsonb_set(preview, '{profileApplied}', ${JSON.stringify(applied)}::jsonb)
            where id = ${importId}::uuid
          )
          select case when old.photo_media_id is distinct from ${profile.photo?.mediaId ?? null}::uuid
                        and ${applied.photo}::boolean then old.photo_media_id end as replaced
          from old join changed on changed.id = old.id`,
    );
    if (!row) return { replacedPhoto: null };
    if (applied.photo) await publish(tx, { type: 'author-changed', userId });
    if (applied.photo || applied.bio) await publish(tx, { type: 'profile-changed', userId });
    return { replacedPhoto: row.replaced };
  });
}
