import { Type, type Static } from 'typebox';
import { LIMITS, SORTS } from '../constants.js';
import { BODY_TEXT, DateString, Id } from './common.js';
import { MEDIA_LIMITS, Picture } from './media.js';
import { PostRightsFields, PostRightsInput } from './rights.js';
import { RemotePerson } from './user.js';
import { CommissionFilterQuery } from './commissions.js';

/** Paging of every list: `limit` (default 20, at most 50) and the opaque `cursor` of the previous page. */
export const PAGE_LIMITS = { default: 20, max: 50 } as const;
/** The newest likers (and dislikers) embedded in a post; the signed-in viewer is always among them if present. */
export const POST_REACTION_CAP = 5;
/** The newest comments embedded in a post (in lists too); the rest are paged by GET /api/comments/{postId}. */
export const POST_COMMENT_CAP = 3;

export const PageQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: PAGE_LIMITS.max, description: `Default ${PAGE_LIMITS.default}` }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 300, description: 'The nextCursor of the previous page; omit for the first page' }),
  ),
});
export type PageQuery = Static<typeof PageQuery>;

export const PostListQuery = Type.Object({
  ...PageQuery.properties,
  sort: Type.Optional(
    Type.Enum([...SORTS], {
      description: 'latest (default) and oldest by creation time; trending by like count, then newest',
    }),
  ),
});
export type PostListQuery = Static<typeof PostListQuery>;

/** Explore (GET /posts) and a tag's posts: a posts list, narrowed to artists open for commissions if asked (issue 42). */
export const ExploreQuery = Type.Object({ ...PostListQuery.properties, ...CommissionFilterQuery.properties });
export type ExploreQuery = Static<typeof ExploreQuery>;

export const ReactionUser = Type.Object({ _id: Id, username: Type.String() });
export type ReactionUser = Static<typeof ReactionUser>;

/**
 * A comment. A reply from another server of the fediverse (issue 39) has `remote` and `firstName`, named as a
 * notification names such a person (PersonSummary): `userId` is then no account here, `username` their handle
 * (`bob@mastodon.example`: nothing at `/{username}`), `userPhoto` the default photo; nobody here can edit it.
 */
export const Comment = Type.Object({
  _id: Id,
  postId: Id,
  userId: Id,
  username: Type.String(),
  userPhoto: Type.String(),
  firstName: Type.Optional(Type.String({ description: 'Only with `remote`: their display name' })),
  remote: Type.Optional(RemotePerson),
  content: Type.String(),
  createdAt: DateString,
  updatedAt: DateString,
  edited: Type.Boolean({ description: 'True once the comment was edited (updatedAt is then the edit time)' }),
  votes: Type.Object({
    upvoteCount: Type.Integer(),
    downvoteCount: Type.Integer(),
    upvotedBy: Type.Array(ReactionUser, { description: `The newest ${POST_REACTION_CAP}; the viewer if they voted` }),
    downvotedBy: Type.Array(ReactionUser, { description: `The newest ${POST_REACTION_CAP}; the viewer if they voted` }),
  }),
  viewerVote: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Null()]),
});
export type Comment = Static<typeof Comment>;

/**
 * A post's language (issue 43): a BCP 47 language tag, which the server keeps in its canonical form (`en`, `ja`,
 * `pt-BR`; `EN-us` is kept as `en-US`). Its text carries it as `lang` (screen readers) and its Note as `contentMap`.
 */
export const POST_LANGUAGE_MAX = 35;

export const POST_LANGUAGE_ERRORS = {
  malformed: 'Language must be a language tag such as en, ja or pt-BR.',
} as const;

/**
 * A language tag in its canonical form (`Intl.getCanonicalLocales`: `EN-us` → `en-US`, `iw` → `he`), or null when it
 * is not a well-formed one or is longer than POST_LANGUAGE_MAX.
 */
