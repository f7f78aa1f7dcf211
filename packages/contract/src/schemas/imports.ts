import { Type, type Static } from 'typebox';
import { DateString, Id } from './common.js';

/**
 * "Bring your work" (issue 40): an archive from Instagram, Mastodon, Pixelfed or another Share Arts, uploaded
 * whole (POST /api/imports), previewed, then imported by a background job (POST /api/imports/{id}/start).
 */
export const IMPORT_LIMITS = {
  /** The archive's bytes (4 GiB: a zip without ZIP64 ends there). */
  maxArchiveBytes: 4 * 1024 * 1024 * 1024,
  /** Files in the archive. */
  maxEntries: 100_000,
  /** All the files' bytes once uncompressed. */
  maxUncompressedBytes: 16 * 1024 * 1024 * 1024,
  /** A file bigger than 1 MB uncompressed may be at most this many times its compressed size. */
  maxRatio: 100,
  /** An index read whole (posts_1.json, outbox.json): 64 MB. */
  maxIndexBytes: 64 * 1024 * 1024,
  /** Works shown in a preview. */
  previewWorks: 6,
  /** Characters of the archive's bio a preview shows (its first words). */
  previewBio: 120,
} as const;

export const IMPORT_SOURCES = ['instagram', 'mastodon', 'pixelfed', 'share-arts'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export const IMPORT_ERRORS = {
  notZip:
    'This file is not a zip archive. Upload the .zip your old service gave you, as it is (a Mastodon .tar.gz: unpack it and zip the folder).',
  unknown:
    'This archive is not one Share Arts can read: upload the zip of Instagram ("Download your information", JSON format), Mastodon or Pixelfed (your account archive), or Share Arts ("Download your data").',
  instagramHtml:
    'This is Instagram\'s HTML export, which holds no dates or captions Share Arts can read. Ask Instagram for your information again in JSON: in Instagram, open Accounts Center, then "Your information and permissions", "Download your information", choose your posts, and set Format to JSON.',
  tooLarge: `The archive is larger than 4 GB. Ask your old service for a smaller export (Instagram lets you choose a date range), and import each part.`,
  running: 'An import of yours is already running. Wait until it finishes, then import the next archive.',
  notFound: 'No import with this id.',
  notReady: 'This import has started already.',
  ownExport: 'This is an export of this very account: its works are here already.',
  someoneElses:
    'This archive was imported by another account here already: an archive can bring its works to one account only.',
} as const;

/** The choices of an import, made on its preview. */
export const ImportOptions = Type.Object({
  /** Each work keeps its original date (default), else the date of the import. */
  keepDates: Type.Boolean({ default: true }),
  /** A caption's #hashtags become the work's tags (default). */
  hashtagsAsTags: Type.Boolean({ default: true }),
  /** Each work is marked as imported, with where it came from. */
  markImported: Type.Boolean({ default: false }),
  /** The archive's bio and profile photo replace the account's (off unless chosen: the preview says what it holds). */
  profile: Type.Boolean({
    default: false,
    description:
      "Use the bio and profile photo the archive holds (its preview's `profile`): the bio replaces yours, the photo becomes your profile photo. Off by default.",
  }),
});
export type ImportOptions = Static<typeof ImportOptions>;

const PreviewWork = Type.Object({
  caption: Type.String(),
  date: Type.Union([DateString, Type.Null()]),
  pictures: Type.Integer(),
});

export const ImportState = Type.Enum(['ready', 'queued', 'running', 'done', 'failed']);
export type ImportState = Static<typeof ImportState>;

export const Import = Type.Object({
  _id: Id,
  source: Type.Enum([...IMPORT_SOURCES]),
  /**
   * ready: previewed, waiting for the choices (POST …/start); queued and running: importing; done; failed (the
   * archive could no longer be read: `error` says why).
   */
  state: ImportState,
  fileName: Type.String(),
  bytes: Type.Number(),
  preview: Type.Object({
    /** Works that will be imported (posts with at least one picture). */
    works: Type.Integer(),
    pictures: Type.Integer(),
    /** Known already to be skipped: videos, boosts, replies to others, posts without pictures. */
    skipped: Type.Integer(),
    videos: Type.Integer(),
    from: Type.Union([DateString, Type.Null()]),
    to: Type.Union([DateString, Type.Null()]),
    first: Type.Array(PreviewWork, { maxItems: IMPORT_LIMITS.previewWorks }),
    /** The profile the archive holds (null: none), which the choice `profile` applies. */
    profile: Type.Union([
      Type.Object({
        /** The bio's first words (empty when the archive has a photo but no bio). */
        bio: Type.String({ maxLength: IMPORT_LIMITS.previewBio + 1 }),
        /** Whether the archive holds a profile photo. */
        photo: Type.Boolean(),
      }),
      Type.Null(),
    ]),
  }),
  options: ImportOptions,
  progress: Type.Object({
    postsDone: Type.Integer(),
    postsTotal: Type.Integer(),
    picturesDone: Type.Integer(),
    picturesTotal: Type.Integer(),
    imported: Type.Integer(),
    skipped: Type.Integer(),
    /** Seconds left at the pace so far (null before a picture is done). */
    estimateSeconds: Type.Union([Type.Integer(), Type.Null()]),
  }),
  error: Type.Union([Type.String(), Type.Null()]),
  /**
   * What the choice `profile` did, once the job applied it (null before, or when it was not chosen): whether the bio
   * and the photo were set, and why the photo was not (it is not a picture, too large…: the rest is imported).
   */
  profile: Type.Union([
    Type.Object({
      bio: Type.Boolean(),
      photo: Type.Boolean(),
      problem: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  createdAt: DateString,
  finishedAt: Type.Union([DateString, Type.Null()]),
});
export type Import = Static<typeof Import>;

export const ImportResponse = Type.Object({ import: Import });
export type ImportResponse = Static<typeof ImportResponse>;

/** The imports GET /api/imports lists: the newest. */
export const IMPORTS_LISTED = 10;

export const ImportsResponse = Type.Object({ imports: Type.Array(Import, { maxItems: IMPORTS_LISTED }) });
export type ImportsResponse = Static<typeof ImportsResponse>;

export const ImportIdParams = Type.Object({ id: Id });
export type ImportIdParams = Static<typeof ImportIdParams>;

/** One source post as the import left it: imported (with its work), or skipped and why. */
export const ImportItem = Type.Object({
  position: Type.Integer({ description: 'Its place in the archive, oldest first' }),
  sourceId: Type.String(),
  outcome: Type.Enum(['imported', 'already', 'skipped']),
  postId: Type.Union([Id, Type.Null()]),
  /** Why it or some of its pictures were skipped (null when all came). */
  reason: Type.Union([Type.String(), Type.Null()]),
  caption: Type.String(),
  date: Type.Union([DateString, Type.Null()]),
  pictures: Type.Integer(),
});
export type ImportItem = Static<typeof ImportItem>;

export const ImportItemsQuery = Type.Object({
  outcome: Type.Optional(Type.Enum(['imported', 'skipped'])),
  cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })),
});
export type ImportItemsQuery = Static<typeof ImportItemsQuery>;

/** Items a page of GET /api/imports/{id}/items holds. */
export const IMPORT_ITEMS_PAGE = 100;

export const ImportItemsResponse = Type.Object({
  items: Type.Array(ImportItem, { maxItems: IMPORT_ITEMS_PAGE }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type ImportItemsResponse = Static<typeof ImportItemsResponse>;
