import { eq, sql, type SQL } from 'drizzle-orm';
import { POST_COMMENT_CAP, POST_REACTION_CAP, type Comment, type ReactionUser, type Sort } from '@share-arts/contract';
import { queryRows, statementTemplate, type Db } from '../../db/client.js';
import { postMedia, postProcessPictures, posts } from '../../db/schema.js';
import { keysetPage, keysetQuery, type Keyset } from '../../lib/keyset.js';
import { encodeCursor, type CursorPart, type CursorValue } from '../../lib/cursor.js';
import { literalLimit } from '../../lib/sql-limit.js';
import { mediaJson, reactorsJson } from '../../lib/sql-json.js';
import { newestCommentsJson } from '../comments/index.js';
import type { MediaRow } from '../media/index.js';
import { notificationCtes } from '../../events/notification-rules.js';
import { notePublish, publish, publishSql } from '../../events/events.js';
import { reactionStatements, runReaction } from '../../lib/reaction-statement.js';
import { carriesNoMutedWord, mutedWordOf, notBlockedWith, shownInListsTo, type Relations } from '../safety/index.js';
import { openArtistMatching, openForCommissionsOf, type CommissionFilter } from '../commissions/index.js';

export interface PostRow {
  id: string;
  content: string;
  /** The language of its text (issue 43): a canonical BCP 47 tag; null: not said. */
  language: string | null;
  created_at: string;
  updated_at: string;
  /** When an edit last changed what readers see (issue 41); null: never edited. */
  edited_at: string | null;
  like_count: number;
  dislike_count: number;
  author_id: string;
  username: string;
  first_name: string;
  last_name: string;
  author_photo_url: string | null;
  content_warning: string | null;
  comment_policy: 'everyone' | 'following' | 'nobody';
  licence: 'all-rights-reserved' | 'cc-by' | 'cc-by-sa' | 'cc-by-nc' | 'cc-by-nc-nd' | 'cc0';
  ai_generated: boolean;
  downloadable: boolean;
  /** A work from another server (following out, issue 39): its Note's id and its page there; null for ours. */
  note_iri: string | null;
  note_url: string | null;
  /** An imported work's source (issue 40), null otherwise. */
  imported_from: string | null;
  /** The author is open for commissions (issue 42): the "open" badge; a change of it drops the author's posts. */
  author_open: boolean;
  /** Its pictures in the author's order (toPicture reads them). */
  media: MediaRow[];
  liked_by: { _id: string; username: string }[];
  disliked_by: { _id: string; username: string }[];
  /** The newest comments as anyone sees them (viewerVote null), newest first. */
  comments: Comment[];
}

/** What a page reads per request: which posts, their counters and the viewer's flags (never cached). */
export interface PostKeyRow {
  id: string;
  author_id: string;
  like_count: number;
  dislike_count: number;
  comment_count: number;
  viewer_reaction: 'like' | 'dislike' | null;
  viewer_bookmarked: boolean;
  viewer_follows_author: boolean;
  viewer_username: string | null;
  /** Its author only: a moderator hid the post, and why (null otherwise). */
  moderation: { state: 'hidden'; reason: string } | null;
  /** Home only: the followed tag that brought a post by someone the viewer does not follow. */
  reason_tag?: string | null;
  /** A single post only: the viewer's muted word or #tag it carries (see mutedWordOf). */
  viewer_muted_word?: string | null;
}

/** A page row: its keys, and its sort key for the cursor. */
type PageRow = PostKeyRow & { k0: CursorValue; k1: CursorValue; k2?: CursorValue };

export type PostOrder = Sort | 'reacted' | 'bookmarked';

const keyset = (columns: string[], shape: CursorPart[], direction: 'asc' | 'desc'): Keyset => ({
  columns: columns.map((column) => sql.raw(column)),
  shape,
  direction,
});

const ORDERINGS: Record<PostOrder, Keyset> = {
  latest: keyset(['p.created_at', 'p.id'], ['date', 'uuid'], 'desc'),
  oldest: keyset(['p.created_at', 'p.id'], ['date', 'uuid'], 'asc'),
  trending: keyset(['p.like_count', 'p.created_at', 'p.id'], ['int', 'date', 'uuid'], 'desc'),
  // Liked and Saved tabs: newest like or bookmark first (`x` is the joined reaction or bookmark).
  reacted: keyset(['x.created_at', 'x.post_id'], ['date', 'uuid'], 'desc'),
  bookmarked: keyset(['x.created_at', 'x.post_id'], ['date', 'uuid'], 'desc'),
};

const ANONYMOUS_VIEWER_COLUMNS = sql`
    null::text as viewer_reaction, false as viewer_bookmarked, false as viewer_follows_author`;

/**
 * What only the viewer sees of a post, on `p`: one primary-key probe each per row (scalar subqueries,
 * not `exists`, which PostgreSQL may run as a hash of all the viewer's follows or bookmarks on every
 * page: 6,700 against 8,600 pages a second in pgbench), and no reaction probe on a post without any.
 * Constants without a viewer (no lookups). `followsAuthor` replaces the follow probe where the page's
 * condition already decides it (the home feed).
 */
const viewerColumns = (viewerId: string | null, followsAuthor?: SQL): SQL =>
  viewerId === null
    ? ANONYMOUS_VIEWER_COLUMNS
    : sql`
    case when p.like_count + p.dislike_count = 0 then null
      else (select r.kind from post_reactions r where r.post_id = p.id and r.user_id = ${viewerId}::uuid) end as viewer_reaction,
    coalesce(
      (select true from bookmarks b where b.user_id = ${viewerId}::uuid and b.post_id = p.id), false
    ) as viewer_bookmarked,
    ${
      followsAuthor ??
      sql`coalesce(
      (select true from follows f where f.follower_id = ${viewerId}::uuid and f.followee_id = p.author_id), false
    )`
    } as viewer_follows_author`;

/**
 * A post's pictures in order, as one JSON array: the post_media primary key (post_id, position) reads
 * them in order, a probe of media's primary key each.
 */
