import { Type, type Static } from 'typebox';
import { LIMITS } from '../constants.js';
import { BODY_TEXT, DateString, Id, NAME_TEXT } from './common.js';
import { MEDIA_LIMITS, Picture } from './media.js';
import { PageQuery, Post, PostLanguage } from './post.js';
import { CommentPolicy, ContentWarning, Licence } from './rights.js';
import { SERIES_LIMITS } from './series.js';

/**
 * Drafts and scheduled posts (issue 41): what the composer keeps on the server while an artist works, readable by
 * its author only, counted nowhere. Routes, all under /api, all signed in (docs/drafts.md says more):
 *
 * - `GET /drafts?cursor&limit` → `DraftPage`: the artist's drafts, the last changed first.
 * - `POST /drafts` `SaveDraftBody` → 201 `DraftResponse`.
 * - `GET /drafts/{id}` → `DraftResponse` (404 for anyone but its author).
 * - `PUT /drafts/{id}` `SaveDraftBody` with `revision` → `DraftResponse`; 409 when the draft changed since that revision.
 * - `DELETE /drafts/{id}` → 204: discarded, with its pictures.
 * - `POST /drafts/{id}/schedule` `ScheduleDraftBody` → `DraftResponse`; `DELETE /drafts/{id}/schedule` cancels.
 * - `POST /drafts/{id}/publish` → 201 `PostWriteResponse`-like `{ post }`: posted now, the draft is gone.
 */
export const DRAFT_LIMITS = {
  /** Drafts one artist may keep. */
  perArtist: 100,
  /** How far ahead a post may be scheduled, in days. */
  scheduleDaysMax: 365,
} as const;

/** What a draft keeps of a post's rights (the composer's "More options"); the posts' defaults when absent. */
export const DraftRights = Type.Object(
  {
    contentWarning: ContentWarning,
    commentPolicy: CommentPolicy,
    licence: Licence,
    aiGenerated: Type.Boolean({ errorMessage: 'rights.aiGenerated must be true or false' }),
    downloadable: Type.Boolean({ errorMessage: 'rights.downloadable must be true or false' }),
  },
  { additionalProperties: false },
);
export type DraftRights = Static<typeof DraftRights>;

const revision = Type.Integer({
  minimum: 1,
  description: 'Bumped by every save: send the one you last read, a stale one is refused (409)',
  errorMessage: 'revision must be the whole number the draft answered last (1 or more)',
});

export const Draft = Type.Object({
  _id: Id,
  content: Type.String({ description: 'The words as typed (may be empty in a draft)' }),
  language: Type.Union([Type.String(), Type.Null()], {
    description:
      'The language of its words as the composer chose it (a canonical BCP 47 tag, issue 43); null: not said',
  }),
  pictures: Type.Array(Picture, {
    maxItems: LIMITS.postPicturesMax,
    description: 'In order, each with its alt text (kept on the picture): the first is the cover',
  }),
  processPictures: Type.Array(Picture, {
    maxItems: LIMITS.processPicturesMax,
    description:
      'The work’s process pictures (sketch, lines, flats…) in order, each with its alt text; published as the post’s processPictures. [] when none',
  }),
  rights: DraftRights,
  seriesId: Type.Union([Id, Type.Null()], {
    description: 'The series the work joins once posted (null: none, or the series was deleted)',
  }),
  chapter: Type.Union([Type.String(), Type.Null()]),
  revision,
  scheduledAt: Type.Union([DateString, Type.Null()], {
    description: 'When it is published (UTC); null: not scheduled',
  }),
  timeZone: Type.Union([Type.String(), Type.Null()], {
    description: 'The IANA time zone the artist scheduled it in (shown with the time), e.g. Europe/Paris',
  }),
  publishError: Type.Union([Type.String(), Type.Null()], {
    description: 'Why its scheduled publishing failed, for the artist to fix (then schedule or post again)',
  }),
  createdAt: DateString,
  updatedAt: DateString,
});
export type Draft = Static<typeof Draft>;

export const DraftResponse = Type.Object({ draft: Draft });
export type DraftResponse = Static<typeof DraftResponse>;

/** Characters of a draft's words in the list (the whole draft is GET /api/drafts/{id}). */
export const DRAFT_EXCERPT_MAX = 280;

