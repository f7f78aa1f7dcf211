// DESC indexes are NULLS FIRST, as PostgreSQL's ORDER BY … DESC is: otherwise the planner cannot use
// them for the keyset queries (every column here is NOT NULL, but the planner does not use that).

import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** A PostgreSQL full-text vector; only ever written by the database (a generated column). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    bio: text('bio').notNull().default(''),
    link: text('link').notNull().default(''),
    photoMediaId: uuid('photo_media_id').references((): AnyPgColumn => media.id, { onDelete: 'set null' }),
    /** The URL shown for the photo (a variant of photo_media_id), kept beside it so lists need no join. */
    photoUrl: text('photo_url'),
    followerCount: integer('follower_count').notNull().default(0),
    /** Remote actors following the account (issue 39, migration 0030): shown with the local count, kept apart. */
    remoteFollowerCount: integer('remote_follower_count').notNull().default(0),
    followingCount: integer('following_count').notNull().default(0),
    postCount: integer('post_count').notNull().default(0),
    bookmarkCount: integer('bookmark_count').notNull().default(0),
    /** "Show my works to signed-in people only": their posts are hidden from every signed-out read. */
    worksSignedInOnly: boolean('works_signed_in_only').notNull().default(false),
    /** "Let others add my works to collections" (issue 41, migration 0042): off, adding them is refused. */
    allowCollecting: boolean('allow_collecting').notNull().default(true),
    /** The language the person chose (issue 43, migration 0054): the app's, their mails' and messages'; null: the browser's. */
    language: text('language'),
    /** What they may do beyond their own account (issue 23, migration 0017): moderators act on reports, admins name them. */
    role: text('role', { enum: ['user', 'moderator', 'admin'] })
      .notNull()
      .default('user'),
    /** Suspended while this is in the future ('infinity': for good): no sign-in, no action, content hidden. */
    suspendedUntil: timestamp('suspended_until', { withTimezone: true, precision: 3 }),
    suspensionReason: text('suspension_reason'),
    /** "Ask AI crawlers not to train on my work": pages and pictures carry noai (on by default). */
    aiTrainingOptOut: boolean('ai_training_opt_out').notNull().default(true),
    /** How this viewer sees posts with a content warning. */
    sensitiveMedia: text('sensitive_media', { enum: ['show', 'blur', 'hide'] })
      .notNull()
      .default('blur'),
    /** Leave AI-generated works out of this viewer's lists. */
    hideAiGenerated: boolean('hide_ai_generated').notNull().default(false),
    /** When the address was confirmed by the link mailed to it (issue 24); a trigger clears it when email changes. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true, precision: 3 }),
    /** The actor ids of the artist's accounts elsewhere (migration 0041): its `alsoKnownAs`, at most 5. */
    alsoKnownAs: text('also_known_as')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The account this one moved to (issue 40, moving away, migration 0049): a remote person's shadow account,
     * served as the actor's `movedTo`; null when it did not move (or the move was cancelled).
     */
    movedToId: uuid('moved_to_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /** When it last moved: another move waits 30 days (as on Mastodon). */
    movedAt: timestamp('moved_at', { withTimezone: true, precision: 3 }),
    /**
     * Following out (issue 39, migration 0039): set exactly for a shadow account, a remote person's `users` row
     * (username `preferredUsername@host`, no email, no password: it can never sign in). Null for an account here.
     */
    remoteActorId: uuid('remote_actor_id')
      .unique()
      .references((): AnyPgColumn => remoteActors.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    // Suggestions: the most followed people.
    index('users_popular_idx').on(t.followerCount.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // All users, newest first (GET /api/users): its keyset page.
    index('users_newest_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Search: byte-ordered indexes read the first matches of a prefix in order (a bounded candidate set
    // however common the prefix); trigram indexes find typos and parts of words when prefixes find few.
    index('users_username_prefix_idx').on(sql`(lower(${t.username}) collate "C")`, t.id),
    index('users_name_prefix_idx').on(sql`(lower(${t.firstName} || ' ' || ${t.lastName}) collate "C")`, t.id),
    index('users_last_name_prefix_idx').on(sql`(lower(${t.lastName}) collate "C")`, t.id),
    index('users_username_trgm_idx').using('gin', sql`lower(${t.username}) gin_trgm_ops`),
    index('users_name_trgm_idx').using('gin', sql`lower(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
    // The few people whose works a reader may not see (shown to signed-in people only, suspended): every
    // read of posts asks whether the author is one of them, in this small index, not in the whole table.
    index('users_hidden_idx')
      .on(t.id)
      .where(sql`${t.worksSignedInOnly} or ${t.suspendedUntil} is not null`),
    // "Forgot password?" by email address looks among confirmed addresses only (issue 24).
    index('users_verified_email_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.emailVerifiedAt} is not null`),
    check(
      'users_counts_non_negative',
      sql`${t.followerCount} >= 0 and ${t.followingCount} >= 0 and ${t.postCount} >= 0 and ${t.bookmarkCount} >= 0`,
    ),
    check('users_remote_follower_count_check', sql`${t.remoteFollowerCount} >= 0`),
    check('users_also_known_as_check', sql`cardinality(${t.alsoKnownAs}) <= 5`),
    check('users_moved_to_check', sql`${t.movedToId} is distinct from ${t.id}`),
    check('users_language_length', sql`char_length(${t.language}) <= 16`),
    check('users_sensitive_media_check', sql`${t.sensitiveMedia} in ('show', 'blur', 'hide')`),
  ],
);

export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    /** The #hashtags of the content, lower-case and without '#', kept by the service on every write. */
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    likeCount: integer('like_count').notNull().default(0),
    /**
     * Likes from other servers (issue 39, migration 0033: `remote_reactions`), kept by actions/federation.ts;
     * `like_count` counts `post_reactions` only, and the site shows the sum.
     */
    remoteLikeCount: integer('remote_like_count').notNull().default(0),
    dislikeCount: integer('dislike_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    /**
     * The words of the content, kept by PostgreSQL: search filters the newest posts on it without
     * computing a vector per row, and ranks its candidates from it.
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple', content)`),
    /** Moderation (migration 0017): 'hidden' shows it to its author only, with the reason; 'removed' to nobody. */
    moderationState: text('moderation_state', { enum: ['hidden', 'removed'] }),
    moderationReason: text('moderation_reason'),
    /** Null = not sensitive; otherwise 'nudity', 'blood', 'flashing' or the author's own words (≤ 100). */
    contentWarning: text('content_warning'),
    commentPolicy: text('comment_policy', { enum: ['everyone', 'following', 'nobody'] })
      .notNull()
      .default('everyone'),
    licence: text('licence', {
      enum: ['all-rights-reserved', 'cc-by', 'cc-by-sa', 'cc-by-nc', 'cc-by-nc-nd', 'cc0'],
    })
      .notNull()
      .default('all-rights-reserved'),
    aiGenerated: boolean('ai_generated').notNull().default(false),
    /** The author lets anyone download the originals (a CC licence allows it anyway). */
    downloadable: boolean('downloadable').notNull().default(false),
    /** "Mark as imported" (issue 40, migration 0038): where the work came from, null for one made here. */
    importedFrom: text('imported_from'),
    /** A work from another server (migration 0039): its Note's id (stored once) and its page there; null for ours. */
    noteIri: text('note_iri').unique(),
    noteUrl: text('note_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** When an edit last changed what its readers see (migration 0045, issue 41): the post says "edited"; null: never. */
    editedAt: timestamp('edited_at', { withTimezone: true, precision: 3 }),
    /** The language its text is in (issue 43, migration 0055): a canonical BCP 47 tag (`pt-BR`); null: not said. */
    language: text('language'),
  },
  (t) => [
    index('posts_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('posts_author_created_idx').on(t.authorId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('posts_trending_idx').on(
      t.likeCount.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('posts_tags_idx').using('gin', t.tags),
    index('posts_search_idx').using('gin', t.searchVector),
    check('posts_remote_like_count_check', sql`${t.remoteLikeCount} >= 0`),
    check('posts_counts_non_negative', sql`${t.likeCount} >= 0 and ${t.dislikeCount} >= 0 and ${t.commentCount} >= 0`),
    check(
      'posts_content_warning_length',
      sql`${t.contentWarning} is null or char_length(${t.contentWarning}) between 1 and 100`,
    ),
    check('posts_comment_policy_check', sql`${t.commentPolicy} in ('everyone', 'following', 'nobody')`),
    check(
      'posts_licence_check',
      sql`${t.licence} in ('all-rights-reserved', 'cc-by', 'cc-by-sa', 'cc-by-nc', 'cc-by-nc-nd', 'cc0')`,
    ),
    check('posts_language_length', sql`char_length(${t.language}) <= 35`),
  ],
);

export interface MediaVariant {
  width: number;
  height: number;
  /**
   * PNG and GIF are the one rendition other servers are sent (pixel art's lossless PNG, an animation's
   * animated GIF), never shown on our pages; written since issue 39, so older pictures have none.
   */
  format: 'avif' | 'webp' | 'jpeg' | 'png' | 'gif';
  /** File name under the media folder. */
  file: string;
  bytes: number;
  /** Display P3 (with its profile embedded) rather than sRGB: for wide-gamut screens only. */
  gamut?: 'p3';
  /** Every frame of an animation (an animated WebP, or the GIF for other servers) rather than its first. */
  animated?: boolean;
}

/**
 * An uploaded picture: the original as uploaded (less its personal metadata), and the re-encoded
 * variants that are served.
 */
export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['post', 'avatar'] }).notNull(),
    originalFile: text('original_file').notNull(),
    originalMime: text('original_mime').notNull(),
    originalBytes: integer('original_bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    placeholder: text('placeholder').notNull(),
    alt: text('alt').notNull().default(''),
    variants: jsonb('variants').$type<MediaVariant[]>().notNull(),
    /** The file name it was uploaded under, cleaned (what Download saves it as); '' before migration 0011. */
    originalName: text('original_name').notNull().default(''),
    /** Pixel art: its variants were scaled with nearest-neighbour. */
    pixelated: boolean('pixelated').notNull().default(false),
    /** An animated GIF or WebP, with animated WebP variants besides its still first frame. */
    animated: boolean('animated').notNull().default(false),
    /**
     * Pixel art or an animation uploaded before their rendition for other servers was written (migration 0037):
     * the job media.federated-renditions writes it, then clears this.
     */
    federatedPending: boolean('federated_pending').notNull().default(false),
    /** A remote work's picture (migration 0039): where it was fetched from. */
    remoteUrl: text('remote_url'),
    /** Its BlurHash, 4x3 components, for the Mastodon API (migration 0056); null when uploaded before it. */
    blurhash: text('blurhash'),
    /** Mastodon's focal point, each -1..1 (migration 0056); null: none given (the centre). */
    focusX: real('focus_x'),
    focusY: real('focus_y'),
    createdAt: createdAt(),
  },
  (t) => [
    index('media_owner_idx').on(t.ownerId, t.createdAt.desc().nullsFirst()),
    index('media_federated_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.federatedPending}`),
  ],
);

/**
 * A post's pictures in the author's order (`position` 0 is the cover). The primary key is the post
 * cache's read: a page of posts, each with its pictures in order, from one index. A picture belongs to
 * one post at most, so deleting the post (or taking the picture out of it) deletes its files; a
 * deleted picture leaves the posts that showed it.
 */
export const postMedia = pgTable(
  'post_media',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.position] }),
    uniqueIndex('post_media_media_key').on(t.mediaId),
    check('post_media_position', sql`${t.position} >= 0`),
  ],
);