const POST_MEDIA = sql`coalesce((
      select json_agg(${mediaJson('m')} order by pm.position)
      from post_media pm join media m on m.id = pm.media_id
      where pm.post_id = p.id
    ), '[]'::json)`;

/** A post's newest reactors, as anyone sees them. */
const REACTOR_COLUMNS = sql`
    ${reactorsJson({ table: 'post_reactions', column: 'post_id', id: sql`p.id`, kind: 'like', viewerId: null, cap: POST_REACTION_CAP, count: sql`p.like_count` })} as liked_by,
    ${reactorsJson({ table: 'post_reactions', column: 'post_id', id: sql`p.id`, kind: 'dislike', viewerId: null, cap: POST_REACTION_CAP, count: sql`p.dislike_count` })} as disliked_by`;

/**
 * A post's like count as the site shows it: its likes here (`like_count`, the `post_reactions` likes) and from
 * other servers (`remote_like_count`, issue 39). The rules of a like and a dislike read `like_count` alone.
 */
const SHOWN_LIKE_COUNT = sql`(p.like_count + p.remote_like_count)`;

/** The columns of a post as anyone sees it (the post cache's part; lists and single posts add the rest). */
const POST_COLUMNS = sql`
    p.id, p.content, p.created_at, p.updated_at, p.edited_at, ${SHOWN_LIKE_COUNT} as like_count, p.dislike_count,
    p.author_id, u.username, u.first_name, u.last_name, u.photo_url as author_photo_url,
    p.content_warning, p.comment_policy, p.licence, p.ai_generated, p.downloadable, p.language,
    p.note_iri, p.note_url, p.imported_from, ${openForCommissionsOf(sql`p.author_id`)} as author_open,
    ${POST_MEDIA} as media,
    ${REACTOR_COLUMNS},
    case when p.comment_count = 0 then '[]'::json else ${newestCommentsJson(sql`p.id`, POST_COMMENT_CAP)} end as comments`;

/**
 * The columns every post read takes per request: counters and viewer flags only. The newest comments are
 * the post cache's (read with the rest of the post when it is filled); the viewer's votes on them are
 * read once per page, and only when a shown comment has votes (see PostsService).
 */
const keyColumnsOf = (viewerId: string | null, followsAuthor?: SQL, flagsInMemory = false): SQL => sql`
    p.id, p.author_id, ${SHOWN_LIKE_COUNT} as like_count, p.dislike_count, p.comment_count, ${
      // The viewer's flags from memory (posts/viewer-state.ts, issue 26): not in the statement at all, the
      // reader fills them in (see PageRequest's flagsInMemory).
      flagsInMemory
        ? sql``
        : sql`${viewerColumns(viewerId, followsAuthor)},
    ${viewerId === null ? sql`null::text` : sql`(select username from users where id = ${viewerId}::uuid)`} as viewer_username,`
    }
    ${
      viewerId === null
        ? sql`null::json`
        : sql`case when p.moderation_state = 'hidden' and p.author_id = ${viewerId}::uuid
            then json_build_object('state', 'hidden', 'reason', p.moderation_reason) end`
    } as moderation`;

const FROM = sql`from posts p join users u on u.id = p.author_id`;

/** A post's newest reactors, read alone to bring a post cache entry's lists up to date. */
export interface PostReactors {
  id: string;
  likedBy: ReactionUser[];
  dislikedBy: ReactionUser[];
}

/** The newest reactors of these posts (the post cache's lists, as POST_COLUMNS reads them); missing ids are skipped. */
export async function selectPostReactors(db: Db, ids: string[]): Promise<PostReactors[]> {
  const rows = await queryRows<{ id: string; liked_by: ReactionUser[]; disliked_by: ReactionUser[] }>(
    db,
    sql`select p.id, ${REACTOR_COLUMNS} from posts p
        where p.id in (select value::uuid from json_array_elements_text(${JSON.stringify(ids)}::json))`,
  );
  return rows.map((row) => ({ id: row.id, likedBy: row.liked_by, dislikedBy: row.disliked_by }));
}

/** Posts by id as anyone sees them (no viewer), in no particular order; missing ids are skipped. */
export function selectPostsByIds(db: Db, ids: string[]): Promise<PostRow[]> {
  return queryRows<PostRow>(
    db,
    sql`select ${POST_COLUMNS} ${FROM}
        where p.id in (select value::uuid from json_array_elements_text(${JSON.stringify(ids)}::json))`,
  );
}

/**
 * Signed out, the posts of those who show their works to signed-in people only are not there at all: every
 * read of posts (one post, each list, search, tag pages, feeds) picks its rows through one of the three
 * statements below, each of which adds this condition for a signed-out viewer.
 */
const visibleTo = (viewerId: string | null, { blocksInMemory = false, despiteOwnBlock = false } = {}): SQL =>
  sql`${moderationVisible(viewerId)} and ${
    blocksInMemory
      ? sql`true`
      : despiteOwnBlock && viewerId !== null
        ? sql`not exists (select from blocks bl where bl.blocker_id = p.author_id and bl.blocked_id = ${viewerId}::uuid)`
        : blocksVisible(viewerId)
  } and ${
    viewerId === null
      ? sql`not exists (select from users hidden where hidden.id = p.author_id and (hidden.works_signed_in_only or hidden.suspended_until > now()))`
      : sql`not exists (select from users hidden where hidden.id = p.author_id and hidden.suspended_until > now() and hidden.id <> ${viewerId}::uuid)`
  }`;

/** Blocks (issue 23): neither the viewer blocked the author nor the author the viewer. */
const blocksVisible = (viewerId: string | null): SQL =>
  viewerId === null ? sql`true` : notBlockedWith(viewerId, sql`p.author_id`);

/** A viewer's muted words and tags, as safety/relations.ts remembers them. */
export type MutedWords = Pick<Relations, 'words' | 'tags'>;

