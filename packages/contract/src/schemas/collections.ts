import { Type, type Static } from 'typebox';
import { BODY_TEXT, DateString, Id, NAME_TEXT } from './common.js';
import { Picture } from './media.js';
import { PageQuery, Post } from './post.js';
import { UserSummary } from './user.js';

/**
 * Collections (issue 41): works by anyone, gathered by anyone signed in (a mood board, "figure references", a
 * curator's show), public or private, in the collector's order, with a note per work. Saved (the bookmarks) is each
 * person's default private collection: `_id` and `slug` `saved`, kind `saved`. Routes, all under /api
 * (docs/collections.md says more):
 *
 * - `GET /users/{username}/collections?cursor&limit` → `CollectionPage`: public ones (the owner: Saved first, then
 *   all), the newest first.
 * - `GET /users/{username}/collections/{slug}` → `CollectionResponse`; a private one 404s for anyone but its owner.
 * - `POST /collections` `CreateCollectionBody` → 201 `CollectionResponse` (signed in).
 * - `PATCH /collections/{id}` `UpdateCollectionBody`, `DELETE /collections/{id}` → 204 (owner).
 * - `GET /collections/{id}/works?cursor&limit` → `CollectionWorkPage`, in order, by keyset.
 * - `POST /collections/{id}/works` `AddCollectionWorkBody` → 201 `CollectionResponse` (owner).
 * - `PATCH /collections/{id}/works/{postId}` `EditCollectionWorkBody` → `CollectionResponse` (owner): its note.
 * - `DELETE /collections/{id}/works/{postId}` → `CollectionResponse` (owner, or the work's artist).
 * - `POST /collections/{id}/works/{postId}/move` `MoveCollectionWorkBody` → `CollectionResponse` (owner).
 * - `GET /posts/{postId}/collections` → `PostCollections`: which of your collections hold the work.
 *
 * The shared page `/{username}/collections/{slug}` of a public collection is drawn on the server with its head.
 */
export const COLLECTION_LIMITS = {
  /** Characters of a title. */
  titleMax: 100,
  /** Characters of a description. */
  descriptionMax: 2000,
  /** Characters of the note on a work. */
  noteMax: 500,
  /** Collections one person may have (Saved aside). */
  perPerson: 200,
  /** Works in one collection. */
  worksMax: 10000,
} as const;

/** The id and slug of Saved, each person's default private collection (their bookmarks). */
export const SAVED_COLLECTION = 'saved';

export const CollectionVisibility = Type.Enum(['public', 'private'], {
  description: 'public: anyone who may see the owner sees it (its page, its link preview); private: its owner only',
});
export type CollectionVisibility = Static<typeof CollectionVisibility>;

export const Collection = Type.Object({
  _id: Type.String({ maxLength: 64, description: 'A UUID; `saved` for Saved' }),
  kind: Type.Enum(['collection', 'saved'], {
    description: 'saved: the owner’s bookmarks, their default private collection (no notes, newest saved first)',
  }),
  slug: Type.String({
    description:
      "Made from the title (lower-case ASCII, '-'), unique among the owner's collections; the page is /{username}/collections/{slug}",
  }),
  title: Type.String(),
  description: Type.String(),
  visibility: CollectionVisibility,
  owner: UserSummary,
  cover: Type.Union([Picture, Type.Null()], {
    description:
      'The first picture of one of the first works the viewer may see, without a content warning; null when none fits',
  }),
  workCount: Type.Integer({
    description: 'Works in the collection; the lists leave out the ones the viewer may not see',
  }),
  createdAt: DateString,
  updatedAt: DateString,
  viewer: Type.Object({ isOwner: Type.Boolean() }, { description: 'false when signed out' }),
});
export type Collection = Static<typeof Collection>;

export const CollectionResponse = Type.Object({ collection: Collection });
export type CollectionResponse = Static<typeof CollectionResponse>;