/**
 * A work's process pictures (issue 41, migration 0043): the sketch, the lines, the flats… in the artist's order
 * (0 to 9). Not post_media: that keeps meaning the finished pictures. A picture is in one post only, across both
 * tables (the deferred constraint triggers `post_picture_in_one_post` of migration 0043, which drizzle cannot say).
 */
export const postProcessPictures = pgTable(
  'post_process_pictures',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.position] }),
    uniqueIndex('post_process_pictures_media_key').on(t.mediaId),
    check('post_process_pictures_position', sql`${t.position} between 0 and 9`),
  ],
);

/** A like or a dislike: one row per user and post, so nobody holds both. */
export const postReactions = pgTable(
  'post_reactions',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['like', 'dislike'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.userId] }),
    index('post_reactions_post_kind_idx').on(t.postId, t.kind, t.createdAt.desc().nullsFirst()),
    index('post_reactions_user_kind_idx').on(
      t.userId,
      t.kind,
      t.createdAt.desc().nullsFirst(),
      t.postId.desc().nullsFirst(),
    ),
    check('post_reactions_kind', sql`${t.kind} in ('like', 'dislike')`),
  ],
);

export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    /** An account here; null for a reply from another server (then `remote_actor_id`: exactly one of the two). */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    upvoteCount: integer('upvote_count').notNull().default(0),
    downvoteCount: integer('downvote_count').notNull().default(0),
    edited: boolean('edited').notNull().default(false),
    /**
     * A reply from the fediverse (issue 39, migration 0035): its remote actor (deleted with it, after the work's
     * count is counted down: actions/comments.ts), its Note's id (one comment per Note) and the page it names.
     */
    remoteActorId: uuid('remote_actor_id').references((): AnyPgColumn => remoteActors.id, { onDelete: 'cascade' }),
    noteIri: text('note_iri').unique('comments_note_iri_unique'),
    noteUrl: text('note_url'),
    /** Moderation (migration 0017), as on posts. */
    moderationState: text('moderation_state', { enum: ['hidden', 'removed'] }),
    moderationReason: text('moderation_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('comments_post_created_idx').on(t.postId, t.createdAt, t.id),
    index('comments_author_idx').on(t.authorId),
    index('comments_remote_actor_idx')
      .on(t.remoteActorId)
      .where(sql`${t.remoteActorId} is not null`),
    check('comments_counts_non_negative', sql`${t.upvoteCount} >= 0 and ${t.downvoteCount} >= 0`),
    check('comments_one_author', sql`num_nonnulls(${t.authorId}, ${t.remoteActorId}) = 1`),
    check('comments_remote_note', sql`(${t.remoteActorId} is null) = (${t.noteIri} is null)`),
  ],
);