export function canonicalLanguage(tag: string): string | null {
  const trimmed = tag.trim();
  if (!trimmed || trimmed.length > POST_LANGUAGE_MAX) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(trimmed);
    // A language is two or three letters (ISO 639): "hacked-value" is well formed, but names none.
    return canonical && canonical.length <= POST_LANGUAGE_MAX && /^[a-z]{2,3}(-|$)/.test(canonical) ? canonical : null;
  } catch {
    // RangeError: not a well-formed language tag.
    return null;
  }
}

export const PostLanguage = Type.Union(
  [
    Type.String({
      minLength: 1,
      maxLength: POST_LANGUAGE_MAX,
      // A language is two or three letters (ISO 639); longer first subtags are reserved or unused.
      pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$',
      // The answer adds the full stop: the same sentence as the service's refusal of a tag that is not canonical.
      errorMessage: 'Language must be a language tag such as en, ja or pt-BR',
    }),
    Type.Null(),
  ],
  {
    description: `The language the text is in: a BCP 47 language tag (en, ja, pt-BR; at most ${POST_LANGUAGE_MAX} characters), kept in its canonical form; null: not said (on edit, null clears it)`,
  },
);

export const Post = Type.Object({
  _id: Id,
  content: Type.String(),
  language: Type.Union([Type.String(), Type.Null()], {
    description:
      'The language its text is in, as its author said (a canonical BCP 47 tag: en, ja, pt-BR); null: not said. Artists’ words are never translated',
  }),
  userId: Id,
  username: Type.String({ description: "The author's username" }),
  name: Type.String({ description: "The author's full name" }),
  userPhoto: Type.String({ description: "URL of the author's photo" }),
  authorOpenForCommissions: Type.Optional(
    Type.Boolean({ description: 'true when the author is open for commissions (issue 42); absent otherwise' }),
  ),
  postPic: Type.String({
    description: 'URL of the first picture (the default picture when the post has none), for clients that show one',
  }),
  picture: Type.Union([Picture, Type.Null()], {
    description: 'The first picture (media[0]); null when the post shows the default picture',
  }),
  media: Type.Array(Picture, {
    maxItems: LIMITS.postPicturesMax,
    description: `The post's pictures in the author's order (at most ${LIMITS.postPicturesMax}), each with its own alt text`,
  }),
  process: Type.Array(Picture, {
    maxItems: LIMITS.processPicturesMax,
    description: `The work's process pictures (sketch, lines, flats…: issue 41) in the artist's order, at most ${LIMITS.processPicturesMax}, each with its own alt text; [] when none. Never among media, postPic or picture`,
  }),
  createdAt: DateString,
  updatedAt: DateString,
  editedAt: Type.Optional(
    Type.String({
      examples: ['2026-11-22T07:57:37+00:00'],
      description:
        'When an edit last changed what readers see (the post says "edited"; GET /api/posts/{id}/history lists the changes); absent when never edited. YYYY-MM-DDTHH:mm:ssZ, UTC',
    }),
  ),
  time: Type.String({ description: 'Creation time, hh:mm A (UTC)' }),
  likes: Type.Object({
    likeCount: Type.Integer({
      description:
        'Number of people who like the post: the users here (likedBy lists the newest) and people on other servers (an ActivityPub Like, issue 39)',
    }),
    dislikeCount: Type.Integer(),
    likedBy: Type.Array(ReactionUser, {
      description: `The newest ${POST_REACTION_CAP}; the viewer first if they liked`,
    }),
    dislikedBy: Type.Array(ReactionUser, {
      description: `The newest ${POST_REACTION_CAP}; the viewer first if they disliked`,
    }),
  }),
  comments: Type.Array(Comment, {
    description: `The newest ${POST_COMMENT_CAP}, newest first, as the viewer sees them (their votes), in lists as on a single post; commentCount is the total; GET /api/comments/{postId} pages them all`,
  }),
  commentCount: Type.Integer(),
  moderation: Type.Union(
    [
      Type.Object({
        state: Type.Literal('hidden'),
        reason: Type.String({ description: "The moderator's reason" }),
      }),
      Type.Null(),
    ],
    {
      description: 'Shown to its author only: a moderator hid this post (nobody else sees it) and why; null otherwise',
    },
  ),
  ...PostRightsFields,
  origin: Type.Optional(
    Type.Object(
      {
        host: Type.String({ description: 'The server it comes from (mastodon.example)' }),
        url: Type.String({ description: 'Its page there (always http or https): an external link' }),
      },
      { description: 'Present exactly for a work from another server (following out, issue 39)' },
    ),
  ),
  importedFrom: Type.Optional(
    Type.String({
      description: 'An imported work (issue 40): where it came from ("Instagram", "Mastodon", …); absent otherwise',
    }),
  ),
  viewer: Type.Object(
    {
      liked: Type.Boolean(),
      disliked: Type.Boolean(),
      bookmarked: Type.Boolean(),
      followsAuthor: Type.Boolean(),
      isAuthor: Type.Boolean(),
      mutedWord: Type.Union([Type.String(), Type.Null()], {
        description:
          'On a single post (GET /api/posts/{id}): the muted word or #tag of yours that keeps it out of your lists; null otherwise',
      }),
    },
    { description: "The signed-in viewer's relation to the post (all false when signed out)" },
  ),
  reason: Type.Optional(
    Type.Object(
      { tag: Type.String({ description: 'The followed tag (lower case, without #)' }) },
      {
        description:
          'Only on Home (GET /api/feed), only for a post by someone the viewer does not follow: it is there because it carries a tag the viewer follows',
      },
    ),
  ),
});
export type Post = Static<typeof Post>;

