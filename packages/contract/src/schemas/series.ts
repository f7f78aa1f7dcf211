import { Type, type Static } from 'typebox';
import { BODY_TEXT, DateString, Id, NAME_TEXT } from './common.js';
import { Picture } from './media.js';
import { PageQuery, Post } from './post.js';
import { UserSummary } from './user.js';

/**
 * Series (issue 41): an artist's own works, in the artist's order, optionally in chapters. Routes, all under
 * /api (docs/series.md says more):
 *
 * - `GET /users/{username}/series?cursor&limit` → `SeriesPage`: an artist's series, the newest first.
 * - `POST /series` `CreateSeriesBody` → 201 `SeriesResponse` (signed in).
 * - `GET /users/{username}/series/{slug}` → `SeriesResponse`.
 * - `PATCH /series/{id}` `UpdateSeriesBody` → `SeriesResponse` (owner); a new title gives a new slug.
 * - `DELETE /series/{id}` → 204 (owner); the works stay, only the series goes.
 * - `GET /series/{id}/works?cursor&limit` → `SeriesWorkPage`: the works in order, by keyset.
 * - `POST /series/{id}/works` `AddSeriesWorkBody` → 201 `SeriesResponse` (owner; own works only).
 * - `PATCH /series/{id}/works/{postId}` `EditSeriesWorkBody` → `SeriesResponse` (owner): its chapter.
 * - `DELETE /series/{id}/works/{postId}` → `SeriesResponse` (owner).
 * - `POST /series/{id}/works/{postId}/move` `MoveSeriesWorkBody` → `SeriesResponse` (owner): one move per
 *   request, for drag and keyboard alike.
 * - `GET /posts/{id}/series` → `PostSeriesList`: the series a work is in, with the previous and next work.
 * - `POST /series/{id}/follow` and `DELETE /series/{id}/follow` → `SeriesResponse`; idempotent.
 * - `GET /users/{username}/series/{slug}/feed.atom`: the series' Atom feed (newest added first).
 *
 * The shared page `/{username}/series/{slug}` is drawn on the server with its Open Graph head.
 */
export const SERIES_LIMITS = {
  /** Characters of a title. */
  titleMax: 100,
  /** Characters of a description. */
  descriptionMax: 2000,
  /** Characters of a chapter's name. */
  chapterMax: 60,
  /** Series one artist may have. */
  perArtist: 100,
  /** Works in one series. */
  worksMax: 10000,
} as const;

/** A series' slug: lower-case ASCII letters and digits joined by '-' (from the title; `series` when none is left). */
export const SERIES_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

export const SeriesOwner = UserSummary;

export const Series = Type.Object({
  _id: Id,
  slug: Type.String({
    description:
      "Made from the title (lower-case ASCII, '-'), unique among the owner's series ('-2', '-3'… when taken); the page is /{username}/series/{slug}",
  }),
  title: Type.String(),
  description: Type.String(),
  owner: SeriesOwner,
  cover: Type.Union([Picture, Type.Null()], {
    description:
      'The first picture of the cover work (coverPostId, else one of the first works), among those the viewer may see and without a content warning (a preview cannot cover it); null when none fits',
  }),
  coverPostId: Type.Union([Id, Type.Null()], {
    description: 'The work the owner chose as cover; null: the first work is the cover',
  }),
  workCount: Type.Integer({
    description:
      'Works in the series (a deleted work leaves it); the lists leave out the ones the viewer may not see (hidden by moderation, signed-in only, blocked)',
  }),
  followerCount: Type.Integer({ description: 'People who follow this series' }),
  createdAt: DateString,
  updatedAt: DateString,
  viewer: Type.Object(
    {
      follows: Type.Boolean({ description: 'The signed-in viewer follows this series (new works notify them)' }),
      isOwner: Type.Boolean(),
    },
    { description: 'All false when signed out' },
  ),
});
export type Series = Static<typeof Series>;

export const SeriesResponse = Type.Object({ series: Series });
export type SeriesResponse = Static<typeof SeriesResponse>;