/** An up or down vote on a comment: one row per user and comment. */
export const commentVotes = pgTable(
  'comment_votes',
  {
    commentId: uuid('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['up', 'down'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId] }),
    index('comment_votes_comment_kind_idx').on(t.commentId, t.kind, t.createdAt.desc().nullsFirst()),
    check('comment_votes_kind', sql`${t.kind} in ('up', 'down')`),
  ],
);

export const follows = pgTable(
  'follows',
  {
    followerId: uuid('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: uuid('followee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A follow of a remote person their server has not accepted yet (migration 0039). */
    pending: boolean('pending').notNull().default(false),
    /** The id of the Follow we sent a remote person (its Undo names it). */
    activityId: text('activity_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index('follows_followee_idx').on(t.followeeId, t.createdAt.desc().nullsFirst()),
    index('follows_follower_created_idx').on(t.followerId, t.createdAt.desc().nullsFirst()),
    check('follows_not_self', sql`${t.followerId} <> ${t.followeeId}`),
  ],
);

export const bookmarks = pgTable(
  'bookmarks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.postId] }),
    index('bookmarks_user_created_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.postId.desc().nullsFirst()),
    index('bookmarks_post_idx').on(t.postId),
  ],
);

/** A pinned work: up to 6 of an artist's own posts, first on their profile, in `position` order (0 first). */
export const postPins = pgTable(
  'post_pins',
  {
    postId: uuid('post_id')
      .primaryKey()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('post_pins_user_position_key').on(t.userId, t.position),
    check('post_pins_position', sql`${t.position} >= 0 AND ${t.position} < 6`),
  ],
);

/** Key/value facts about this database, e.g. when the sample data was loaded. */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

/**
 * Someone liked your post, commented on it, upvoted your comment or followed you. One row per actor
 * and action, so toggling an action never floods; undoing the action removes its unread row.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who did it: a local account, or (remoteActorId) someone on another server; exactly one of the two. */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A remote actor's follow (issue 39, migration 0031): the remote_actors row; deleted with it. */
    remoteActorId: uuid('remote_actor_id').references((): AnyPgColumn => remoteActors.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: [
        'like',
        'comment',
        'upvote',
        'follow',
        'mention',
        'report-resolved',
        'boost',
        'series-work',
        'collection-work',
        'commissions-open',
        'inquiry',
        'inquiry-message',
        'inquiry-state',
      ],
    }).notNull(),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'cascade' }),
    commentId: uuid('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    /** A 'report-resolved' notification's report (its outcome). */
    reportId: uuid('report_id').references((): AnyPgColumn => reports.id, { onDelete: 'cascade' }),
    /** A 'series-work' notification's series (issue 41, migration 0040). */
    seriesId: uuid('series_id').references((): AnyPgColumn => series.id, { onDelete: 'cascade' }),
    /** A 'collection-work' notification's collection (issue 41, migration 0042). */
    collectionId: uuid('collection_id').references((): AnyPgColumn => collections.id, { onDelete: 'cascade' }),
    /** An 'inquiry', 'inquiry-message' or 'inquiry-state' notification's inquiry (issue 42, migration 0047). */
    inquiryId: uuid('inquiry_id').references((): AnyPgColumn => inquiries.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('notifications_recipient_created_idx').on(t.recipientId, t.createdAt.desc().nullsFirst()),
    // Finds the notification an action replaces or withdraws (and a user's, when the user is deleted).
    index('notifications_actor_post_idx').on(t.actorId, t.postId, t.recipientId),
    // A remote actor's notifications: those its Undo withdraws, and those deleted with it.
    index('notifications_remote_actor_idx')
      .on(t.remoteActorId, t.recipientId)
      .where(sql`${t.remoteActorId} is not null`),
    index('notifications_series_post_idx')
      .on(t.seriesId, t.postId)
      .where(sql`${t.seriesId} is not null`),
    index('notifications_collection_post_idx')
      .on(t.collectionId, t.postId)
      .where(sql`${t.collectionId} is not null`),
    index('notifications_inquiry_idx')
      .on(t.inquiryId)
      .where(sql`${t.inquiryId} is not null`),
    check('notifications_one_actor', sql`num_nonnulls(${t.actorId}, ${t.remoteActorId}) = 1`),
    check(
      'notifications_kind',
      sql`${t.kind} in ('like', 'comment', 'upvote', 'follow', 'mention', 'report-resolved', 'boost', 'series-work', 'collection-work', 'commissions-open', 'inquiry', 'inquiry-message', 'inquiry-state')`,
    ),
  ],
);

/** The tags each person follows (their posts appear on Home). */
export const tagFollows = pgTable(
  'tag_follows',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lower case, without '#', as posts.tags holds it. */
    tag: text('tag').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.tag] }),
    index('tag_follows_user_created_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.tag.desc().nullsFirst()),
  ],
);

/**
 * How many posts carry each tag. Kept by the database (trigger posts_tag_counts, migration 0012) in the
 * transaction of every write of posts.tags; a tag no post carries any more stays with count 0.
 */
export const tags = pgTable(
  'tags',
  {
    tag: text('tag').primaryKey(),
    postCount: integer('post_count').notNull().default(0),
  },
  (t) => [
    // Suggestions by prefix: a range in byte order (see prefixEnd in the users module).
    index('tags_prefix_idx').on(sql`(${t.tag} collate "C")`),
    index('tags_used_idx').on(t.postCount.desc().nullsFirst(), t.tag),
    check('tags_post_count_non_negative', sql`${t.postCount} >= 0`),
  ],
);

/** Blocks (issue 23): each of the pair is hidden from the other everywhere; the pair cannot interact. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    // "Did they block me": the reverse probe of every read.
    index('blocks_blocked_idx').on(t.blockedId, t.blockerId),
    index('blocks_blocker_created_idx').on(
      t.blockerId,
      t.createdAt.desc().nullsFirst(),
      t.blockedId.desc().nullsFirst(),
    ),
    check('blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

/** Mutes (issue 23): the muted person's posts and comments are hidden from the muter only. */
export const mutes = pgTable(
  'mutes',
  {
    muterId: uuid('muter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mutedId: uuid('muted_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.muterId, t.mutedId] }),
    index('mutes_muted_idx').on(t.mutedId, t.muterId),
    index('mutes_muter_created_idx').on(t.muterId, t.createdAt.desc().nullsFirst(), t.mutedId.desc().nullsFirst()),
    check('mutes_not_self', sql`${t.muterId} <> ${t.mutedId}`),
  ],
);

/** Muted words and #tags (issue 23): posts carrying one are left out of the user's lists. At most 200 each. */
export const mutedWords = pgTable(
  'muted_words',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** As the user typed it (trimmed); unique per user in any letter case. A '#' first means a tag. */
    word: text('word').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('muted_words_user_word_key').on(t.userId, sql`lower(${t.word})`),
    check('muted_words_word_length', sql`char_length(${t.word}) BETWEEN 1 AND 100`),
  ],
);

