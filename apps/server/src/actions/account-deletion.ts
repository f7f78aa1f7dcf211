/**
 * What deleting an account (issue 24) writes beyond the account-deletion module's own table: every row the
 * account owns, through the users row whose foreign keys take them with it (posts and their pictures,
 * reactions, comments and votes, bookmarks, follows, pins, tags followed, notifications to and from it,
 * blocks, mutes, muted words, reports it made, sessions, media rows, its commission panel, examples and the
 * artists it watched and its watchers: issue 42; its collections, and its works in others' collections, whose
 * counts their triggers keep: issue 41; the inquiries it sent or received, with their messages and reference
 * pictures, for both of their people: issue 42), and every counter it touched on
 * others' rows: posts' like, dislike and comment counts, comments' vote counts, people's follower,
 * following and bookmark counts. The tags' post counts follow the deleted posts by trigger (migration
 * 0012). Called by the account-deletion module only, inside its transaction.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import type { MediaVariant } from '../db/schema.js';
import { publishSql } from '../events/events.js';

/** The files of one picture of the account: removed from the media folder once the deletion committed. */
export interface DeletedMedia {
  original_file: string;
  variants: MediaVariant[];
}

/**
 * Deletes the account `userId` and all it owns, keeping others' counters exact, and answers its pictures'
 * files. Rows are locked in the order the other writers lock them (posts, then comments, then users in id
 * order: see deletePostRow and the comment actions), so a like, a follow or a post deletion running at
 * the same time waits for this or this for it, never both for each other. False when there is no such
 * account (deleted meanwhile). `posts` are the posts whose readers see a change: its own, and those it
 * reacted to, commented on or voted on a comment of.
 */
export async function deleteAccountRows(
  tx: Db,
  userId: string,
): Promise<{ found: boolean; media: DeletedMedia[]; posts: string[] }> {
  const me = sql`${userId}::uuid`;
  const ownPosts = sql`(select id from posts where author_id = ${me})`;

  // The posts whose counts change (others' it reacted to or commented on) and its own, which go.
  const posts = await queryRows<{ id: string }>(
    tx,
    sql`select id from posts
        where author_id = ${me}
           or id in (select post_id from post_reactions where user_id = ${me})
           or id in (select post_id from comments where author_id = ${me})
        order by id for no key update`,
  );
  // The comments whose vote counts change.
  const voted = await queryRows<{ post_id: string }>(
    tx,
    sql`select post_id from comments where id in (select comment_id from comment_votes where user_id = ${me})
        order by id for no key update`,
  );
  // The people whose counts change, and the account itself.
  const locked = await queryRows<{ id: string }>(
    tx,
    sql`select id from users
        where id = ${me}
           or id in (select followee_id from follows where follower_id = ${me})
           or id in (select follower_id from follows where followee_id = ${me})
           or id in (select user_id from bookmarks where post_id in ${ownPosts})
        order by id for no key update`,
  );
  if (!locked.some((row) => row.id === userId)) return { found: false, media: [], posts: [] };

  // Others' posts: the reactions and comments that leave them (a comment a moderator took away is counted no
  // more already), and their watchers told.
  await tx.execute(sql`
    with gone as (
      select post_id, count(*) filter (where kind = 'like') as likes, count(*) filter (where kind = 'dislike') as dislikes
      from post_reactions where user_id = ${me} group by post_id
    )
    update posts p set like_count = p.like_count - gone.likes, dislike_count = p.dislike_count - gone.dislikes
    from gone where p.id = gone.post_id and p.author_id <> ${me}`);
  await tx.execute(sql`
    with gone as (
      select post_id, count(*) as n from comments
      where author_id = ${me} and moderation_state is null group by post_id
    )
    update posts p set comment_count = p.comment_count - gone.n
    from gone where p.id = gone.post_id and p.author_id <> ${me}`);
  await tx.execute(sql`
    select ${publishSql({ type: 'post-counts-changed', postId: sql`id::text` })}
    from posts
    where author_id <> ${me}
      and (id in (select post_id from post_reactions where user_id = ${me})
           or id in (select post_id from comments where author_id = ${me}))`);

  // Others' comments: the votes that leave them.
  await tx.execute(sql`
    with gone as (
      select comment_id, count(*) filter (where kind = 'up') as ups, count(*) filter (where kind = 'down') as downs
      from comment_votes where user_id = ${me} group by comment_id
    )
    update comments c set upvote_count = c.upvote_count - gone.ups, downvote_count = c.downvote_count - gone.downs
    from gone where c.id = gone.comment_id and c.author_id <> ${me} and c.post_id not in ${ownPosts}`);
  await tx.execute(sql`
    select ${publishSql({ type: 'comments-changed', postId: sql`post_id::text`, voterId: sql`${userId}::text` })}
    from (select distinct c.post_id from comment_votes v join comments c on c.id = v.comment_id
          where v.user_id = ${me} and c.author_id <> ${me} and c.post_id not in ${ownPosts}) voted`);

  // Others' profiles: the follows both ways, and the bookmarks of its posts.
  await tx.execute(sql`
    update users set follower_count = follower_count - 1
    where id in (select followee_id from follows where follower_id = ${me})`);
  await tx.execute(sql`
    update users set following_count = following_count - 1
    where id in (select follower_id from follows where followee_id = ${me})`);
  await tx.execute(sql`
    with gone as (
      select user_id, count(*) as n from bookmarks
      where post_id in ${ownPosts} and user_id <> ${me} group by user_id
    )
    update users u set bookmark_count = u.bookmark_count - gone.n from gone where u.id = gone.user_id`);

  // Unread notifications that leave others' lists: its own actions, and others' on its posts and comments.
  await tx.execute(sql`
    select ${publishSql({ type: 'unread-changed', recipientId: sql`recipient_id::text` })}
    from (select distinct recipient_id from notifications
          where read_at is null and recipient_id <> ${me}
            and (actor_id = ${me} or post_id in ${ownPosts}
                 or comment_id in (select id from comments where author_id = ${me}))) told`);

  // Reports about the account, and the open ones about its posts and comments: their targets are gone.
  // What moderators did stays in the audit log (moderation_actions), which keeps its rows as written.
  await tx.execute(sql`
    delete from reports
    where (target_type = 'user' and target_id = ${me})
       or (status = 'open' and target_type = 'post' and target_id in ${ownPosts})
       or (status = 'open' and target_type = 'comment'
           and target_id in (select id from comments where author_id = ${me} or post_id in ${ownPosts}))
       or (status = 'open' and target_type = 'inquiry'
           and target_id in (select id from inquiries where artist_id = ${me} or client_id = ${me}))`);

  // Its own posts' readers: the posts leave every cache and screen.
  await tx.execute(sql`
    select ${publishSql({ type: 'post-changed', postId: sql`id::text` })} from posts where author_id = ${me}`);

  const media = await queryRows<DeletedMedia>(
    tx,
    sql`select original_file, variants from media where owner_id = ${me}`,
  );
  // The rest goes with the users row (ON DELETE CASCADE); its trigger sends account-deleted (migration 0009).
  await tx.execute(sql`delete from users where id = ${me}`);
  return {
    found: true,
    media,
    posts: [...new Set([...posts.map((row) => row.id), ...voted.map((row) => row.post_id)])],
  };
}
