/**
 * What a post action writes beyond the posts module's own tables: a user's post and bookmark counters
 * (the users table), kept exact in the statement or transaction that changes the posts or bookmarks.
 * Called by the posts module only.
 */
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { posts, users } from '../db/schema.js';
import { publish, publishSql } from '../events/events.js';
import { unreadMentionRecipients } from '../events/notification-rules.js';

/** What the author of a post sets about its rights and warnings (see @share-arts/contract's rights). */
export type PostRights = Required<
  Pick<typeof posts.$inferInsert, 'contentWarning' | 'commentPolicy' | 'licence' | 'aiGenerated' | 'downloadable'>
>;

const DEFAULT_RIGHTS: PostRights = {
  contentWarning: null,
  commentPolicy: 'everyone',
  licence: 'all-rights-reserved',
  aiGenerated: false,
  downloadable: false,
};

/**
 * A new post with its pictures in order (post_media) and its process pictures (post_process_pictures, issue 41),
 * its author's post count and its event, in one statement (one round trip, its own transaction: a picture refused
 * by a constraint leaves nothing written); answers the post's id.
 */
export async function insertPost(
  db: Db,
  post: {
    authorId: string;
    content: string;
    tags: string[];
    mediaIds: string[];
    /** Its process pictures in order (post_process_pictures, issue 41); none when left out. */
    processMediaIds?: readonly string[];
    /** The content warning, comment policy, licence, AI label and downloads (the columns' defaults otherwise). */
    rights?: Partial<PostRights>;
    /** The language of its text (issue 43), canonical; null or left out: not said. */
    language?: string | null;
  },
): Promise<{ id: string; time: number }> {
  const rights = Object.fromEntries(
    Object.entries(DEFAULT_RIGHTS).map(([key, value]) => [key, post.rights?.[key as keyof PostRights] ?? value]),
  ) as PostRights;
  const tags = sql.join(
    post.tags.map((tag) => sql`${tag}`),
    sql`, `,
  );
  const [row] = await queryRows<{ id: string; created_at: string | Date }>(
    db,
    sql`with created as (
          insert into posts (author_id, content, tags, content_warning, comment_policy, licence, ai_generated,
                             downloadable, language)
          values (${post.authorId}::uuid, ${post.content}, array[${tags}]::text[], ${rights.contentWarning},
                  ${rights.commentPolicy}, ${rights.licence}, ${rights.aiGenerated}, ${rights.downloadable},
                  ${post.language ?? null})
          returning id, author_id, created_at, tags
        ),
        pictures as (
          insert into post_media (post_id, media_id, position)
          select created.id, picked.id::uuid, (picked.n - 1)::smallint
          from created, json_array_elements_text(${JSON.stringify(post.mediaIds)}::json) with ordinality as picked(id, n)
        ),
        process as (
          insert into post_process_pictures (post_id, media_id, position)
          select created.id, picked.id::uuid, (picked.n - 1)::smallint
          from created, json_array_elements_text(${JSON.stringify(post.processMediaIds ?? [])}::json) with ordinality as picked(id, n)
        ),
        counted as (
          update users u set post_count = u.post_count + 1 from created where u.id = created.author_id
        )
        select id, created_at, ${publishSql({
          type: 'post-published',
          postId: sql`id`,
          authorId: sql`author_id`,
          createdAt: sql`created_at`,
          tags: sql`tags`,
        })} from created`,
  );
  return { id: row!.id, time: new Date(row!.created_at).getTime() };
}

/**
 * Adds or removes a bookmark and the user's bookmark count in one statement (one round trip, its own
 * transaction). The post is key-share locked, as the bookmark's foreign key would: a post being deleted
 * (which counts its bookmarkers down under its row lock) waits for this, or this for it. Of two identical
 * requests, one changes the row.
 */
export async function setBookmarkRow(
  db: Db,
  userId: string,
  postId: string,
  add: boolean,
): Promise<{ found: boolean; changed: boolean }> {
  const change = add
    ? sql`insert into bookmarks (user_id, post_id) select ${userId}::uuid, id from post
          on conflict do nothing returning post_id`
    : sql`delete from bookmarks where user_id = ${userId}::uuid and post_id = (select id from post)
          returning post_id`;
  const [outcome] = await queryRows<{ found: boolean; changed: boolean }>(
    db,
    sql`with post as (select id from posts where id = ${postId}::uuid for key share),
        changed as (${change}),
        counted as (
          update users u set bookmark_count = u.bookmark_count + ${add ? 1 : -1}::int
          from changed where u.id = ${userId}::uuid
        )
        select exists (select from post) as found, exists (select from changed) as changed,
          (select count(${publishSql({ type: 'viewer-changed', userId: sql`${userId}::text` })}) from changed) as noted`,
  );
  return outcome!;
}

/**
 * Deletes a post (locked by the caller's transaction, see PostsService) with its reactions, comments and
 * bookmarks, which the foreign keys take with it, and keeps the counters exact: the bookmarkers'
 * bookmark counts and the author's post count. Every user row this changes is locked in id order first:
 * concurrent follows lock user rows in id order too, so the two can never wait on each other.
 */
export async function deletePostRow(tx: Db, postId: string, authorId: string): Promise<void> {
  await tx.execute(sql`
    select id from users
    where id = ${authorId}::uuid or id in (select user_id from bookmarks where post_id = ${postId}::uuid)
    order by id for no key update`);
  await tx.execute(sql`
    update users set bookmark_count = bookmark_count - 1
    where id in (select user_id from bookmarks where post_id = ${postId}::uuid)`);
  const mentioned = await unreadMentionRecipients(tx, { actorId: authorId, postId });
  await tx.delete(posts).where(eq(posts.id, postId));
  await tx
    .update(users)
    .set({ postCount: sql`${users.postCount} - 1` })
    .where(eq(users.id, authorId));
  // Its notifications went with it: the author's, and those of the people it mentioned.
  await publish(tx, { type: 'unread-changed', recipientId: authorId });
  for (const recipientId of mentioned) await publish(tx, { type: 'unread-changed', recipientId });
  await publish(tx, { type: 'post-changed', postId });
}