/**
 * A report of a post, comment or person (issue 23, migration 0017): one open report per reporter and
 * target (reports_open_key); a moderation action on the target resolves all of its open reports.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The local reporter; null for a remote server's report (an inbound `Flag`, migration 0034). */
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A remote server's report (migration 0034): that server's domain; exactly one of the two. */
    originDomain: text('origin_domain'),
    targetType: text('target_type', { enum: ['post', 'comment', 'user', 'inquiry'] }).notNull(),
    targetId: uuid('target_id').notNull(),
    reason: text('reason', {
      enum: ['spam', 'harassment', 'hate', 'minors', 'stolen-art', 'undisclosed-ai', 'other'],
    }).notNull(),
    note: text('note').notNull().default(''),
    status: text('status', { enum: ['open', 'resolved'] })
      .notNull()
      .default('open'),
    outcome: text('outcome', { enum: ['dismiss', 'hide', 'remove', 'mark-sensitive', 'suspend'] }),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, precision: 3 }),
    /** Sent to the reported remote actor's server too (migration 0058, an outbound `Flag`): its host; null: not sent. */
    forwardTo: text('forward_to'),
    /** When that Flag was queued (claimed once). */
    forwardedAt: timestamp('forwarded_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('reports_open_key')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    index('reports_open_target_idx')
      .on(t.targetType, t.targetId, t.createdAt)
      .where(sql`${t.status} = 'open'`),
    index('reports_open_created_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'open'`),
    // At most one open report per remote server and target (migration 0034).
    uniqueIndex('reports_open_remote_key')
      .on(t.originDomain, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open' and ${t.originDomain} is not null`),
    check('reports_one_reporter', sql`num_nonnulls(${t.reporterId}, ${t.originDomain}) = 1`),
  ],
);

/**
 * The audit log of moderation (issue 23, migration 0017): who did what to which target, when and why.
 * Append-only: no route changes it, and a trigger refuses UPDATE, DELETE and TRUNCATE. No foreign keys,
 * so deleting an account changes none of its rows.
 */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id').notNull(),
    actorUsername: text('actor_username').notNull(),
    action: text('action', {
      enum: [
        'dismiss',
        'hide',
        'remove',
        'mark-sensitive',
        'suspend',
        'role',
        'server-block',
        'server-change',
        'server-unblock',
      ],
    }).notNull(),
    /** 'server': a server block (migration 0034), target_id its server_blocks row. */
    targetType: text('target_type', { enum: ['post', 'comment', 'user', 'server', 'inquiry'] }).notNull(),
    targetId: uuid('target_id').notNull(),
    /** The author of the target (the account itself for a user): their history of actions. */
    targetUserId: uuid('target_user_id'),
    reason: text('reason').notNull(),
    until: timestamp('until', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [
    index('moderation_actions_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('moderation_actions_target_idx').on(t.targetType, t.targetId),
    index('moderation_actions_target_user_idx').on(t.targetUserId),
  ],
);

/**
 * The usernames of deleted accounts (issue 24, migration 0021), lower-cased, held back from new sign-ups
 * until `until`: a trigger on users refuses them (a unique violation of "users_username_held").
 */
export const heldUsernames = pgTable(
  'held_usernames',
  {
    username: text('username').primaryKey(),
    until: timestamp('until', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [check('held_usernames_lower_case', sql`${t.username} = lower(${t.username})`)],
);

/**
 * The single-use links of confirmation and password reset mails (issue 24, migration 0020): only the
 * SHA-256 of each token, the address it was sent to, and when it stops working.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify-email', 'reset-password', 'undo-email'] }).notNull(),
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('account_tokens_user_idx').on(t.userId, t.purpose, t.createdAt),
    check('account_tokens_purpose_check', sql`${t.purpose} in ('verify-email', 'reset-password', 'undo-email')`),
  ],
);

/** A one-time link to download your data (issue 24, migration 0023): the SHA-256 of its random token. */
export const exportLinks = pgTable(
  'export_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [index('export_links_user_idx').on(t.userId)],
);

/** The export running for an account (one at most: the primary key), renewed while its zip streams. */
export const exportRuns = pgTable('export_runs', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  runId: uuid('run_id').notNull(),
  renewedAt: timestamp('renewed_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** Server-side sessions (issue 24, migration 0019): a token names its session (`sid`); an ended one is deleted. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    userAgent: text('user_agent').notNull().default(''),
    address: text('address').notNull().default(''),
    /** When the session last confirmed who it is (issue 38, migration 0028): see SECURITY.reauthMinutes. */
    reauthenticatedAt: timestamp('reauthenticated_at', { withTimezone: true, precision: 3 }),
    /** An app the person authorized (issue 45, migration 0052): its app, scopes and access token's SHA-256. */
    oauthAppId: uuid('oauth_app_id').references((): AnyPgColumn => oauthApps.id, { onDelete: 'cascade' }),
    oauthScopes: text('oauth_scopes'),
    oauthTokenHash: text('oauth_token_hash').unique('sessions_oauth_token_hash_unique'),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    check('sessions_user_agent_length', sql`char_length(${t.userAgent}) <= 512`),
    check('sessions_address_length', sql`char_length(${t.address}) <= 64`),
    index('sessions_oauth_app_idx')
      .on(t.oauthAppId)
      .where(sql`${t.oauthAppId} is not null`),
    check(
      'sessions_oauth_check',
      sql`(${t.oauthAppId} is null) = (${t.oauthTokenHash} is null) and (${t.oauthAppId} is null) = (${t.oauthScopes} is null)`,
    ),
  ],
);

/**
 * The security log (issue 38, migration 0028): each change of what protects the account (password, address,
 * two-factor, passkeys), with the session's device and network; the owner reads it and is mailed about each.
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    detail: text('detail').notNull().default(''),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    userAgent: text('user_agent').notNull().default(''),
    address: text('address').notNull().default(''),
  },
  (t) => [
    index('security_events_user_idx').on(t.userId, t.at),
    // SECURITY_EVENT_KINDS of the contract.
    check(
      'security_events_kind_check',
      sql`${t.kind} in ('password-changed', 'password-reset', 'email-changed', 'email-change-undone', 'two-factor-on', 'two-factor-off', 'passkey-added', 'passkey-removed')`,
    ),
    check('security_events_detail_length', sql`char_length(${t.detail}) <= 600`),
    check('security_events_user_agent_length', sql`char_length(${t.userAgent}) <= 512`),
    check('security_events_address_length', sql`char_length(${t.address}) <= 64`),
  ],
);

/**
 * Two-factor sign-in (issue 24, migration 0022): an authenticator app's secret (encrypted with a key derived
 * from the JWT secret), whether it is on, and the last time-step a code was accepted for.
 */
export const twoFactor = pgTable('two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  totpSecret: text('totp_secret').notNull(),
  totpEnabled: boolean('totp_enabled').notNull().default(false),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** The SHA-256 of each recovery code; a used one keeps its row with used_at. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/** WebAuthn credentials: the credential id and public key in base64url. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull().unique('passkeys_credential_id_key'),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/** What a right password gets while a second factor is asked: the SHA-256 of a random ticket. */
export const signInTickets = pgTable(
  'sign_in_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('sign_in_tickets_user_idx').on(t.userId)],
);

/** WebAuthn challenges, single-use: registering a passkey, or signing in with one (user_id null: any account). */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    challenge: text('challenge').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['register', 'sign-in'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index('passkey_challenges_user_idx').on(t.userId),
    check('passkey_challenges_purpose', sql`${t.purpose} IN ('register', 'sign-in')`),
  ],
);

/**
 * Fedify's key-value store (issue 39, migration 0029): `key` is the JSON of its key array, so a prefix of
 * the array is a prefix of the text; a row past `expires_at` is gone for readers and swept hourly.
 */
export const federationKv = pgTable(
  'federation_kv',
  {
    key: text('key').primaryKey(),
    value: jsonb('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('federation_kv_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} is not null`),
  ],
);

/**
 * Each account's actor key pairs (issue 39, migration 0029), made on first need: RSA-PKCS1-v1_5 of 2,048 bits
 * (HTTP signatures) and Ed25519 (Object Integrity Proofs), as JWK; one row per account and algorithm.
 */
export const actorKeys = pgTable(
  'actor_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    algorithm: text('algorithm', { enum: ['RSASSA-PKCS1-v1_5', 'Ed25519'] }).notNull(),
    publicJwk: jsonb('public_jwk').$type<object>().notNull(),
    privateJwk: jsonb('private_jwk').$type<object>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.algorithm] }),
    check('actor_keys_algorithm_check', sql`${t.algorithm} in ('RSASSA-PKCS1-v1_5', 'Ed25519')`),
  ],
);

/**
 * The remote actors that follow local accounts (issue 39, migration 0030), as last fetched: the actor's id,
 * `user@host`, where to deliver (its inbox, its server's shared inbox), and what a list shows of it.
 */
export const remoteActors = pgTable(
  'remote_actors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    iri: text('iri').notNull().unique(),
    handle: text('handle').notNull(),
    inbox: text('inbox').notNull(),
    sharedInbox: text('shared_inbox'),
    name: text('name').notNull().default(''),
    iconUrl: text('icon_url'),
    profileUrl: text('profile_url'),
    /** When its Move last moved the follows of our accounts (migration 0041): another within 7 days moves nothing. */
    movedAt: timestamp('moved_at', { withTimezone: true, precision: 3 }),
    /** Following out (migration 0039): its outbox (read once for its newest works) and preferredUsername. */
    outbox: text('outbox'),
    username: text('username'),
    fetchedAt: timestamp('fetched_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    /** Insights' "federated" source (issue 42, migration 0050): remote people by their IRI's host. */
    index('remote_actors_host_idx').on(sql`split_part(${t.iri}, '/', 3)`),
  ],
);

/**
 * A remote actor's `Like` or `Announce` (a boost) of a public work (issue 39, migration 0033), once per actor, work
 * and kind; `activity_id` is the activity's id, which its Undo may name alone. A like counts in the post's
 * `remote_like_count` (actions/federation.ts).
 */
export const remoteReactions = pgTable(
  'remote_reactions',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    remoteActorId: uuid('remote_actor_id')
      .notNull()
      .references(() => remoteActors.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['like', 'boost'] }).notNull(),
    activityId: text('activity_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'remote_reactions_pkey', columns: [t.postId, t.remoteActorId, t.kind] }),
    index('remote_reactions_actor_idx').on(t.remoteActorId),
    check('remote_reactions_kind_check', sql`${t.kind} in ('like', 'boost')`),
  ],
);

/** A remote actor follows a local account (migration 0030); `activity_id` is the Follow's id, which its Undo names. */
export const remoteFollows = pgTable(
  'remote_follows',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    remoteActorId: uuid('remote_actor_id')
      .notNull()
      .references(() => remoteActors.id, { onDelete: 'cascade' }),
    activityId: text('activity_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.remoteActorId] }),
    index('remote_follows_actor_idx').on(t.remoteActorId),
    index('remote_follows_user_created_idx').on(
      t.userId,
      t.createdAt.desc().nullsFirst(),
      t.remoteActorId.desc().nullsFirst(),
    ),
  ],
);

/**
 * A work whose Create was sent (migration 0030), with the hash of the Note sent last: an edit that changes the
 * Note is an Update, a work no longer public a Delete. No foreign key to the post: the row outlives it until
 * its Delete is queued. A work no longer public but still there keeps its row, `withdrawn` (migration 0032),
 * and goes out again under its next `generation` (`/ap/posts/{id}.{generation}`) when it is public again.
 */
export const federatedPosts = pgTable(
  'federated_posts',
  {
    postId: uuid('post_id').primaryKey(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    noteHash: text('note_hash').notNull(),
    generation: integer('generation').notNull().default(0),
    withdrawn: boolean('withdrawn').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('federated_posts_author_idx').on(t.authorId)],
);

/**
 * A comment sent as a reply (migration 0032), with the hash of the Note sent last, to its author's and its work's
 * author's followers. No foreign key to the comment, its post or the work's author: the row outlives them until
 * the comment's Delete is queued.
 */
export const federatedComments = pgTable(
  'federated_comments',
  {
    commentId: uuid('comment_id').primaryKey(),
    postId: uuid('post_id').notNull(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postAuthorId: uuid('post_author_id').notNull(),
    noteHash: text('note_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('federated_comments_post_idx').on(t.postId)],
);

/** The hash of the actor (and its pinned works) last sent as Update(Person) (migration 0032). */
export const federatedActors = pgTable('federated_actors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  personHash: text('person_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * A blocked or silenced server (issue 39, migration 0034): its domain (lower case, IDN as punycode) covers its
 * subdomains. `suspend`: everything from it refused, its follows ended, nothing delivered to it; `silence` and
 * `reject_media`: kept and shown (nothing of theirs is shown here yet).
 */
export const serverBlocks = pgTable(
  'server_blocks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    domain: text('domain').notNull().unique(),
    severity: text('severity', { enum: ['suspend', 'silence', 'reject_media'] }).notNull(),
    reason: text('reason').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByUsername: text('created_by_username').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [check('server_blocks_severity_check', sql`${t.severity} in ('suspend', 'silence', 'reject_media')`)],
);

/** A remote actor's Block of a local artist (migration 0034), by the actor's id; its Undo deletes it. */
export const remoteBlocks = pgTable(
  'remote_blocks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorIri: text('actor_iri').notNull(),
    activityId: text('activity_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.actorIri] }), index('remote_blocks_actor_idx').on(t.actorIri)],
);

/**
 * An artist's block of someone on another server (migration 0036): their follow, likes, boosts and notifications
 * end, nothing of the artist is delivered to them; `block_id` names the `Block` sent to them (`{actor}#blocks/{id}`).
 */
export const remotePersonBlocks = pgTable(
  'remote_person_blocks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    remoteActorId: uuid('remote_actor_id')
      .notNull()
      .references(() => remoteActors.id, { onDelete: 'cascade' }),
    blockId: uuid('block_id').notNull().defaultRandom(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.remoteActorId] }),
    index('remote_person_blocks_actor_idx').on(t.remoteActorId),
  ],
);

/**
 * An archive brought from another service (issue 40, migration 0038): its preview, the artist's choices and the
 * job's progress, written after each source post. One queued or running per account.
 */
export const imports = pgTable(
  'imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['instagram', 'mastodon', 'pixelfed', 'share-arts'] }).notNull(),
    state: text('state', { enum: ['ready', 'queued', 'running', 'done', 'failed'] }).notNull(),
    fileName: text('file_name').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** Whose archive it is (a Mastodon actor, a Share Arts account, an Instagram username), when it says. */
    origin: text('origin'),
    options: jsonb('options')
      .notNull()
      .default(sql`'{}'::jsonb`),
    preview: jsonb('preview').notNull(),
    postsTotal: integer('posts_total').notNull(),
    picturesTotal: integer('pictures_total').notNull(),
    postsDone: integer('posts_done').notNull().default(0),
    picturesDone: integer('pictures_done').notNull().default(0),
    imported: integer('imported').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** When the job last (re)started, and the pictures done then: the estimate's pace. */
    resumedAt: timestamp('resumed_at', { withTimezone: true, precision: 3 }),
    picturesAtResume: integer('pictures_at_resume').notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('imports_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('imports_one_running_key')
      .on(t.userId)
      .where(sql`${t.state} in ('queued', 'running')`),
    index('imports_origin_idx').on(t.origin),
    check('imports_source_check', sql`${t.source} in ('instagram', 'mastodon', 'pixelfed', 'share-arts')`),
    check('imports_state_check', sql`${t.state} in ('ready', 'queued', 'running', 'done', 'failed')`),
  ],
);

/**
 * Each source post of an import once handled (migration 0038): imported with its work, already imported by an
 * earlier import, or skipped and why. A source post is imported once per account.
 */
export const importItems = pgTable(
  'import_items',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceKey: text('source_key').notNull(),
    outcome: text('outcome', { enum: ['imported', 'already', 'skipped'] }).notNull(),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'set null' }),
    reason: text('reason'),
    caption: text('caption').notNull().default(''),
    date: timestamp('date', { withTimezone: true, precision: 3 }),
    pictures: integer('pictures').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.position] }),
    uniqueIndex('import_items_imported_key')
      .on(t.userId, t.sourceKey)
      .where(sql`${t.outcome} = 'imported'`),
    index('import_items_post_idx').on(t.postId),
    check('import_items_outcome_check', sql`${t.outcome} in ('imported', 'already', 'skipped')`),
  ],
);