export const CollectionPage = Type.Object({
  collections: Type.Array(Collection, {
    description: "The newest first; the owner's first page starts with Saved",
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type CollectionPage = Static<typeof CollectionPage>;

export const CollectionListQuery = PageQuery;
export type CollectionListQuery = Static<typeof CollectionListQuery>;

export const CollectionWorksQuery = PageQuery;
export type CollectionWorksQuery = Static<typeof CollectionWorksQuery>;

const title = Type.String({
  minLength: 1,
  maxLength: COLLECTION_LIMITS.titleMax,
  ...NAME_TEXT,
  errorMessage: `title must be 1 to ${COLLECTION_LIMITS.titleMax} characters long, without control characters or invisible marks`,
  description: `1 to ${COLLECTION_LIMITS.titleMax} characters; not only spaces`,
});
const description = Type.String({
  maxLength: COLLECTION_LIMITS.descriptionMax,
  ...BODY_TEXT,
  errorMessage: `description must be at most ${COLLECTION_LIMITS.descriptionMax} characters long, without control characters (line breaks are fine)`,
});
const visibility = Type.Enum(['public', 'private'], {
  errorMessage: 'visibility must be public or private',
  description: 'public: anyone may see it; private (the default): you alone',
});
const note = Type.String({
  maxLength: COLLECTION_LIMITS.noteMax,
  ...BODY_TEXT,
  errorMessage: `note must be at most ${COLLECTION_LIMITS.noteMax} characters long, without control characters (line breaks are fine)`,
  description: `Why this work is here, at most ${COLLECTION_LIMITS.noteMax} characters; empty: none`,
});
const postId = Type.String({ maxLength: 64, description: 'The _id of a work' });

export const CreateCollectionBody = Type.Object(
  { title, description: Type.Optional(description), visibility: Type.Optional(visibility) },
  { additionalProperties: false },
);
export type CreateCollectionBody = Static<typeof CreateCollectionBody>;

export const UpdateCollectionBody = Type.Object(
  { title: Type.Optional(title), description: Type.Optional(description), visibility: Type.Optional(visibility) },
  { additionalProperties: false, description: 'Only the fields sent change' },
);
export type UpdateCollectionBody = Static<typeof UpdateCollectionBody>;

export const AddCollectionWorkBody = Type.Object(
  {
    postId,
    note: Type.Optional(note),
    after: Type.Optional(
      Type.Union([postId, Type.Null()], {
        description: 'Put it right after this work of the collection; null: first; omitted: last',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AddCollectionWorkBody = Static<typeof AddCollectionWorkBody>;

export const EditCollectionWorkBody = Type.Object({ note }, { additionalProperties: false });
export type EditCollectionWorkBody = Static<typeof EditCollectionWorkBody>;

export const MoveCollectionWorkBody = Type.Object(
  {
    after: Type.Union([postId, Type.Null()], {
      description: 'Move it right after this work of the collection; null: make it the first',
    }),
  },
  { additionalProperties: false },
);
export type MoveCollectionWorkBody = Static<typeof MoveCollectionWorkBody>;

export const CollectionIdParams = Type.Object({
  id: Type.String({ maxLength: 64, description: 'The collection _id (`saved`: your Saved)' }),
});
export type CollectionIdParams = Static<typeof CollectionIdParams>;

export const CollectionWorkParams = Type.Object({
  id: Type.String({ maxLength: 64, description: 'The collection _id (`saved`: your Saved)' }),
  postId: Type.String({ maxLength: 64, description: 'The work _id' }),
});
export type CollectionWorkParams = Static<typeof CollectionWorkParams>;

export const CollectionSlugParams = Type.Object({
  username: Type.String({ maxLength: 300 }),
  slug: Type.String({ maxLength: 200 }),
});
export type CollectionSlugParams = Static<typeof CollectionSlugParams>;

export const CollectionWork = Type.Object({
  post: Post,
  note: Type.String({ description: "The collector's note; empty: none" }),
  addedAt: Type.Union([DateString, Type.Null()], { description: 'null in Saved' }),
});
export type CollectionWork = Static<typeof CollectionWork>;

export const CollectionWorkPage = Type.Object({
  works: Type.Array(CollectionWork, {
    description: "In the owner's order (Saved: the newest saved first); works the viewer may not see are left out",
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type CollectionWorkPage = Static<typeof CollectionWorkPage>;

/** A collection named elsewhere (a notification). */
export const CollectionRef = Type.Object({
  _id: Id,
  slug: Type.String(),
  title: Type.String(),
  username: Type.String({ description: "The owner's username: the page is /{username}/collections/{slug}" }),
});
export type CollectionRef = Static<typeof CollectionRef>;

export const PostCollections = Type.Object({
  saved: Type.Boolean({ description: 'The work is in your Saved (bookmarked)' }),
  collectionIds: Type.Array(Id, {
    maxItems: COLLECTION_LIMITS.perPerson,
    description: 'The ids of your collections holding the work',
  }),
});
export type PostCollections = Static<typeof PostCollections>;