/** A draft as the list shows it: its start, its cover and how many pictures, its schedule. */
export const DraftSummary = Type.Object({
  _id: Id,
  excerpt: Type.String({ description: `The first ${DRAFT_EXCERPT_MAX} characters of its words` }),
  cover: Type.Union([Picture, Type.Null()], { description: 'Its first picture; null: none yet' }),
  pictureCount: Type.Integer({ minimum: 0 }),
  seriesId: Draft.properties.seriesId,
  revision,
  scheduledAt: Draft.properties.scheduledAt,
  timeZone: Draft.properties.timeZone,
  publishError: Draft.properties.publishError,
  createdAt: DateString,
  updatedAt: DateString,
});
export type DraftSummary = Static<typeof DraftSummary>;

export const DraftPage = Type.Object({
  drafts: Type.Array(DraftSummary, {
    description:
      'The last changed first; each with its start, cover and schedule (the whole draft: GET /api/drafts/{id})',
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type DraftPage = Static<typeof DraftPage>;

export const DraftListQuery = PageQuery;
export type DraftListQuery = Static<typeof DraftListQuery>;

export const DraftIdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The draft _id' }) });
export type DraftIdParams = Static<typeof DraftIdParams>;

const draftPicture = Type.Object(
  {
    mediaId: Type.String({ maxLength: 64, description: 'A picture you uploaded with POST /api/media (purpose post)' }),
    alt: Type.Optional(
      Type.String({
        maxLength: MEDIA_LIMITS.altMax,
        ...BODY_TEXT,
        errorMessage: `alt must be at most ${MEDIA_LIMITS.altMax} characters long, without control characters (line breaks are fine)`,
        description: 'Its alt text; saved on the picture when it changed',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SaveDraftBody = Type.Object(
  {
    revision: Type.Optional(revision),
    content: Type.Optional(
      Type.String({
        maxLength: LIMITS.postContentMax,
        ...BODY_TEXT,
        errorMessage: `content must be at most ${LIMITS.postContentMax} characters long, without control characters (line breaks are fine)`,
      }),
    ),
    language: Type.Optional(PostLanguage),
    pictures: Type.Optional(
      Type.Array(draftPicture, {
        maxItems: LIMITS.postPicturesMax,
        errorMessage: `A draft holds at most ${LIMITS.postPicturesMax} pictures, as a post does`,
        description: `The whole list in order, 0 to ${LIMITS.postPicturesMax}; each picture in no post and no other draft`,
      }),
    ),
    processPictures: Type.Optional(
      Type.Array(draftPicture, {
        maxItems: LIMITS.processPicturesMax,
        errorMessage: `A draft holds at most ${LIMITS.processPicturesMax} process pictures, as a post does`,
        description: `The whole list of process pictures (sketch, lines, flats…) in order, 0 to ${LIMITS.processPicturesMax}; each picture in no post, no other draft and not among pictures`,
      }),
    ),
    rights: Type.Optional(DraftRights),
    seriesId: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
        description: 'One of your series, which the work joins once posted; null: none',
      }),
    ),
    chapter: Type.Optional(
      Type.Union([
        Type.String({
          maxLength: SERIES_LIMITS.chapterMax,
          ...NAME_TEXT,
          errorMessage: `chapter must be at most ${SERIES_LIMITS.chapterMax} characters long, without control characters`,
        }),
        Type.Null(),
      ]),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The whole draft as the composer has it (fields left out: empty, or kept as they are on PUT). PUT needs revision',
  },
);
export type SaveDraftBody = Static<typeof SaveDraftBody>;

export const ScheduleDraftBody = Type.Object(
  {
    at: Type.String({
      format: 'date-time',
      maxLength: 40,
      errorMessage: 'at must be a date and time with its offset, such as 2026-12-08T08:00:00Z',
      description: `When to publish (seconds are dropped): in the future, at most ${DRAFT_LIMITS.scheduleDaysMax} days ahead`,
    }),
    timeZone: Type.String({
      minLength: 1,
      maxLength: 64,
      errorMessage: 'timeZone must be an IANA time zone name such as Europe/Paris',
      description: 'The IANA time zone the artist chose the time in, shown with it (Europe/Paris)',
    }),
    revision: Type.Optional(revision),
  },
  { additionalProperties: false },
);
export type ScheduleDraftBody = Static<typeof ScheduleDraftBody>;

export const PublishedDraftResponse = Type.Object({ post: Post });
export type PublishedDraftResponse = Static<typeof PublishedDraftResponse>;
