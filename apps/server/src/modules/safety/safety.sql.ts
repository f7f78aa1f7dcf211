import { sql, type SQL } from 'drizzle-orm';
import type { SafetyUserPage } from '@share-arts/contract';
import { commentedWorks } from '../../actions/federation.js';
import { queryRows, type Db } from '../../db/client.js';
import { publish, publishSql } from '../../events/events.js';
import { DEFAULT_AVATAR_URL } from '../../lib/assets.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';

/**
 * The SQL of blocks, mutes and muted words, and the conditions every other module's reads add with it
 * (posts.sql.ts's visibleTo, the comments, notifications, people lists). Each condition is a primary-key
 * or index probe per row; a viewer who blocked nobody and whom nobody blocked skips them (an init plan).
 */

/** Whether `a` and `b` are a blocked pair, either way (two index probes). */
export const blockedBetween = (a: SQL, b: SQL): SQL =>
  sql`(exists (select from blocks bl where bl.blocker_id = ${a} and bl.blocked_id = ${b})
    or exists (select from blocks bl where bl.blocker_id = ${b} and bl.blocked_id = ${a}))`;

/**
 * Neither the viewer blocked `other` nor `other` the viewer. The first part is computed once per statement:
 * someone in no block at all pays no probe per row.
 */
export const notBlockedWith = (viewerId: string, other: SQL): SQL => {
  const viewer = sql`${viewerId}::uuid`;
  return sql`((select not exists (select from blocks bl where bl.blocker_id = ${viewer})
           and not exists (select from blocks bl where bl.blocked_id = ${viewer}))
    or not ${blockedBetween(viewer, other)})`;
};

/** The viewer muted `other` (a primary-key probe). */
export const mutedBy = (viewerId: string, other: SQL): SQL =>
  sql`exists (select from mutes mu where mu.muter_id = ${viewerId}::uuid and mu.muted_id = ${other})`;

/** A muted word as a regular expression that finds it as a whole word, any letter case (`~*`). */
const wordPattern = (word: SQL): SQL =>
  sql`'(^|[^[:alnum:]_])' || regexp_replace(${word}, '([^[:alnum:][:space:]_])', '\\\\\\1', 'g') || '($|[^[:alnum:]_])'`;

/**
 * Posts (`p`) a viewer's lists show (Home, Explore, tag pages, search): not by someone they muted, and
 * carrying none of their muted words or #tags. Their own posts always. The words are read once per
 * statement (init plans), as one pattern and one array of tags.
 */
export const shownInListsTo = (viewerId: string): SQL => {
  const viewer = sql`${viewerId}::uuid`;
  const words = sql`(select string_agg(${wordPattern(sql`mw.word`)}, '|') from muted_words mw
      where mw.user_id = ${viewer} and left(mw.word, 1) <> '#')`;
  const tags = sql`(select array_agg(lower(substr(mw.word, 2))) from muted_words mw
      where mw.user_id = ${viewer} and left(mw.word, 1) = '#')`;
  return sql`(p.author_id = ${viewer} or (
    not ${mutedBy(viewerId, sql`p.author_id`)}
    and not coalesce(p.content ~* ${words}, false)
    and not coalesce(p.tags && ${tags}, false)))`;
};

/**
 * The muted words' part of shownInListsTo from the words the caller holds (safety/relations.ts remembers
 * them): the post `p` carries none of `words` (whole words, any case) nor of `tags` (lower case, no '#'); the
 * viewer's own posts always pass. Both lists are one JSON value each, read once per statement (init plans),
 * so the statement's text is the same for every viewer with muted words. `true` without any.
 */
export const carriesNoMutedWord = (viewerId: string, words: readonly string[], tags: readonly string[]): SQL => {
  if (words.length === 0 && tags.length === 0) return sql`true`;
  const pattern = sql`(select string_agg(${wordPattern(sql`w.value`)}, '|')
      from json_array_elements_text(${JSON.stringify(words)}::json) w)`;
  const mutedTags = sql`array(select json_array_elements_text(${JSON.stringify(tags)}::json))`;
  return sql`(p.author_id = ${viewerId}::uuid or (not coalesce(p.content ~* ${pattern}, false)
    and not (p.tags && ${mutedTags})))`;
};

/** The first of the viewer's muted words or #tags the post `p` carries (null for none, or their own post). */
export const mutedWordOf = (viewerId: string): SQL => sql`case when p.author_id = ${viewerId}::uuid then null else (
    select mw.word from muted_words mw
    where mw.user_id = ${viewerId}::uuid and case when left(mw.word, 1) = '#'
      then p.tags @> array[lower(substr(mw.word, 2))]::text[]
      else p.content ~* (${wordPattern(sql`mw.word`)}) end
    order by mw.created_at, mw.word limit 1) end`;