/**
 * What lists (Home, Explore, tag pages, search) leave out for the viewer: muted people and words, and
 * AI-generated works when the viewer hides them. With the viewer's muted words given (`muted`, the pages
 * of selectPostRows), the muted people are left to the caller, who holds them in memory too.
 */
const listedFor = (viewerId: string | null, muted?: MutedWords): SQL =>
  viewerId === null
    ? sql`true`
    : sql`${muted ? carriesNoMutedWord(viewerId, muted.words, muted.tags) : shownInListsTo(viewerId)} and ${aiShownTo(viewerId)}`;

/**
 * "Hide AI-generated works" (issue 23): the viewer's setting is read once per statement (an init plan),
 * and only an AI-labelled post asks for it.
 */
const aiShownTo = (viewerId: string): SQL =>
  sql`(not p.ai_generated or not (select v.hide_ai_generated from users v where v.id = ${viewerId}::uuid))`;

/**
 * Moderation (issue 23): a removed post is there for nobody, a hidden one for its author only; the posts of
 * a suspended account for nobody but its owner (the `users hidden` probe above).
 */
const moderationVisible = (viewerId: string | null): SQL =>
  viewerId === null
    ? sql`p.moderation_state is null`
    : sql`(p.moderation_state is null or (p.moderation_state = 'hidden' and p.author_id = ${viewerId}::uuid))`;

/** The per-request part of these posts (see PostKeyRow), in no particular order; missing ids are skipped. */
export function selectPostKeys(
  db: Db,
  ids: string[],
  viewerId: string | null,
  { asList = false, flagsInMemory = false }: { asList?: boolean; flagsInMemory?: boolean } = {},
): Promise<PostKeyRow[]> {
  return queryRows<PostKeyRow>(
    db,
    sql`select ${keyColumnsOf(viewerId, undefined, flagsInMemory)} from posts p
        where p.id in (select value::uuid from json_array_elements_text(${JSON.stringify(ids)}::json))
          and ${visibleTo(viewerId)} and ${asList ? listedFor(viewerId) : sql`true`}`,
  );
}

/** One row of a viewer's state: what they reacted to (like, dislike), saved (bookmark), follow, and their name. */
export interface ViewerStateRow {
  kind: 'like' | 'dislike' | 'bookmark' | 'follow' | 'username';
  value: string;
}

/**
 * A viewer's reactions, bookmarks and follows and their username (username first), at most `limit` rows:
 * index scans of the viewer's own rows (posts/viewer-state.ts remembers them, issue 26).
 */
export function selectViewerState(db: Db, viewerId: string, limit: number): Promise<ViewerStateRow[]> {
  const viewer = sql`${viewerId}::uuid`;
  return queryRows<ViewerStateRow>(
    db,
    sql`(select 'username' as kind, username as value from users where id = ${viewer})
        union all (select kind, post_id::text from post_reactions where user_id = ${viewer})
        union all (select 'bookmark', post_id::text from bookmarks where user_id = ${viewer})
        union all (select 'follow', followee_id::text from follows where follower_id = ${viewer})
        ${literalLimit(limit)}`,
  );
}

/**
 * Whether the post exists but is not there for this viewer (moderation: hidden from all but its author,
 * removed, or by a suspended account; a blocked pair's, either way; signed out, shown to signed-in people
 * only): nobody may like, save or comment on what they cannot see (issue 23).
 */
export async function selectPostHiddenFrom(db: Db, postId: string, viewerId: string | null): Promise<boolean> {
  const [row] = await queryRows<{ hidden: boolean }>(
    db,
    sql`select not (${visibleTo(viewerId)}) as hidden from posts p where p.id = ${postId}::uuid`,
  );
  return row?.hidden === true;
}

/** One post as selectPostKeys reads it; undefined when there is no such post. */
export async function selectPostKey(db: Db, postId: string, viewerId: string | null): Promise<PostKeyRow | undefined> {
  const [row] = await queryRows<PostKeyRow>(
    db,
    sql`select ${keyColumnsOf(viewerId)}${viewerId === null ? sql`` : sql`, ${mutedWordOf(viewerId)} as viewer_muted_word`}
        from posts p where p.id = ${postId}::uuid and ${visibleTo(viewerId)}`,
  );
  return row;
}

/**
 * Whether the viewer may report the post: they see it, or would but for their own block of its author (one
 * blocks someone who harasses them, then reports: issue 38, item 14). The author's block of them still hides it.
 */