export const SeriesPage = Type.Object({
  series: Type.Array(Series, { description: 'The newest first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type SeriesPage = Static<typeof SeriesPage>;

export const SeriesListQuery = PageQuery;
export type SeriesListQuery = Static<typeof SeriesListQuery>;

export const SeriesWorksQuery = PageQuery;
export type SeriesWorksQuery = Static<typeof SeriesWorksQuery>;

const title = Type.String({
  minLength: 1,
  maxLength: SERIES_LIMITS.titleMax,
  ...NAME_TEXT,
  errorMessage: `title must be 1 to ${SERIES_LIMITS.titleMax} characters long, without control characters or invisible marks`,
  description: `1 to ${SERIES_LIMITS.titleMax} characters; not only spaces`,
});
const description = Type.String({
  maxLength: SERIES_LIMITS.descriptionMax,
  ...BODY_TEXT,
  errorMessage: `description must be at most ${SERIES_LIMITS.descriptionMax} characters long, without control characters (line breaks are fine)`,
});
const chapter = Type.Union(
  [
    Type.String({
      maxLength: SERIES_LIMITS.chapterMax,
      ...NAME_TEXT,
      errorMessage: `chapter must be at most ${SERIES_LIMITS.chapterMax} characters long, without control characters or invisible marks`,
    }),
    Type.Null(),
  ],
  {
    description: `The chapter this work opens or belongs to ("Issue 2", "March"), at most ${SERIES_LIMITS.chapterMax} characters; null or empty: none`,
  },
);
const postId = Type.String({ maxLength: 64, description: 'The _id of one of your own works' });

export const CreateSeriesBody = Type.Object(
  { title, description: Type.Optional(description) },
  { additionalProperties: false },
);
export type CreateSeriesBody = Static<typeof CreateSeriesBody>;

export const UpdateSeriesBody = Type.Object(
  {
    title: Type.Optional(title),
    description: Type.Optional(description),
    coverPostId: Type.Optional(
      Type.Union([postId, Type.Null()], {
        description: 'A work in this series whose first picture is the cover; null: the first work',
      }),
    ),
  },
  { additionalProperties: false, description: 'Only the fields sent change' },
);
export type UpdateSeriesBody = Static<typeof UpdateSeriesBody>;

export const AddSeriesWorkBody = Type.Object(
  {
    postId,
    chapter: Type.Optional(chapter),
    after: Type.Optional(
      Type.Union([postId, Type.Null()], {
        description: 'Put it right after this work of the series; null: first; omitted: last',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AddSeriesWorkBody = Static<typeof AddSeriesWorkBody>;

export const EditSeriesWorkBody = Type.Object({ chapter }, { additionalProperties: false });
export type EditSeriesWorkBody = Static<typeof EditSeriesWorkBody>;

export const MoveSeriesWorkBody = Type.Object(
  {
    after: Type.Union([postId, Type.Null()], {
      description: 'Move it right after this work of the series; null: make it the first',
    }),
  },
  { additionalProperties: false },
);
export type MoveSeriesWorkBody = Static<typeof MoveSeriesWorkBody>;

export const SeriesIdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The series _id' }) });
export type SeriesIdParams = Static<typeof SeriesIdParams>;

export const SeriesWorkParams = Type.Object({
  id: Type.String({ maxLength: 64, description: 'The series _id' }),
  postId: Type.String({ maxLength: 64, description: 'The work _id' }),
});
export type SeriesWorkParams = Static<typeof SeriesWorkParams>;

export const SeriesSlugParams = Type.Object({
  username: Type.String({ maxLength: 300 }),
  slug: Type.String({ maxLength: 200 }),
});
export type SeriesSlugParams = Static<typeof SeriesSlugParams>;

export const SeriesWork = Type.Object({
  post: Post,
  chapter: Type.Union([Type.String(), Type.Null()]),
  addedAt: DateString,
});
export type SeriesWork = Static<typeof SeriesWork>;

export const SeriesWorkPage = Type.Object({
  works: Type.Array(SeriesWork, {
    description: "In the owner's order; works the viewer may not see are left out",
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type SeriesWorkPage = Static<typeof SeriesWorkPage>;

/** A series named elsewhere (a work's series links, a notification). */
export const SeriesRef = Type.Object({
  _id: Id,
  slug: Type.String(),
  title: Type.String(),
  username: Type.String({ description: "The owner's username: the page is /{username}/series/{slug}" }),
});
export type SeriesRef = Static<typeof SeriesRef>;

export const PostSeriesEntry = Type.Object({
  series: SeriesRef,
  chapter: Type.Union([Type.String(), Type.Null()], { description: "This work's chapter in that series" }),
  previous: Type.Union([Id, Type.Null()], { description: 'The work before it the viewer can see; null: none' }),
  next: Type.Union([Id, Type.Null()], { description: 'The work after it the viewer can see; null: none' }),
});
export type PostSeriesEntry = Static<typeof PostSeriesEntry>;

export const PostSeriesList = Type.Object({
  series: Type.Array(PostSeriesEntry, {
    maxItems: SERIES_LIMITS.perArtist,
    description: 'Every series of its author holding this work, the oldest series first',
  }),
});
export type PostSeriesList = Static<typeof PostSeriesList>;