/** Of these people, those the viewer is in a blocked pair with, and those the viewer muted. */
export async function selectHiddenAmong(
  db: Db,
  viewerId: string,
  userIds: string[],
): Promise<{ blocked: Set<string>; muted: Set<string> }> {
  const rows = await queryRows<{ id: string; kind: 'blocked' | 'muted' }>(
    db,
    sql`with among as (select value::uuid as id from json_array_elements_text(${JSON.stringify(userIds)}::json))
        select bl.blocked_id as id, 'blocked' as kind from blocks bl join among a on a.id = bl.blocked_id
          where bl.blocker_id = ${viewerId}::uuid
        union all
        select bl.blocker_id, 'blocked' from blocks bl join among a on a.id = bl.blocker_id
          where bl.blocked_id = ${viewerId}::uuid
        union all
        select mu.muted_id, 'muted' from mutes mu join among a on a.id = mu.muted_id
          where mu.muter_id = ${viewerId}::uuid`,
  );
  const hidden = { blocked: new Set<string>(), muted: new Set<string>() };
  for (const row of rows) hidden[row.kind].add(row.id);
  return hidden;
}

/**
 * Everything the user does not see of others (safety/relations.ts remembers it): the people in a blocked pair
 * with them, those they muted, and their muted words (the last are at most SAFETY_LIMITS.mutedWordsMax).
 */
export function selectRelations(
  db: Db,
  userId: string,
): Promise<{ kind: 'blocked' | 'muted' | 'word'; value: string }[]> {
  const user = sql`${userId}::uuid`;
  return queryRows(
    db,
    sql`select 'blocked' as kind, blocked_id::text as value from blocks where blocker_id = ${user}
        union all
        select 'blocked', blocker_id::text from blocks where blocked_id = ${user}
        union all
        select 'muted', muted_id::text from mutes where muter_id = ${user}
        union all
        select 'word', word from muted_words where user_id = ${user}`,
  );
}

/** Tells every process that what these people hide changed (in the writing transaction). */
const relationsChanged = (tx: Db, ...userIds: string[]) => publish(tx, { type: 'relations-changed', userIds });

/** Whether the two are a blocked pair, either way. */
export async function isBlockedPair(db: Db, a: string, b: string): Promise<boolean> {
  const [row] = await queryRows<{ blocked: boolean }>(
    db,
    sql`select ${blockedBetween(sql`${a}::uuid`, sql`${b}::uuid`)} as blocked`,
  );
  return row?.blocked === true;
}

/**
 * Whether the user is in a blocked pair with the post's author ('post'), or else with the author of the
 * comment (when given) on it ('comment'); null otherwise, and for a post or comment that does not exist
 * (the caller answers those).
 */
export async function blockedFromPost(
  db: Db,
  userId: string,
  postId: string,
  commentId?: string,
): Promise<'post' | 'comment' | null> {
  const user = sql`${userId}::uuid`;
  const [row] = await queryRows<{ post: boolean; comment: boolean }>(
    db,
    sql`select exists (select from posts p where p.id = ${postId}::uuid and ${blockedBetween(user, sql`p.author_id`)}) as post,
      ${
        commentId
          ? sql`exists (select from comments c where c.id = ${commentId}::uuid and ${blockedBetween(user, sql`c.author_id`)})`
          : sql`false`
      } as comment`,
  );
  return row?.post ? 'post' : row?.comment ? 'comment' : null;
}

/**
 * The comment `c` is not by someone on another server whom its work's artist blocks (issue 39): such a comment is
 * hidden from everyone, the artist's works being theirs (a probe of the block's primary key per remote comment).
 */
const notByRemoteBlockedOnWork = sql`(c.remote_actor_id is null or not exists (
    select from remote_person_blocks rb join posts rp on rp.author_id = rb.user_id
    where rp.id = c.post_id and rb.remote_actor_id = c.remote_actor_id))`;

/**
 * A comment (`c`) the viewer sees: not by someone in a blocked pair with them, nor by someone they muted, nor by
 * someone on another server they block (issue 39); and, for everyone, not by someone on another server the work's
 * artist blocks.
 */
export const commentShownTo = (viewerId: string | null): SQL =>
  viewerId === null
    ? notByRemoteBlockedOnWork
    : sql`(c.author_id = ${viewerId}::uuid or (${notBlockedWith(viewerId, sql`c.author_id`)}
        and not ${mutedBy(viewerId, sql`c.author_id`)}
        and not exists (select from remote_person_blocks rb
          where rb.user_id = ${viewerId}::uuid and rb.remote_actor_id = c.remote_actor_id)))
      and ${notByRemoteBlockedOnWork}`;

