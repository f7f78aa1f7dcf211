import { Type, type Static } from 'typebox';
import { DateString, Id } from './common.js';
import { ContentWarning, CommentPolicy, Licence } from './rights.js';

/**
 * A published work's history (issue 41, "fixing a published work"). Routes, under /api (docs/post-history.md):
 *
 * - `POST /posts/edit/{id}` (the edit, as before): an edit that changes something keeps a revision, sets the post's
 *   `editedAt`, and keeps the pictures it takes out for the author (no longer deleted).
 * - `GET /posts/{id}/history?cursor&limit` → `PostHistoryPage`: the revisions, newest first, by keyset; what changed
 *   in the words and the rights for everyone who may see the post (404 for anyone else), and the earlier pictures
 *   for its author only.
 * - `GET /posts/{id}/history/pictures/{mediaId}?size=thumb|large` → the JPEG of a picture a revision keeps (the
 *   author only, with their token): kept pictures are never served under /media/ once no post shows them.
 */

/** The fields an edit can change, as a revision names them. */
export const POST_REVISION_FIELDS = [
  'content',
  'language',
  'pictures',
  'processPictures',
  'contentWarning',
  'commentPolicy',
  'licence',
  'aiGenerated',
  'downloadable',
] as const;
export type PostRevisionField = (typeof POST_REVISION_FIELDS)[number];

/** The words and rights of a post at one time: only the fields the revision changed are present. */
export const PostRevisionValues = Type.Object({
  content: Type.Optional(Type.String()),
  language: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'The language of its words (issue 43); null: not said' }),
  ),
  contentWarning: Type.Optional(ContentWarning),
  commentPolicy: Type.Optional(CommentPolicy),
  licence: Type.Optional(Licence),
  aiGenerated: Type.Optional(Type.Boolean()),
  downloadable: Type.Optional(Type.Boolean()),
});
export type PostRevisionValues = Static<typeof PostRevisionValues>;

/** A picture the post showed before an edit, as its author sees it in the history. */
export const KeptPicture = Type.Object({
  _id: Id,
  alt: Type.String({ description: 'Its alt text at the time' }),
  width: Type.Integer(),
  height: Type.Integer(),
  placeholder: Type.String({ description: 'A ThumbHash (base64) to show while it loads' }),
  thumbUrl: Type.String({
    description:
      'GET /api/posts/{id}/history/pictures/{mediaId}?size=thumb: a small JPEG, with the author’s token (an API path, not a public file)',
  }),
  url: Type.String({ description: 'The same at size=large (about 1080 px wide)' }),
  shownNow: Type.Boolean({ description: 'The post shows this picture again (or still)' }),
});
export type KeptPicture = Static<typeof KeptPicture>;

export const PostRevisionPictures = Type.Object({
  before: Type.Integer({ description: 'How many pictures it showed before the edit' }),
  after: Type.Integer({ description: 'How many it showed after' }),
  earlier: Type.Optional(
    Type.Array(KeptPicture, {
      description: 'The pictures before the edit, in their order: present for the post’s author only',
    }),
  ),
});
export type PostRevisionPictures = Static<typeof PostRevisionPictures>;

export const PostRevision = Type.Object({
  _id: Id,
  createdAt: DateString,
  changed: Type.Array(Type.Enum([...POST_REVISION_FIELDS]), {
    description: 'What the edit changed: content, language, pictures, processPictures, or a right or warning’s name',
  }),
  before: PostRevisionValues,
  after: PostRevisionValues,
  pictures: Type.Union([PostRevisionPictures, Type.Null()], { description: 'null when the pictures did not change' }),
  processPictures: Type.Union([PostRevisionPictures, Type.Null()], {
    description: 'null when the process pictures did not change',
  }),
});
export type PostRevision = Static<typeof PostRevision>;

export const PostHistoryPage = Type.Object({
  revisions: Type.Array(PostRevision, { description: 'Newest first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type PostHistoryPage = Static<typeof PostHistoryPage>;

export const KeptPictureParams = Type.Object({
  id: Id,
  mediaId: Id,
});

export const KeptPictureQuery = Type.Object({
  size: Type.Optional(
    Type.Enum(['thumb', 'large'], {
      description: 'thumb: about 320 px wide (default); large: about 1080 px',
      errorMessage: 'size must be thumb or large',
    }),
  ),
});

export const POST_HISTORY_ERRORS = {
  keptPictureNotFound: 'This post’s history keeps no picture with this id.',
  keptPictureNotAuthor: 'Only the post’s author sees its earlier pictures.',
} as const;