export async function selectReportable(db: Db, postId: string, viewerId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from posts p where p.id = ${postId}::uuid and ${visibleTo(viewerId, { despiteOwnBlock: true })}`,
  );
  return rows.length > 0;
}

export interface PageRequest {
  order: PostOrder;
  limit: number;
  cursor?: string | undefined;
  viewerId: string | null;
  /** Which posts: a condition on `p` (and `x`, when `join` adds it). */
  where: SQL;
  /** For the Liked and Saved tabs: the joined reaction or bookmark, aliased `x`. */
  join?: SQL;
  /** Whether the viewer follows each post's author, when `where` already decides it. */
  followsAuthor?: SQL;
  /** Why each post is on the list, when it is not for the usual reason (Home: a followed tag), on `p`. */
  reason?: SQL;
  /**
   * Blocks as a condition of the statement, not left to the caller (selectPostRows): for a list of one author,
   * whom a block hides whole (two index probes per statement rather than a walk through their posts).
   */
  blocksInSql?: boolean;
  /**
   * The viewer's flags (reaction, bookmark, follow, username) are not read: the caller fills them from memory
   * (issue 26), so a row costs no lookups of the viewer's.
   */
  flagsInMemory?: boolean;
}

/**
 * `count` rows of a keyset list past `cursor` (all when fewer remain): which posts, with their per-request
 * part (see PostKeyRow; the rest of each post comes from the post cache), and the cursor that continues after
 * any of them. Blocks (unless `blocksInSql`) and muted people are not applied here: the caller (posts.reader.ts)
 * holds the viewer's in memory and drops those rows itself, asking for more when the page came out short.
 */
export async function selectPostRows(
  db: Db,
  request: Omit<PageRequest, 'limit'>,
  count: number,
): Promise<{ rows: PostKeyRow[]; cursorOf: (row: PostKeyRow) => string }> {
  const ordering = ORDERINGS[request.order];
  const { after, orderBy } = keysetQuery(ordering, request.cursor, count);
  const sortKey = sql.join(
    ordering.columns.map((column, i) => sql`${column} as ${sql.raw(`k${i}`)}`),
    sql`, `,
  );
  const rows = await queryRows<PageRow>(
    db,
    sql`select ${keyColumnsOf(request.viewerId, request.followsAuthor, request.flagsInMemory)}, ${sortKey}${
      request.reason ? sql`, ${request.reason} as reason_tag` : sql``
    }
        from posts p ${request.join ?? sql``}
        where (${request.where}) and ${visibleTo(request.viewerId, { blocksInMemory: !request.blocksInSql })} and ${after}
        order by ${orderBy}
        ${literalLimit(count)}`,
  );
  const cursorOf = (row: PostKeyRow) => {
    const keys = row as PageRow;
    return encodeCursor(ordering.shape.map((part, i) => cursorValue(keys[`k${i}` as 'k0'], part)));
  };
  return { rows, cursorOf };
}

/** A sort key as the driver returned it (a date as text, a bigint as text) in its cursor form. */
const cursorValue = (value: CursorValue | undefined, part: CursorPart): CursorValue =>
  part === 'date'
    ? new Date(value as string | Date)
    : part === 'int' || part === 'float'
      ? Number(value)
      : String(value);

/** What a like or dislike did: `found` false for no such post, `changed` false when the rules refused it. */
export interface ReactionOutcome {
  found: boolean;
  changed: boolean;
  /** The post's like count when the reaction was tried (a refused dislike says why with it). */
  like_count: number;
  /**
   * When it changed: the post as the user sees it after their reaction (what GET /api/posts/{id} reads with
   * selectPostKey), read in the same statement, so the answer needs no read after the commit.
   */
  post: PostKeyRow | null;
  /** A work from another server (issue 39): its Note's id, whose author's server hears the like. */
  note_iri?: string | null;
  /**
   * When it changed, the time of the like it made or undid, in milliseconds (the `post_reactions` row's
   * `created_at`, the like's id there), so that the Undo of a like names the Like sent; null for a dislike that
   * undid no like.
   */
  like_key?: string | null;
}

/**
 * A like's or dislike's two statements (see recordReaction), built once per kind (statementTemplate): the
 * write statement is large, and building its text was the biggest part of the server's work on a like.
 */
const postReaction = statementTemplate(
  (kind: 'like' | 'dislike', { postId, userId }: Record<'postId' | 'userId', string>) =>
    reactionStatements({
      target: {
        table: 'posts',
        where: sql`t.id = ${postId}::uuid`,
        counters: { like: 'like_count', dislike: 'dislike_count' },
        // Hidden or removed by a moderator (or by a suspended account), or a blocked pair's (answered as a post that
        // does not exist, so a block cannot be probed, issue 23): not there for them. Asked by the statement that
        // locks the post, which saves a round trip; the select list is computed once the row is locked.
        lock: sql`select not (${visibleTo(userId)}) as refused from posts p where p.id = ${postId}::uuid for update`,
      },
      reactions: { table: 'post_reactions', column: 'post_id' },
      userId,
      kind,
      allowedWhen: sql`${kind}::text = 'like' or like_count > 0`,
      notification: {
        notifyOn: 'like',
        build: (when) =>
          notificationCtes(
            {
              recipientId: sql`target.author_id`,
              actorId: sql`${userId}::uuid`,
              kind: 'like',
              postId: sql`${postId}::uuid`,
            },
            when,
          ),
      },
      // A like of a work from another server is sent there (issue 39): its Note, and the like's time as its id (the
      // statement's snapshot is from before its write, so a dislike reads the like it replaces).
      selected: sql`(select count(${publishSql({ type: 'post-counts-changed', postId: sql`id`, reactions: sql`true` })}) from target, reaction) as counted,
      (select count(${publishSql({ type: 'viewer-changed', userId: sql`${userId}::text` })}) from reaction) as viewer_noted,
      (select p.note_iri from posts p where p.id = ${postId}::uuid) as note_iri,
      case when ${kind}::text = 'like' then (extract(epoch from now()::timestamptz(3)) * 1000)::bigint::text
        else (select (extract(epoch from r.created_at) * 1000)::bigint::text from post_reactions r
              where r.post_id = ${postId}::uuid and r.user_id = ${userId}::uuid and r.kind = 'like') end as like_key,
      (select row_to_json(k) from (
        select ${keyColumnsOf(userId)}, ${mutedWordOf(userId)} as viewer_muted_word from posts p where p.id = ${postId}::uuid
      ) k) as post`,
    }),
);

/**
 * A like or dislike by the rules of `PostsService.react`, in one transaction (see recordReaction): a
 * dislike needs likes on the post; a like notifies the author, an unlike (a dislike that replaced the
 * user's like) withdraws that notification; the post's counters change for everyone watching it.
 */
export async function reactToPost(
  db: Db,
  postId: string,
  userId: string,
  kind: 'like' | 'dislike',
): Promise<ReactionOutcome> {
  // Its events are written by a statement built once: this process writes events now (see events/outbox.ts).
  notePublish();
  const outcome = await runReaction<
    Omit<ReactionOutcome, 'post'> & { post: PostKeyRow | null; new_like_count: number; new_dislike_count: number }
  >(db, postReaction(kind, { postId, userId }));
  if (!outcome.changed || !outcome.post) return { ...outcome, post: null };
  // The statement's snapshot is from before its own write: the counts and the reaction are the write's. The post's
  // like count as shown adds the likes from other servers to the local ones, which the same snapshot read.
  const remoteLikes = Number(outcome.post.like_count) - Number(outcome.like_count);
  return {
    ...outcome,
    post: {
      ...outcome.post,
      like_count: Number(outcome.new_like_count) + remoteLikes,
      dislike_count: Number(outcome.new_dislike_count),
      viewer_reaction: kind,
    },
  };
}

export interface PostCounts {
  postId: string;
  likeCount: number;
  commentCount: number;
}

/**
 * The like and comment counts of these posts (the live stream's counts frames); deleted posts are left out,
 * and with `viewerId` those the viewer may not see (hidden, removed, a blocked pair's, a suspended author's).
 */
export async function selectPostCounts(db: Db, postIds: string[], viewerId?: string): Promise<PostCounts[]> {
  if (postIds.length === 0) return [];
  return queryRows<PostCounts>(
    db,
    sql`select p.id as "postId", ${SHOWN_LIKE_COUNT} as "likeCount", p.comment_count as "commentCount"
        from posts p where p.id in (select value::uuid from json_array_elements_text(${JSON.stringify(postIds)}::json))
        ${viewerId === undefined ? sql`` : sql`and ${visibleTo(viewerId)}`}`,
  );
}

/**
 * A work made here, not one from another server (issue 39, following out: `note_iri` set): another server's works
 * are on the Home of the people who follow their author, on the author's profile and on their own page, never in
 * Explore, tag pages or search, nor on Home by a followed tag.
 */
const OURS = sql`p.note_iri is null`;

/** Which posts are on a viewer's Home, whatever else hides them: their own, the people's and the tags' they follow. */
const onHomeOf = (viewerId: string, followedTags: SQL): SQL =>
  sql`(p.author_id = ${viewerId}::uuid or p.author_id in (
        select followee_id from follows where follower_id = ${viewerId}::uuid) or (p.tags && ${followedTags} and ${OURS}))`;

/** The tags a viewer follows, as one array (read once per statement). */
const followedTagsOf = (viewerId: string): SQL =>
  sql`(select coalesce(array_agg(tf.tag), '{}'::text[]) from tag_follows tf where tf.user_id = ${viewerId}::uuid)`;

/** Why a post by someone the viewer may not follow is on their Home: the first of its tags they follow (else null). */
const homeReasonOf = (viewerId: string, followedTags: SQL): SQL =>
  sql`case when p.author_id = ${viewerId}::uuid or not (p.tags && ${followedTags}) or not ${OURS} then null else (
        select t.tag from unnest(p.tags) with ordinality t(tag, n) where array[t.tag] && ${followedTags}
        order by t.n limit 1
      ) end`;

/** The head of a viewer's Home timeline (posts/home-timeline.ts): its newest posts' ids and times, and their followed tags. */
export interface HomeHead {
  tags: string[];
  posts: { id: string; created_at: string }[];
}

/**
 * The newest `count` posts on the viewer's Home by `onHomeOf` alone (what else hides a post is asked when a page
 * is read), newest first, after `after` (a Home cursor's time and id) when given, and the tags they follow, in one
 * statement. Two ways:
 * - the newest posts walked through posts_created_idx until `count` are theirs, as Home's other pages are read:
 *   quick for someone who follows many active people (some 400 rows for 500 popular ones at 1M posts), but a walk
 *   of every post for a Home with fewer than `count` (9.4 s at 1M posts for a new account);
 * - `fromEach` (for someone who follows few people): the newest `count` of them and of the viewer, each through
 *   posts_author_created_idx, and of each followed tag through posts_tags_idx, merged: bounded by their number.
 */
export async function selectHomeHead(
  db: Db,
  viewerId: string,
  count: number,
  { fromEach = false, after }: { fromEach?: boolean; after?: { time: Date; id: string } } = {},
): Promise<HomeHead> {
  const viewer = sql`${viewerId}::uuid`;
  const followed = sql`(select tags from followed)`;
  const older = after
    ? sql`(p.created_at, p.id) < (${after.time.toISOString()}::timestamptz, ${after.id}::uuid)`
    : sql`true`;
  const newest = sql`order by p.created_at desc, p.id desc ${literalLimit(count)}`;
  const head = fromEach
    ? sql`select h.id, h.created_at from (
            select a.id, a.created_at
            from unnest(array(select followee_id from follows where follower_id = ${viewer}) || ${viewer}) author(id)
            cross join lateral (
              select p.id, p.created_at from posts p where p.author_id = author.id and ${older} ${newest}
            ) a
            union
            select t.id, t.created_at from unnest(${followed}) tag(name)
            cross join lateral (
              select p.id, p.created_at from posts p where p.tags @> array[tag.name] and ${OURS} and ${older} ${newest}
            ) t
          ) h
          order by h.created_at desc, h.id desc ${literalLimit(count)}`
    : sql`select p.id, p.created_at from posts p where ${onHomeOf(viewerId, followed)} and ${older} ${newest}`;
  const [row] = await queryRows<HomeHead>(
    db,
    sql`with followed as (select ${followedTagsOf(viewerId)} as tags)
        select (select tags from followed) as tags, coalesce((select json_agg(h) from (${head}) h), '[]'::json) as posts`,
  );
  return row!;
}

/**
 * The per-request part of these posts of a viewer's Home timeline (see PostKeyRow; the flags from memory are the
 * reader's, `flagsInMemory`), in no particular order, with why each is there (`reason_tag`, for one of a followed tag): those not
 * there for the viewer (moderation, a suspended author, muted words, AI works they hide) are left out. Blocks and
 * muted people are the reader's to drop, as on every page, and so is a post no longer on their Home (it lost
 * its tag and they do not follow its author). The ids are one array parameter, which posts_pkey is probed with
 * (15 % more statements a second in pgbench than the JSON list the other reads by id take).
 */
export function selectHomeKeys(
  db: Db,
  ids: string[],
  viewerId: string,
  muted: MutedWords,
  { followsTags, flagsInMemory }: { followsTags: boolean; flagsInMemory: boolean },
): Promise<PostKeyRow[]> {
  // Someone who follows no tag (their timeline says so) has no reason to read: 15 % of the statement's work.
  const reason = followsTags ? homeReasonOf(viewerId, followedTagsOf(viewerId)) : sql`null::text`;
  return queryRows<PostKeyRow>(
    db,
    sql`select ${keyColumnsOf(viewerId, undefined, flagsInMemory)}, ${reason} as reason_tag
        from posts p
        where p.id = any(${`{${ids.join(',')}}`}::uuid[])
          and ${visibleTo(viewerId, { blocksInMemory: true })} and ${listedFor(viewerId, muted)}`,
  );
}

/**
 * Explore and tag pages narrowed to artists open for commissions (issue 42): the commissions module's semi-join with
 * the open artists, hashed once per statement; the keyset walk and its cursor are the list's own.
 */
const openAuthors = (open: CommissionFilter | undefined): SQL =>
  open ? sql` and ${openArtistMatching(sql`p.author_id`, open)}` : sql``;

/** Which posts each list shows: a condition on `p` (and on `x`, the row `join` adds). */
export const POST_LISTS = {
  /** Everyone's posts (Explore), but those carrying the viewer's muted words (muted people: see selectPostRows). */
  everyone: (viewerId: string | null, muted: MutedWords, open?: CommissionFilter) => ({
    where: sql`${OURS} and ${listedFor(viewerId, muted)}${openAuthors(open)}`,
  }),
  /**
   * The home feed: the viewer's own posts, those of the people they follow, and those carrying a tag they
   * follow (each once). The followed tags are read once per page (an init plan), and a post by someone
   * not followed says which of its tags brought it, the first in the post's order.
   */
  feed: (viewerId: string, muted: MutedWords, followsInMemory = false) => {
    const followedTags = followedTagsOf(viewerId);
    const followsAuthor = sql`exists (select from follows f where f.follower_id = ${viewerId}::uuid and f.followee_id = p.author_id)`;
    return {
      where: sql`${onHomeOf(viewerId, followedTags)} and ${listedFor(viewerId, muted)}`,
      // With the viewer's follows in memory (issue 26) the reader drops the reason of a followed author's
      // post, and the statement probes no table per row: the followed tags are one array per execution.
      reason: followsInMemory
        ? homeReasonOf(viewerId, followedTags)
        : sql`case when p.author_id = ${viewerId}::uuid or p.tags = '{}'::text[] or ${followsAuthor} then null else (
        select t.tag from unnest(p.tags) with ordinality t(tag, n)
        where exists (select from tag_follows tf where tf.user_id = ${viewerId}::uuid and tf.tag = t.tag)
        order by t.n limit 1
      ) end`,
    };
  },
  /** A profile's posts. */
  byUsername: (username: string) => ({
    where: sql`p.author_id = (select id from users where lower(username) = lower(${username}))`,
  }),
  /** The profile's Liked tab: ordered by the like (`reacted`). */
  liked: (viewerId: string) => ({
    join: sql`join post_reactions x on x.post_id = p.id and x.user_id = ${viewerId}::uuid and x.kind = 'like'`,
    where: sql`true`,
  }),
  /** The profile's Saved tab: ordered by the bookmark (`bookmarked`). */
  bookmarked: (viewerId: string) => ({
    join: sql`join bookmarks x on x.post_id = p.id and x.user_id = ${viewerId}::uuid`,
    where: sql`true`,
  }),
  /** A hashtag's posts, but those carrying the viewer's muted words (muted people: see selectPostRows). */
  tagged: (tag: string, viewerId: string | null, muted: MutedWords, open?: CommissionFilter) => ({
    where: sql`p.tags @> array[${tag}]::text[] and ${OURS} and ${listedFor(viewerId, muted)}${openAuthors(open)}`,
  }),
} satisfies Record<string, (...args: never[]) => Pick<PageRequest, 'where' | 'join' | 'followsAuthor' | 'reason'>>;

/** How many of the newest matching posts a word search ranks. */
const SEARCH_CANDIDATES = 500;
/** How many of the newest posts are scanned first, which finds enough matches for a common word. */
const SEARCH_RECENT_WINDOW = 20_000;

/**
 * The newest posts matching a text query (`to_tsquery` terms), with their text rank. A common word matches enough of the
 * newest posts, read in index order; only a rarer one falls back to the text index, which is then cheap.
 */
export async function selectSearchMatches(
  db: Db,
  terms: string,
): Promise<{ id: string; rank: number; created_at: Date | string }[]> {
  const tsquery = sql`to_tsquery('simple', ${terms})`;
  type Row = { id: string; rank: number; created_at: Date | string };
  const rows = await queryRows<Row>(
    db,
    sql`select id, ts_rank(search_vector, ${tsquery})::float8 as rank, created_at from (
          select id, search_vector, created_at from posts p where ${OURS}
          order by created_at desc, id desc limit ${SEARCH_RECENT_WINDOW}
        ) newest
        where search_vector @@ ${tsquery}
        limit ${SEARCH_CANDIDATES}`,
  );
  if (rows.length >= SEARCH_CANDIDATES) return rows;
  return queryRows<Row>(
    db,
    sql`select id, ts_rank(search_vector, ${tsquery})::float8 as rank, created_at from posts p
        where search_vector @@ ${tsquery} and ${OURS}
        order by created_at desc, id desc limit ${SEARCH_CANDIDATES}`,
  );
}

/**
 * The newest `perAuthor` posts of each of these authors (an artist's works, for a search of their name),
 * each read through posts_author_created_idx.
 */
export async function selectWorksBy(
  db: Db,
  authorIds: string[],
  perAuthor: number,
): Promise<{ id: string; created_at: Date | string }[]> {
  if (authorIds.length === 0) return [];
  return queryRows(
    db,
    sql`select w.id, w.created_at
        from json_array_elements_text(${JSON.stringify(authorIds)}::json) a(id)
        cross join lateral (
          select p.id, p.created_at from posts p where p.author_id = a.id::uuid
          order by p.created_at desc, p.id desc limit ${perAuthor}
        ) w`,
  );
}

/** Locks the post row for the rest of the transaction (writes to one post take turns); undefined if none. */
export async function lockPostRow(tx: Db, postId: string) {
  const [row] = await tx
    .select({ id: posts.id, authorId: posts.authorId, likeCount: posts.likeCount })
    .from(posts)
    .where(eq(posts.id, postId))
    .for('update');
  return row;
}

/** The ids of a post's pictures in order (read under the post's lock by writes). */
export async function selectPostMediaIds(tx: Db, postId: string): Promise<string[]> {
  const rows = await tx
    .select({ mediaId: postMedia.mediaId })
    .from(postMedia)
    .where(eq(postMedia.postId, postId))
    .orderBy(postMedia.position);
  return rows.map((row) => row.mediaId);
}

/**
 * Makes `mediaIds` the post's pictures, in that order: the old list goes and the new one is written
 * whole (positions 0, 1, …), so adding, removing and reordering are one write. A picture in another
 * post fails on post_media_media_key, an unknown one on the foreign key.
 */
export async function replacePostMedia(tx: Db, postId: string, mediaIds: string[]): Promise<void> {
  await tx.delete(postMedia).where(eq(postMedia.postId, postId));
  if (mediaIds.length === 0) return;
  await tx.insert(postMedia).values(mediaIds.map((mediaId, position) => ({ postId, mediaId, position })));
}

export type PostChanges = Partial<
  Pick<
    typeof posts.$inferInsert,
    'content' | 'language' | 'tags' | 'contentWarning' | 'commentPolicy' | 'licence' | 'aiGenerated' | 'downloadable'
  >
>;

/**
 * Writes an edit and tells every process the post changed (its caches, its watchers). `edited`: the edit changed
 * what readers see, and the post says "edited" from now (issue 41).
 */
export async function updatePostRow(tx: Db, postId: string, changes: PostChanges, edited = false): Promise<void> {
  await tx
    .update(posts)
    .set({ ...changes, updatedAt: sql`now()`, ...(edited ? { editedAt: sql`now()` } : {}) })
    .where(eq(posts.id, postId));
  await publish(tx, {
    type: 'post-changed',
    postId,
    ...(changes.tags === undefined ? {} : { retagged: true as const }),
  });
}

/**
 * The process pictures (issue 41, post_process_pictures) of these posts, each post's in its order, as media rows
 * (toPicture reads them): one statement for a whole page of posts, by the table's primary key (post_id, position).
 * Posts without any are left out of the map.
 */
export async function selectProcessPictures(db: Db, postIds: readonly string[]): Promise<Map<string, MediaRow[]>> {
  if (postIds.length === 0) return new Map();
  const rows = await queryRows<{ post_id: string; pictures: MediaRow[] }>(
    db,
    sql`select pp.post_id, json_agg(${mediaJson('m')} order by pp.position) as pictures
        from post_process_pictures pp join media m on m.id = pp.media_id
        where pp.post_id in (select value::uuid from json_array_elements_text(${JSON.stringify(postIds)}::json))
        group by pp.post_id`,
  );
  return new Map(rows.map((row) => [row.post_id, row.pictures]));
}

/** The ids of a post's process pictures in order (read under the post's lock by writes). */
export async function selectProcessMediaIds(tx: Db, postId: string): Promise<string[]> {
  const rows = await tx
    .select({ mediaId: postProcessPictures.mediaId })
    .from(postProcessPictures)
    .where(eq(postProcessPictures.postId, postId))
    .orderBy(postProcessPictures.position);
  return rows.map((row) => row.mediaId);
}

/**
 * Makes `mediaIds` the post's process pictures, in that order (positions 0, 1, …), as replacePostMedia does the
 * pictures. One in another post fails on post_process_pictures_media_key, or when the transaction commits on
 * post_pictures_one_post (a picture of a post); an unknown one on the foreign key.
 */
export async function replaceProcessPictures(tx: Db, postId: string, mediaIds: readonly string[]): Promise<void> {
  await tx.delete(postProcessPictures).where(eq(postProcessPictures.postId, postId));
  if (mediaIds.length === 0) return;
  await tx.insert(postProcessPictures).values(mediaIds.map((mediaId, position) => ({ postId, mediaId, position })));
}

// ---- A work's history (issue 41, migration 0045): post_revisions and post_revision_media, the posts module's. ----

/** What an edit may change of a post's words and rights, as it is now (read under the post's lock). */
export interface EditablePost {
  content: string;
  language: string | null;
  contentWarning: string | null;
  commentPolicy: 'everyone' | 'following' | 'nobody';
  licence: 'all-rights-reserved' | 'cc-by' | 'cc-by-sa' | 'cc-by-nc' | 'cc-by-nc-nd' | 'cc0';
  aiGenerated: boolean;
  downloadable: boolean;
}

export async function selectEditablePost(tx: Db, postId: string): Promise<EditablePost | undefined> {
  const [row] = await tx
    .select({
      content: posts.content,
      language: posts.language,
      contentWarning: posts.contentWarning,
      commentPolicy: posts.commentPolicy,
      licence: posts.licence,
      aiGenerated: posts.aiGenerated,
      downloadable: posts.downloadable,
    })
    .from(posts)
    .where(eq(posts.id, postId));
  return row;
}

/**
 * A post's pictures ('picture') and process pictures ('process'), each in order, with the alt text each has now:
 * what a revision keeps of them.
 */
export async function selectPostPicturesWithAlt(
  tx: Db,
  postId: string,
): Promise<{ kind: 'picture' | 'process'; id: string; alt: string }[]> {
  return queryRows<{ kind: 'picture' | 'process'; id: string; alt: string }>(
    tx,
    sql`select shown.kind, m.id, m.alt from (
          select 'picture' as kind, media_id, position from post_media where post_id = ${postId}::uuid
          union all
          select 'process', media_id, position from post_process_pictures where post_id = ${postId}::uuid
        ) shown join media m on m.id = shown.media_id
        order by shown.kind, shown.position`,
  );
}

/**
 * An edit's new alt texts (issue 41) of pictures the post shows (finished or process): written on the pictures,
 * where a post's alt texts live, under the edit's lock. The caller checked that the post shows each of them.
 */
export async function updatePostPictureAlts(tx: Db, alts: ReadonlyMap<string, string>): Promise<void> {
  for (const [id, alt] of alts) await tx.execute(sql`update media set alt = ${alt} where id = ${id}::uuid`);
}

/** One revision to write: the fields changed, their values before and after, the pictures before (per kind). */
export interface NewRevision {
  postId: string;
  changed: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  pictureCounts?: { before: number; after: number };
  /** The pictures (kind 'picture') and process pictures ('process') before, in order: only the kinds that changed. */
  earlier: { kind: 'picture' | 'process'; pictures: { id: string; alt: string }[] }[];
}

/** Writes a revision and its pictures before, in one statement (inside the edit's transaction). */
export async function insertRevision(tx: Db, revision: NewRevision): Promise<void> {
  const pictures = revision.earlier.flatMap(({ kind, pictures: list }) =>
    list.map((picture, position) => ({ kind, position, mediaId: picture.id, alt: picture.alt })),
  );
  await tx.execute(
    sql`with revision as (
          insert into post_revisions (post_id, changed, before, after, picture_count_before, picture_count_after)
          values (${revision.postId}::uuid, array[${sql.join(
            revision.changed.map((field) => sql`${field}`),
            sql`, `,
          )}]::text[],
                  ${JSON.stringify(revision.before)}::jsonb, ${JSON.stringify(revision.after)}::jsonb,
                  ${revision.pictureCounts?.before ?? null}::smallint, ${revision.pictureCounts?.after ?? null}::smallint)
          returning id
        )
        insert into post_revision_media (revision_id, kind, position, media_id, alt)
        select revision.id, kept.kind, kept.position, kept."mediaId", kept.alt
        from revision, json_to_recordset(${JSON.stringify(pictures)}::json)
          as kept(kind text, position smallint, "mediaId" uuid, alt text)`,
  );
}

/** Who may read a post's history: its author, and whether the viewer sees the post at all (visibleTo). */
export async function selectHistoryAccess(
  db: Db,
  postId: string,
  viewerId: string | null,
): Promise<{ author_id: string; visible: boolean } | undefined> {
  const [row] = await queryRows<{ author_id: string; visible: boolean }>(
    db,
    sql`select p.author_id, (${visibleTo(viewerId)}) as visible from posts p where p.id = ${postId}::uuid`,
  );
  return row;
}

export interface RevisionRow {
  id: string;
  created_at: string;
  created_key: string;
  changed: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  picture_count_before: number | null;
  picture_count_after: number | null;
  /** The pictures before (the author's read only), each with its media row's fields and whether the post shows it now. */
  earlier:
    | {
        kind: 'picture' | 'process';
        alt: string;
        shown_now: boolean;
        media: MediaRow;
      }[]
    | null;
}

const REVISION_ORDER: Keyset = {
  columns: [sql`r.created_at`, sql`r.id`],
  shape: ['date', 'uuid'],
  direction: 'desc',
};

/** A keyset page of a post's revisions, newest first; `withPictures`: the pictures before too (its author's read). */
export async function selectRevisionPage(
  db: Db,
  postId: string,
  options: { cursor?: string | undefined; limit: number; withPictures: boolean },
): Promise<{ page: RevisionRow[]; nextCursor: string | null }> {
  const { after, orderBy, limit } = keysetQuery(REVISION_ORDER, options.cursor, options.limit);
  const earlier = options.withPictures
    ? sql`(select json_agg(json_build_object('kind', rm.kind, 'alt', rm.alt, 'media', ${mediaJson('m')},
              'shown_now', exists (select 1 from post_media pm where pm.media_id = rm.media_id and pm.post_id = r.post_id)
                or exists (select 1 from post_process_pictures pp where pp.media_id = rm.media_id and pp.post_id = r.post_id)
            ) order by rm.kind, rm.position)
          from post_revision_media rm join media m on m.id = rm.media_id where rm.revision_id = r.id)`
    : sql`null::json`;
  const rows = await queryRows<RevisionRow>(
    db,
    sql`select r.id, r.created_at, r.created_at as created_key, r.changed, r.before, r.after,
               r.picture_count_before, r.picture_count_after, ${earlier} as earlier
        from post_revisions r
        where r.post_id = ${postId}::uuid and ${after}
        order by ${orderBy} ${limit}`,
  );
  return keysetPage(rows, options.limit, REVISION_ORDER.shape, (row) => [row.created_key, row.id]);
}

/** A picture a revision of the post keeps (its row), or undefined when none of its revisions names it. */
export async function selectKeptPicture(db: Db, postId: string, mediaId: string): Promise<MediaRow | undefined> {
  const [row] = await queryRows<{ media: MediaRow }>(
    db,
    sql`select ${mediaJson('m')} as media from media m
        where m.id = ${mediaId}::uuid and exists (
          select 1 from post_revision_media rm join post_revisions r on r.id = rm.revision_id
          where rm.media_id = m.id and r.post_id = ${postId}::uuid)`,
  );
  return row?.media;
}

/** The pictures the post's revisions keep (ids), read before the post is deleted. */
export async function selectKeptPictureIds(tx: Db, postId: string): Promise<string[]> {
  const rows = await queryRows<{ media_id: string }>(
    tx,
    sql`select distinct rm.media_id from post_revision_media rm join post_revisions r on r.id = rm.revision_id
        where r.post_id = ${postId}::uuid`,
  );
  return rows.map((row) => row.media_id);
}

/** Of `ids`, the pictures no post shows and no revision keeps any more (after a deletion): those to delete. */
export async function selectUnusedPictures(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select m.id from media m
        where m.id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
          and not exists (select 1 from post_media pm where pm.media_id = m.id)
          and not exists (select 1 from post_process_pictures pp where pp.media_id = m.id)
          and not exists (select 1 from post_revision_media rm where rm.media_id = m.id)
          and not exists (select 1 from users u where u.photo_media_id = m.id)`,
  );
  return rows.map((row) => row.id);
}