/** Whether the user with this username (any letter case) blocked the viewer: to the viewer, they are not there. */
export async function blockedViewer(db: Db, username: string, viewerId: string): Promise<boolean> {
  const [row] = await queryRows<{ blocked: boolean }>(
    db,
    sql`select exists (
          select from users u join blocks bl on bl.blocker_id = u.id
          where lower(u.username) = lower(${username}) and bl.blocked_id = ${viewerId}::uuid
        ) as blocked`,
  );
  return row?.blocked === true;
}

/** Of these users, those in a blocked pair with `userId` (the live stream's post frames skip them). */
export async function selectBlockedAmong(db: Db, userId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  return (await selectHiddenAmong(db, userId, userIds)).blocked;
}

/** The id of the user with this username (any letter case). */
export async function selectUserIdByUsername(db: Db, username: string): Promise<string | undefined> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from users where lower(username) = lower(${username})`,
  );
  return row?.id;
}

/**
 * Blocks `blockedId` (idempotent), in one transaction under both users' row locks (in id order, as a
 * follow takes them): ends their follows both ways with both users' counters, and deletes the
 * notifications between them (each recipient hears their unread count changed). The blocked person
 * is not told.
 */
export async function insertBlock(db: Db, blockerId: string, blockedId: string): Promise<void> {
  const blocker = sql`${blockerId}::uuid`;
  const blocked = sql`${blockedId}::uuid`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select from users where id in (${blocker}, ${blocked}) order by id for no key update`);
    await tx.execute(
      sql`insert into blocks (blocker_id, blocked_id) values (${blocker}, ${blocked}) on conflict do nothing`,
    );
    await tx.execute(
      sql`with ended as (
            delete from follows
            where (follower_id = ${blocker} and followee_id = ${blocked}) or (follower_id = ${blocked} and followee_id = ${blocker})
            returning follower_id, followee_id
          )
          update users u set
            following_count = u.following_count - (select count(*) from ended where ended.follower_id = u.id)::int,
            follower_count = u.follower_count - (select count(*) from ended where ended.followee_id = u.id)::int
          where u.id in (${blocker}, ${blocked}) and exists (select from ended)`,
    );
    await tx.execute(
      sql`with removed as (
            delete from notifications n
            where (n.recipient_id = ${blocker} and n.actor_id = ${blocked}) or (n.recipient_id = ${blocked} and n.actor_id = ${blocker})
            returning n.recipient_id, n.read_at
          )
          select count(${publishSql({ type: 'unread-changed', recipientId: sql`recipient_id` })})
          from (select distinct recipient_id from removed where read_at is null) unread`,
    );
    await relationsChanged(tx, blockerId, blockedId);
  });
}

// Each write below tells every process (relations-changed) in its transaction, sent only if it commits.

export async function deleteBlock(db: Db, blockerId: string, blockedId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from blocks where blocker_id = ${blockerId}::uuid and blocked_id = ${blockedId}::uuid`);
    await relationsChanged(tx, blockerId, blockedId);
  });
}

export async function insertMute(db: Db, muterId: string, mutedId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`insert into mutes (muter_id, muted_id) values (${muterId}::uuid, ${mutedId}::uuid) on conflict do nothing`,
    );
    await relationsChanged(tx, muterId);
  });
}

export async function deleteMute(db: Db, muterId: string, mutedId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from mutes where muter_id = ${muterId}::uuid and muted_id = ${mutedId}::uuid`);
    await relationsChanged(tx, muterId);
  });
}

/**
 * An artist's block of a remote person that is lifted (their comments on the artist's works shown again, the works told
 * changed): its actor and the Block sent, for the Undo; null when none.
 */
export async function deleteRemoteBlock(
  db: Db,
  userId: string,
  remoteActorId: string,
): Promise<{ iri: string; inbox: string; blockId: string } | null> {
  const [row] = await queryRows<{ iri: string; inbox: string; block_id: string }>(
    db,
    sql`with gone as (
          delete from remote_person_blocks
          where user_id = ${userId}::uuid and remote_actor_id = ${remoteActorId}::uuid
          returning remote_actor_id, block_id
        ),
        ${commentedWorks(sql`${userId}::uuid`, sql`${remoteActorId}::uuid`, sql`exists (select from gone)`)}
        select ra.iri, ra.inbox, gone.block_id::text, (select told from commented_told) as told
        from gone join remote_actors ra on ra.id = gone.remote_actor_id`,
  );
  return row ? { iri: row.iri, inbox: row.inbox, blockId: row.block_id } : null;
}

/** Whether a remote actor (a follower's or a notification's `_id`) is known here. */
export async function remotePersonExists(db: Db, remoteActorId: string): Promise<boolean> {
  const [row] = await queryRows(db, sql`select from remote_actors where id = ${remoteActorId}::uuid`);
  return row !== undefined;
}