/**
 * Series (issue 41, migration 0040): an artist's own works in their order. The slug is unique per owner; the counts
 * are kept by triggers (every cascade moves them).
 */
export const series = pgTable(
  'series',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** The work chosen as cover; null: the first work. */
    coverPostId: uuid('cover_post_id').references(() => posts.id, { onDelete: 'set null' }),
    workCount: integer('work_count').notNull().default(0),
    followerCount: integer('follower_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('series_owner_slug_key').on(t.ownerId, t.slug),
    index('series_owner_created_idx').on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('series_cover_post_idx')
      .on(t.coverPostId)
      .where(sql`${t.coverPostId} is not null`),
    check('series_title_check', sql`char_length(${t.title}) between 1 and 100`),
    check('series_description_check', sql`char_length(${t.description}) <= 2000`),
    check('series_slug_check', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    check('series_counts_check', sql`${t.workCount} >= 0 and ${t.followerCount} >= 0`),
  ],
);

/**
 * The works of a series: `position` a sparse key (see migration 0040), unique per series, checked at each statement's
 * end (deferrable) so that a renumbering may pass through taken positions.
 */
export const seriesWorks = pgTable(
  'series_works',
  {
    seriesId: uuid('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    chapter: text('chapter'),
    addedAt: timestamp('added_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.seriesId, t.postId] }),
    // DEFERRABLE INITIALLY IMMEDIATE in migration 0040, which drizzle cannot say.
    unique('series_works_position_key').on(t.seriesId, t.position),
    index('series_works_post_idx').on(t.postId),
    index('series_works_added_idx').on(t.seriesId, t.addedAt.desc().nullsFirst()),
    check('series_works_chapter_check', sql`${t.chapter} is null or char_length(${t.chapter}) between 1 and 60`),
  ],
);

/** The people who follow a series alone: a work added to it notifies them. */
export const seriesFollows = pgTable(
  'series_follows',
  {
    seriesId: uuid('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.userId] }), index('series_follows_user_idx').on(t.userId, t.createdAt)],
);

/**
 * A draft of a post (issue 41, migration 0044): the composer's words, rights and series, private to its author and
 * counted nowhere; `revision` is bumped by each save (a stale one is refused). Scheduled: the instant and the zone.
 */
export const drafts = pgTable(
  'drafts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull().default(''),
    rights: jsonb('rights')
      .$type<{
        contentWarning: string | null;
        commentPolicy: string;
        licence: string;
        aiGenerated: boolean;
        downloadable: boolean;
      }>()
      .notNull(),
    seriesId: uuid('series_id').references(() => series.id, { onDelete: 'set null' }),
    chapter: text('chapter'),
    /** The language of its words as the composer chose it (issue 43, migration 0055); null: not said. */
    language: text('language'),
    revision: integer('revision').notNull().default(1),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, precision: 3 }),
    timeZone: text('time_zone'),
    publishError: text('publish_error'),
    /** Set while the scheduled publishing claimed it (a claim older than the job's expiry is taken again). */
    publishingSince: timestamp('publishing_since', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('drafts_author_updated_idx').on(t.authorId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('drafts_scheduled_idx')
      .on(t.scheduledAt)
      .where(sql`${t.scheduledAt} is not null`),
    index('drafts_series_idx')
      .on(t.seriesId)
      .where(sql`${t.seriesId} is not null`),
    check('drafts_content_check', sql`char_length(${t.content}) <= 2000`),
    check('drafts_chapter_check', sql`${t.chapter} is null or char_length(${t.chapter}) between 1 and 60`),
    check('drafts_revision_check', sql`${t.revision} >= 1`),
    check('drafts_schedule_check', sql`(${t.scheduledAt} is null) = (${t.timeZone} is null)`),
    check('drafts_language_length', sql`char_length(${t.language}) <= 35`),
  ],
);

/** A draft's pictures in order; a picture is in one draft at most, and the media sweep spares them. */
export const draftMedia = pgTable(
  'draft_media',
  {
    draftId: uuid('draft_id')
      .notNull()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** A process picture (sketch, lines, flats…; migration 0050) rather than a finished one; each list its own order. */
    process: boolean('process').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.draftId, t.process, t.position] }), unique('draft_media_media_key').on(t.mediaId)],
);

/**
 * A post's history (issue 41, migration 0045): one row per edit that changed something, with the fields it changed
 * and their values before and after (the words and the rights: only the changed ones); the pictures before an edit
 * that changed them are post_revision_media rows.
 */
export const postRevisions = pgTable(
  'post_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** 'content', 'pictures', 'processPictures' and the rights' names (contentWarning, licence, …). */
    changed: text('changed').array().notNull(),
    before: jsonb('before').$type<Record<string, unknown>>().notNull().default({}),
    after: jsonb('after').$type<Record<string, unknown>>().notNull().default({}),
    /** How many pictures the post showed before and after, when the edit changed them (null otherwise). */
    pictureCountBefore: smallint('picture_count_before'),
    pictureCountAfter: smallint('picture_count_after'),
  },
  (t) => [
    index('post_revisions_post_created_idx').on(t.postId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('post_revisions_changed_check', sql`cardinality(${t.changed}) >= 1`),
  ],
);

/**
 * The pictures (kind 'picture') or process pictures (kind 'process') a post showed before an edit that changed them,
 * in order, with the alt text each had then. A picture a revision names is kept for its author (the media sweep
 * spares it; /media/ serves it to nobody while no post shows it).
 */
export const postRevisionMedia = pgTable(
  'post_revision_media',
  {
    revisionId: uuid('revision_id')
      .notNull()
      .references(() => postRevisions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['picture', 'process'] })
      .notNull()
      .default('picture'),
    position: smallint('position').notNull(),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    alt: text('alt').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.revisionId, t.kind, t.position] }),
    index('post_revision_media_media_idx').on(t.mediaId),
    check('post_revision_media_kind', sql`${t.kind} in ('picture', 'process')`),
    check('post_revision_media_position', sql`${t.position} >= 0`),
  ],
);