export const PostPage = Type.Object({
  posts: Type.Array(Post),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type PostPage = Static<typeof PostPage>;

export const PostResponse = Type.Object({ post: Post });
export type PostResponse = Static<typeof PostResponse>;

/** Writes answer the first page of GET /api/posts and the post written; `Prefer: return=minimal` gives `{ post }`. */
export const PostWriteResponse = Type.Object({
  posts: Type.Optional(Type.Array(Post, { description: 'The first page of GET /api/posts (latest)' })),
  nextCursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  post: Type.Optional(Post),
});
export type PostWriteResponse = Static<typeof PostWriteResponse>;

const content = Type.String({
  maxLength: LIMITS.postContentMax,
  ...BODY_TEXT,
  errorMessage: `content must be at most ${LIMITS.postContentMax} characters long`,
});
const mediaId = Type.String({ maxLength: 64, description: 'The _id of a picture uploaded with POST /api/media' });
const tooManyPictures = `A post holds at most ${LIMITS.postPicturesMax} pictures`;
const mediaIds = Type.Array(mediaId, {
  maxItems: LIMITS.postPicturesMax,
  errorMessage: tooManyPictures,
  description: `The post's pictures in order, 0 to ${LIMITS.postPicturesMax}, each uploaded with POST /api/media by you and in no other post; the first is the cover (postPic). Send mediaIds or mediaId, not both`,
});

const tooManyProcessPictures = `A work holds at most ${LIMITS.processPicturesMax} process pictures`;
/** The process pictures of a work (issue 41): on create, and on edit the whole new list. */
const processMediaIds = Type.Array(mediaId, {
  maxItems: LIMITS.processPicturesMax,
  errorMessage: tooManyProcessPictures,
  description: `The work's process pictures (sketch, lines, flats…) in order, 0 to ${LIMITS.processPicturesMax}, each uploaded with POST /api/media (purpose post) by you and in no post (neither as a picture nor as a process picture). On edit the whole new list ([] removes them all; left out keeps them); a removed one is deleted`,
});

export const CreatePostBody = Type.Object({
  content,
  language: Type.Optional(PostLanguage),
  mediaId: Type.Optional(Type.Union([mediaId, Type.Null()], { description: 'One picture: the same as mediaIds [id]' })),
  mediaIds: Type.Optional(mediaIds),
  processMediaIds: Type.Optional(processMediaIds),
  ...PostRightsInput,
});
export type CreatePostBody = Static<typeof CreatePostBody>;

export const EditPostBody = Type.Object({
  postData: Type.Object(
    {
      content: Type.Optional(content),
      language: Type.Optional(PostLanguage),
      mediaId: Type.Optional(
        Type.Union([mediaId, Type.Null()], {
          description: 'One picture, replacing all of them; null removes them all (the default picture)',
        }),
      ),
      mediaIds: Type.Optional(
        Type.Array(mediaId, {
          maxItems: LIMITS.postPicturesMax,
          errorMessage: tooManyPictures,
          description:
            'The whole new list, in order: add, remove and reorder in one write; [] removes them all. A removed picture is deleted',
        }),
      ),
      processMediaIds: Type.Optional(processMediaIds),
      alts: Type.Optional(
        Type.Array(
          Type.Object(
            {
              mediaId,
              alt: Type.String({
                maxLength: MEDIA_LIMITS.altMax,
                errorMessage: `alt must be at most ${MEDIA_LIMITS.altMax} characters long`,
              }),
            },
            { additionalProperties: false },
          ),
          {
            maxItems: LIMITS.postPicturesMax + LIMITS.processPicturesMax,
            errorMessage: `alts lists at most ${LIMITS.postPicturesMax + LIMITS.processPicturesMax} pictures, each once`,
            description:
              'New alt texts of pictures or process pictures the post shows after this edit (issue 41): a change of alt text alone is an edit, kept in the history as a change of those pictures (the earlier alt texts kept for the author). Each picture once; one the post does not show is refused (400)',
          },
        ),
      ),
      ...PostRightsInput,
    },
    {
      additionalProperties: false,
      description:
        'Content, its language, the pictures, the process pictures, their alt texts, the content warning, who may comment, the licence, the AI label and downloads can change; other fields are ignored',
    },
  ),
});
export type EditPostBody = Static<typeof EditPostBody>;

export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
// A username here, or a shadow account's `user@host` (a host name alone may be 253 characters).
export const UsernameParams = Type.Object({ username: Type.String({ maxLength: 320 }) });

export const CommentListQuery = Type.Object({
  ...PageQuery.properties,
  order: Type.Optional(Type.Enum(['oldest', 'newest'], { description: 'oldest (default) or newest first' })),
});
export type CommentListQuery = Static<typeof CommentListQuery>;

export const CommentPage = Type.Object({
  comments: Type.Array(Comment),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type CommentPage = Static<typeof CommentPage>;

const commentContent = Type.String({
  maxLength: LIMITS.commentContentMax,
  ...BODY_TEXT,
  errorMessage: `content must be at most ${LIMITS.commentContentMax} characters long`,
});

export const AddCommentBody = Type.Object({
  commentData: Type.Object({ content: commentContent }, { additionalProperties: false }),
});
export type AddCommentBody = Static<typeof AddCommentBody>;

export const EditCommentBody = Type.Object({ content: commentContent });
export type EditCommentBody = Static<typeof EditCommentBody>;

/** Comment writes: the post (with its newest comments and count) and the comment written. */
export const CommentWriteResponse = Type.Object({
  posts: Type.Optional(Type.Array(Post, { description: 'The first page of GET /api/posts (latest)' })),
  nextCursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  post: Type.Optional(Post),
  comment: Type.Optional(Comment),
});
export type CommentWriteResponse = Static<typeof CommentWriteResponse>;

/** Votes answer the first page of the post's comments and the comment voted on. */
export const VoteResponse = Type.Object({
  comments: Type.Optional(Type.Array(Comment)),
  nextCursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  comment: Comment,
});
export type VoteResponse = Static<typeof VoteResponse>;

export const CommentParams = Type.Object({
  postId: Type.String({ maxLength: 100 }),
  commentId: Type.String({ maxLength: 100 }),
});
export const PostIdParams = Type.Object({ postId: Type.String({ maxLength: 100 }) });