const LISTS = {
  blocks: { table: 'blocks', own: 'blocker_id', other: 'blocked_id' },
  mutes: { table: 'mutes', own: 'muter_id', other: 'muted_id' },
} as const;

/**
 * A keyset page of the people the user blocks or mutes, the most recent first (created_at, id). Blocks also hold
 * people on other servers (`remote_person_blocks`, issue 39), merged in the same order: each side reads at most a
 * page past the cursor, as the followers list does.
 */
export async function selectListPage(
  db: Db,
  list: keyof typeof LISTS,
  userId: string,
  options: { limit: number; cursor?: string | undefined },
): Promise<SafetyUserPage> {
  const { table, own, other } = LISTS[list];
  const order = (created: string, id: string): Keyset => ({
    columns: [sql.raw(created), sql.raw(id)],
    shape: ['date', 'uuid'],
    direction: 'desc',
  });
  const local = keysetQuery(order('x.created_at', `x.${other}`), options.cursor, options.limit);
  const remote = keysetQuery(order('x.created_at', 'x.remote_actor_id'), options.cursor, options.limit);
  const merged = keysetQuery(order('l.created_at', 'l.id'), undefined, options.limit);
  const remoteSide =
    list === 'blocks'
      ? sql`union all
          (select ra.id, ra.handle, ra.name, '', null, ra.handle, coalesce(ra.profile_url, ra.iri), x.created_at
           from remote_person_blocks x join remote_actors ra on ra.id = x.remote_actor_id
           where x.user_id = ${userId}::uuid and ${remote.after}
           order by ${remote.orderBy} ${remote.limit})`
      : sql``;
  const rows = await queryRows<{
    id: string;
    username: string;
    first_name: string;
    last_name: string;
    photo_url: string | null;
    handle: string | null;
    url: string | null;
    created_at: string;
  }>(
    db,
    sql`select l.* from (
          (select u.id, u.username, u.first_name, u.last_name, u.photo_url, null::text as handle, null::text as url,
             x.created_at
           from ${sql.raw(table)} x join users u on u.id = x.${sql.raw(other)}
           where x.${sql.raw(own)} = ${userId}::uuid and ${local.after}
           order by ${local.orderBy} ${local.limit})
          ${remoteSide}
        ) l
        order by ${merged.orderBy}
        ${merged.limit}`,
  );
  const { page, nextCursor } = keysetPage(rows, options.limit, ['date', 'uuid'], (row) => [row.created_at, row.id]);
  return {
    users: page.map((row) => ({
      _id: row.id,
      username: row.username,
      firstName: row.first_name,
      lastName: row.last_name,
      userPhoto: row.photo_url ?? DEFAULT_AVATAR_URL,
      ...(row.handle && row.url ? { remote: { handle: row.handle, url: row.url } } : {}),
    })),
    nextCursor,
  };
}

export interface MutedWordRow {
  word: string;
  created_at: Date | string;
}

/** The user's muted words, the most recent first (at most 200, the cap). */
export function selectMutedWords(db: Db, userId: string): Promise<MutedWordRow[]> {
  return queryRows<MutedWordRow>(
    db,
    sql`select word, created_at from muted_words where user_id = ${userId}::uuid
        order by created_at desc, word desc limit 200`,
  );
}

/**
 * Adds a muted word under the user's lock (an advisory lock on their id: two adds racing for the last
 * place cannot both have it). Answers 'full' at the cap, 'duplicate' when muted already (any case).
 */
export async function insertMutedWord(
  db: Db,
  userId: string,
  word: string,
  cap: number,
): Promise<MutedWordRow | 'full' | 'duplicate'> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`muted_words:${userId}`}, 0))`);
    const [count] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from muted_words where user_id = ${userId}::uuid`,
    );
    const [inserted] = await queryRows<MutedWordRow>(
      tx,
      sql`insert into muted_words (user_id, word)
          select ${userId}::uuid, ${word}
          where not exists (select from muted_words where user_id = ${userId}::uuid and lower(word) = lower(${word}))
            and ${Number(count?.n ?? 0)}::int < ${cap}::int
          returning word, created_at`,
    );
    if (inserted) {
      await relationsChanged(tx, userId);
      return inserted;
    }
    const [existing] = await queryRows(
      tx,
      sql`select from muted_words where user_id = ${userId}::uuid and lower(word) = lower(${word})`,
    );
    return existing ? 'duplicate' : 'full';
  });
}

/** Removes a muted word (any letter case); false when the user did not mute it. */
export async function deleteMutedWord(db: Db, userId: string, word: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await queryRows(
      tx,
      sql`delete from muted_words where user_id = ${userId}::uuid and lower(word) = lower(${word}) returning word`,
    );
    if (rows.length > 0) await relationsChanged(tx, userId);
    return rows.length > 0;
  });
}