/**
 * Collections (issue 41, migration 0042): works by anyone gathered by anyone signed in, public or private. The slug is
 * unique per owner ('saved' is the Saved collection's, the `bookmarks` rows); the count is kept by triggers.
 */
export const collections = pgTable(
  'collections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    isPublic: boolean('is_public').notNull().default(false),
    workCount: integer('work_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('collections_owner_slug_key').on(t.ownerId, t.slug),
    index('collections_owner_created_idx').on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('collections_title_check', sql`char_length(${t.title}) between 1 and 100`),
    check('collections_description_check', sql`char_length(${t.description}) <= 2000`),
    check('collections_slug_check', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and ${t.slug} <> 'saved'`),
    check('collections_counts_check', sql`${t.workCount} >= 0`),
  ],
);

/** The works of a collection: `position` a sparse key as series_works' (deferrable unique key, migration 0042). */
export const collectionWorks = pgTable(
  'collection_works',
  {
    collectionId: uuid('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    note: text('note').notNull().default(''),
    addedAt: timestamp('added_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.postId] }),
    // DEFERRABLE INITIALLY IMMEDIATE in migration 0042, which drizzle cannot say.
    unique('collection_works_position_key').on(t.collectionId, t.position),
    index('collection_works_post_idx').on(t.postId),
    check('collection_works_note_check', sql`char_length(${t.note}) <= 500`),
  ],
);

/** A calendar day (`date`), as the drivers give it: 'YYYY-MM-DD' text. */
const viewDay = customType<{ data: string }>({ dataType: () => 'date' });

/**
 * Insights (issue 42, migration 0048): a work's views per day, source (home, explore, a tag, an external site, …) and
 * referring site's host ('' unless external or federated). Counts only: who viewed is never stored; `views` grows by
 * one upsert per batch (modules/insights). Its CHECKs (the sources, host only for external) are the migration's.
 */
export const postViewDays = pgTable(
  'post_view_days',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    day: viewDay('day').notNull(),
    source: text('source').notNull(),
    host: text('host').notNull().default(''),
    views: integer('views').notNull(),
  },
  (t) => [primaryKey({ name: 'post_view_days_pkey', columns: [t.postId, t.day, t.source, t.host] })],
);

/** Insights (issue 42, migration 0048): a profile's views per day, source and host, as `post_view_days`. */
export const profileViewDays = pgTable(
  'profile_view_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: viewDay('day').notNull(),
    source: text('source').notNull(),
    host: text('host').notNull().default(''),
    views: integer('views').notNull(),
  },
  (t) => [primaryKey({ name: 'profile_view_days_pkey', columns: [t.userId, t.day, t.source, t.host] })],
);

/** Bytes (a reference picture of an inquiry, issue 42). */
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * Inquiries (issue 42, migration 0047): one request from a client to an artist, its state, and who deleted it for
 * themselves (the row goes once both have).
 */
export const inquiries = pgTable(
  'inquiries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    budgetAmount: integer('budget_amount'),
    budgetCurrency: text('budget_currency'),
    deadline: date('deadline'),
    state: text('state', { enum: ['open', 'accepted', 'declined', 'done'] })
      .notNull()
      .default('open'),
    declineReason: text('decline_reason'),
    messageCount: integer('message_count').notNull().default(0),
    artistDeletedAt: timestamp('artist_deleted_at', { withTimezone: true, precision: 3 }),
    clientDeletedAt: timestamp('client_deleted_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('inquiries_artist_idx').on(t.artistId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('inquiries_client_idx').on(t.clientId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('inquiries_not_self', sql`${t.artistId} <> ${t.clientId}`),
    check('inquiries_body_check', sql`char_length(${t.body}) between 1 and 5000`),
    check(
      'inquiries_budget_check',
      sql`(${t.budgetAmount} is null) = (${t.budgetCurrency} is null)
		and (${t.budgetAmount} is null or ${t.budgetAmount} between 1 and 100000000)
		and (${t.budgetCurrency} is null or ${t.budgetCurrency} ~ '^[A-Z]{3}$')`,
    ),
    check('inquiries_state_check', sql`${t.state} in ('open', 'accepted', 'declined', 'done')`),
    check(
      'inquiries_decline_check',
      sql`(${t.state} = 'declined') = (${t.declineReason} is not null)
		and (${t.declineReason} is null or char_length(${t.declineReason}) between 1 and 1000)`,
    ),
  ],
);

/** The messages of an inquiry's two people, oldest first. */
export const inquiryMessages = pgTable(
  'inquiry_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    inquiryId: uuid('inquiry_id')
      .notNull()
      .references(() => inquiries.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('inquiry_messages_inquiry_idx').on(t.inquiryId, t.createdAt, t.id),
    check('inquiry_messages_body_check', sql`char_length(${t.body}) between 1 and 2000`),
  ],
);

/** An inquiry's reference pictures: their re-encoded bytes, served only to the two people of the inquiry. */
export const inquiryReferences = pgTable(
  'inquiry_references',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    inquiryId: uuid('inquiry_id')
      .notNull()
      .references(() => inquiries.id, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    contentType: text('content_type').notNull(),
    data: bytea('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('inquiry_references_inquiry_idx').on(t.inquiryId, t.createdAt)],
);

/** Who may send an artist an inquiry, and whether a new one is mailed (no row: everyone, no mail). */
export const inquirySettings = pgTable(
  'inquiry_settings',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    accepting: text('accepting', { enum: ['everyone', 'followers', 'closed'] })
      .notNull()
      .default('everyone'),
    mail: boolean('mail').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [check('inquiry_settings_accepting_check', sql`${t.accepting} in ('everyone', 'followers', 'closed')`)],
);

/**
 * Open for commissions (issue 42, migration 0046): an artist's panel, one row once they filled it in. Prices are
 * whole units of `currency` (ISO 4217); `opened_at` is when they last opened.
 */
export const commissionProfiles = pgTable(
  'commission_profiles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    open: boolean('open').notNull().default(false),
    kinds: text('kinds')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    kindsNote: text('kinds_note').notNull().default(''),
    slotsTotal: integer('slots_total'),
    slotsTaken: integer('slots_taken').notNull().default(0),
    currency: text('currency'),
    priceMin: integer('price_min'),
    priceMax: integer('price_max'),
    turnaroundDays: integer('turnaround_days'),
    terms: text('terms').notNull().default(''),
    termsUrl: text('terms_url'),
    languages: text('languages')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    openedAt: timestamp('opened_at', { withTimezone: true, precision: 3 }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('commission_profiles_kinds_idx')
      .using('gin', t.kinds)
      .where(sql`${t.open}`),
    index('commission_profiles_price_idx')
      .on(t.currency, t.priceMin, t.priceMax)
      .where(sql`${t.open}`),
    index('commission_profiles_open_idx')
      .on(t.userId)
      .where(sql`${t.open}`),
    check(
      'commission_profiles_kinds_check',
      sql`${t.kinds} <@ array['illustration', 'character-design', 'portrait', 'concept-art', 'comic', 'logo', 'tattoo-design', 'other']::text[]`,
    ),
    check('commission_profiles_kinds_note_check', sql`char_length(${t.kindsNote}) <= 200`),
    check(
      'commission_profiles_slots_check',
      sql`(${t.slotsTotal} is null and ${t.slotsTaken} = 0) or (${t.slotsTotal} between 1 and 99 and ${t.slotsTaken} between 0 and ${t.slotsTotal})`,
    ),
    check(
      'commission_profiles_price_check',
      sql`(${t.currency} is null and ${t.priceMin} is null and ${t.priceMax} is null) or (${t.currency} ~ '^[A-Z]{3}$' and ${t.priceMin} between 0 and ${t.priceMax} and ${t.priceMax} <= 10000000)`,
    ),
    check(
      'commission_profiles_turnaround_check',
      sql`${t.turnaroundDays} is null or ${t.turnaroundDays} between 1 and 365`,
    ),
    check('commission_profiles_terms_check', sql`char_length(${t.terms}) <= 2000`),
    check(
      'commission_profiles_terms_url_check',
      sql`${t.termsUrl} is null or (${t.termsUrl} like 'https://%' and char_length(${t.termsUrl}) <= 500)`,
    ),
    check('commission_profiles_languages_check', sql`cardinality(${t.languages}) <= 10`),
  ],
);

/** The example works of an artist's commission panel (issue 42): their own works, in their order (0 to 5). */
export const commissionExamples = pgTable(
  'commission_examples',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => commissionProfiles.userId, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.postId] }),
    index('commission_examples_post_idx').on(t.postId),
    check('commission_examples_position_check', sql`${t.position} between 0 and 5`),
  ],
);

/** "Tell me when they open" (issue 42): a follower of the artist; `notified_at`, when they were last told. */
export const commissionWatchers = pgTable(
  'commission_watchers',
  {
    artistId: uuid('artist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    watcherId: uuid('watcher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    notifiedAt: timestamp('notified_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.artistId, t.watcherId] }),
    index('commission_watchers_watcher_idx').on(t.watcherId, t.createdAt),
  ],
);

// ── The Mastodon client API (issue 45) ──────────────────────────────────────────────────────────────────
/** Where a person stopped reading in an app (Mastodon's markers, migration 0053): home and notifications. */
export const mastodonMarkers = pgTable(
  'mastodon_markers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    timeline: text('timeline').notNull(),
    lastReadId: text('last_read_id').notNull(),
    version: integer('version').notNull().default(1),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.timeline] }),
    check('mastodon_markers_timeline_check', sql`${t.timeline} in ('home', 'notifications')`),
    check('mastodon_markers_last_read_id_check', sql`char_length(${t.lastReadId}) between 1 and 100`),
  ],
);

// ── OAuth 2 as Mastodon does it (issue 45, migration 0052, docs/oauth.md) ──────────────────────────────────
/** An app registered through POST /api/v1/apps: its client secret kept as its SHA-256 (hex). */
export const oauthApps = pgTable(
  'oauth_apps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull().unique('oauth_apps_client_id_unique'),
    clientSecretHash: text('client_secret_hash').notNull(),
    name: text('name').notNull(),
    website: text('website'),
    redirectUris: text('redirect_uris').array().notNull(),
    scopes: text('scopes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('oauth_apps_name_length', sql`char_length(${t.name}) between 1 and 200`)],
);

/** An authorization code (SHA-256, hex): single-use, 10 minutes, with its PKCE challenge. */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    appId: uuid('app_id')
      .notNull()
      .references(() => oauthApps.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    scopes: text('scopes').notNull(),
    codeChallenge: text('code_challenge'),
    codeChallengeMethod: text('code_challenge_method'),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('oauth_codes_expires_idx').on(t.expiresAt)],
);

/** A token of an app alone (grant client_credentials): no person, SHA-256 (hex). */
export const oauthAppTokens = pgTable(
  'oauth_app_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    appId: uuid('app_id')
      .notNull()
      .references(() => oauthApps.id, { onDelete: 'cascade' }),
    scopes: text('scopes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_app_tokens_app_idx').on(t.appId)],
);

// ── Web Push (issue 44, migration 0051) ─────────────────────────────────────────────────────────────────
/** A device's push subscription: one per session, deleted with it (ending the session or logging out). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    kinds: text('kinds')
      .array()
      .notNull()
      .default(sql`'{follows,likes,comments,mentions,inquiries}'::text[]`),
    createdAt: createdAt(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true, precision: 3 }),
    failures: integer('failures').notNull().default(0),
    // The Mastodon API's subscriptions (issue 45, migration 0057): Mastodon's payload, policy, alerts and coding.
    client: text('client').notNull().default('web'),
    policy: text('policy').notNull().default('all'),
    alerts: text('alerts').array(),
    encoding: text('encoding').notNull().default('aes128gcm'),
    appToken: text('app_token'),
  },
  (t) => [
    unique('push_subscriptions_endpoint_unique').on(t.endpoint),
    unique('push_subscriptions_session_unique').on(t.sessionId),
    index('push_subscriptions_user_idx').on(t.userId),
    check('push_subscriptions_endpoint_length', sql`char_length(${t.endpoint}) <= 1024`),
    check('push_subscriptions_keys_length', sql`char_length(${t.p256dh}) <= 128 and char_length(${t.auth}) <= 64`),
    check(
      'push_subscriptions_kinds',
      sql`${t.kinds} <@ array['follows', 'likes', 'comments', 'mentions', 'inquiries']::text[]`,
    ),
    check(
      'push_subscriptions_client',
      sql`${t.client} in ('web', 'mastodon') and ${t.policy} in ('all', 'followed', 'follower', 'none') and ${t.encoding} in ('aes128gcm', 'aesgcm') and char_length(coalesce(${t.appToken}, '')) <= 512`,
    ),
  ],
);

/**
 * One person's push group (a kind, and the work or inquiry it is about): `pending` while a push job waits out its
 * window, `sent_up_to` the newest notification already pushed (or passed over), `live_seen_at` when a process
 * with one of the person's live sockets saw a notification of the group (no push then).
 */
export const pushGroups = pgTable(
  'push_groups',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupKey: text('group_key').notNull(),
    pending: boolean('pending').notNull().default(true),
    sentUpTo: timestamp('sent_up_to', { withTimezone: true, precision: 3 }).notNull(),
    liveSeenAt: timestamp('live_seen_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.groupKey] })],
);

// ── Idempotency-Key (issue 44, migration 0057) ─────────────────────────────────────────────────────────────
/** A write's Idempotency-Key, per person and kind of write, for 24 hours: what the first write made. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    resultId: text('result_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.scope, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
    check('idempotency_keys_key_length', sql`char_length(${t.key}) <= 255 and char_length(${t.scope}) <= 32`),
  ],
);
