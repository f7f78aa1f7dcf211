import { Readable, Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { Db } from '../../db/client.js';
import { README } from './export.readme.js';
import {
  commentPagesByAuthor,
  commentPagesOfPost,
  date,
  inquiryPages,
  inquiryReferenceFile,
  inquiryReferencePages,
  listPages,
  selectInquiryReferenceData,
  notificationPages,
  picturePages,
  postPages,
  selectCommentsOf,
  selectMutedWords,
  selectPicturesOf,
  selectProcessPicturesOf,
  selectRevisionsOf,
  selectPins,
  selectCommissionPanel,
  selectCommissionWatching,
  selectProfile,
  followedSeriesPages,
  insightPages,
  seriesPages,
  collectionPages,
  draftPages,
  tagPages,
  type CommentRow,
  type ListRow,
  type PictureRow,
  type PostRow,
  type RevisionRow,
} from './export.sql.js';

/** Where failures go; Fastify's logger fits. */
export interface ExportLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** JSON text is gathered into chunks of about this size before it goes into the zip. */
const CHUNK = 64 * 1024;

/** Up to this many comments on a page of posts are read at once. */
const FEW_COMMENTS = 5000;

const pictureFile = (file: string) => `pictures/${file}`;

const moderationOf = (row: { moderation_state: string | null; moderation_reason: string | null }) =>
  row.moderation_state ? { state: row.moderation_state, reason: row.moderation_reason } : null;

const pictureJson = (row: PictureRow) => ({
  id: row.id,
  file: pictureFile(row.original_file),
  originalName: row.original_name,
  type: row.original_mime,
  bytes: row.original_bytes,
  width: row.width,
  height: row.height,
  alt: row.alt,
});

const commentJson = (row: CommentRow) => ({
  id: row.id,
  content: row.content,
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
  edited: row.edited,
  upvoteCount: row.upvote_count,
  downvoteCount: row.downvote_count,
  moderation: moderationOf(row),
});

const personJson = (row: ListRow) => ({
  userId: row.other_id,
  username: row.username,
  // Someone on another server (issue 39): how to find them again from any server.
  ...(row.remote_handle && row.remote_iri
    ? {
        remote: {
          handle: `@${row.remote_handle.replace(/^@/u, '')}`,
          actor: row.remote_iri,
          ...(row.pending === null ? {} : { pending: row.pending }),
        },
      }
    : {}),
  createdAt: date(row.created_at),
});
const postRefJson = (row: ListRow) => ({
  postId: row.other_id,
  postAuthor: row.username,
  ...(row.kind ? { kind: row.kind } : {}),
  createdAt: date(row.created_at),
});

/** Text gathered into Buffers of about CHUNK bytes: few, large writes into the zip. */
async function* chunked(parts: AsyncIterable<string>): AsyncGenerator<Buffer> {
  let text = '';
  for await (const part of parts) {
    text += part;
    if (text.length >= CHUNK) {
      yield Buffer.from(text);
      text = '';
    }
  }
  if (text) yield Buffer.from(text);
}

/** A JSON list written as its pages are read: one item per line. */
async function* jsonList<R>(pages: AsyncIterable<R[]>, toJson: (row: R) => unknown): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const page of pages) {
    for (const row of page) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(toJson(row))}`;
      first = false;
    }
  }
  yield first ? ']\n' : '\n]\n';
}

async function* once<R>(rows: Promise<R[]>): AsyncGenerator<R[]> {
  yield await rows;
}

/** posts.json: each post with its pictures and every comment on it, the comments read in pages too. */
async function* postsJson(db: Db, userId: string): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const page of postPages(db, userId)) {
    const pictures = new Map<string, PictureRow[]>();
    for (const row of await selectPicturesOf(
      db,
      page.map((post) => post.id),
    )) {
      pictures.set(row.post_id!, [...(pictures.get(row.post_id!) ?? []), row]);
    }
    // Its process pictures (issue 41), in one more read per page.
    const process = new Map<string, PictureRow[]>();
    for (const row of await selectProcessPicturesOf(
      db,
      page.map((post) => post.id),
    )) {
      process.set(row.post_id!, [...(process.get(row.post_id!) ?? []), row]);
    }
    // Its history (issue 41), in one more read per page.
    const history = new Map<string, RevisionRow[]>();
    for (const row of await selectRevisionsOf(
      db,
      page.map((post) => post.id),
    )) {
      history.set(row.post_id, [...(history.get(row.post_id) ?? []), row]);
    }
    // A page's comments in one read when they are few (one read per post would be most of the export's
    // reads); a page with a long thread reads each post's comments in pages.
    const few = page.reduce((sum, post) => sum + post.comment_count, 0) <= FEW_COMMENTS;
    const comments = new Map<string, CommentRow[]>();
    if (few) {
      for (const row of await selectCommentsOf(
        db,
        page.filter((post) => post.comment_count > 0).map((post) => post.id),
      )) {
        comments.set(row.post_id, [...(comments.get(row.post_id) ?? []), row]);
      }
    }
    for (const post of page) {
      const head = JSON.stringify({
        ...postJson(post, pictures.get(post.id) ?? [], process.get(post.id) ?? []),
        editedAt: date(post.edited_at),
        history: (history.get(post.id) ?? []).map(revisionJson),
      });
      // The comments go in as they are read: the post's object is closed after them.
      yield `${first ? '\n' : ',\n'}${head.slice(0, -1)},"comments":[`;
      first = false;
      let firstComment = true;
      if (post.comment_count > 0) {
        const pages = few ? once(Promise.resolve(comments.get(post.id) ?? [])) : commentPagesOfPost(db, post.id);
        for await (const chunk of pages) {
          for (const comment of chunk) {
            // A reply from another server (issue 39) by its author's handle and profile page, as notifications.json.
            const author =
              comment.author_id === null
                ? { handle: comment.remote_handle, url: comment.remote_url }
                : { id: comment.author_id, username: comment.author_username };
            yield `${firstComment ? '' : ','}${JSON.stringify({ ...commentJson(comment), author })}`;
            firstComment = false;
          }
        }
      }
      yield ']}';
    }
  }
  yield first ? ']\n' : '\n]\n';
}

const postJson = (post: PostRow, pictures: PictureRow[], process: PictureRow[]) => ({
  id: post.id,
  content: post.content,
  tags: post.tags,
  createdAt: date(post.created_at),
  updatedAt: date(post.updated_at),
  likeCount: post.like_count,
  dislikeCount: post.dislike_count,
  commentCount: post.comment_count,
  contentWarning: post.content_warning,
  commentPolicy: post.comment_policy,
  licence: post.licence,
  aiGenerated: post.ai_generated,
  downloadable: post.downloadable,
  moderation: moderationOf(post),
  pictures: pictures.map(pictureJson),
  process: process.map(pictureJson),
});

/** One revision of a post's history (issue 41): what changed, and the pictures before when they changed. */
const revisionJson = (row: RevisionRow) => {
  const before = (kind: 'picture' | 'process') =>
    row.earlier
      .filter((picture) => picture.kind === kind)
      .map((picture) => ({ id: picture.id, file: pictureFile(picture.original_file), alt: picture.alt }));
  return {
    createdAt: date(row.created_at),
    changed: row.changed,
    before: row.before,
    after: row.after,
    ...(row.changed.includes('pictures') ? { picturesBefore: before('picture') } : {}),
    ...(row.changed.includes('processPictures') ? { processPicturesBefore: before('process') } : {}),
  };
};

/** commissions.json (issue 42): the account's commission panel (null when never filled in) and whom it watches. */
async function* commissionsJson(db: Db, userId: string): AsyncGenerator<string> {
  const [panel, watching] = await Promise.all([
    selectCommissionPanel(db, userId),
    selectCommissionWatching(db, userId),
  ]);
  const commissions = {
    panel: panel
      ? {
          open: panel.open,
          kinds: panel.kinds,
          kindsNote: panel.kinds_note,
          slots: panel.slots_total === null ? null : { total: panel.slots_total, taken: panel.slots_taken },
          price:
            panel.currency === null ? null : { currency: panel.currency, min: panel.price_min, max: panel.price_max },
          turnaroundDays: panel.turnaround_days,
          terms: panel.terms,
          termsUrl: panel.terms_url,
          languages: panel.languages,
          examples: panel.examples,
          openedAt: panel.opened_at === null ? null : date(panel.opened_at),
          updatedAt: date(panel.updated_at),
        }
      : null,
    watching: watching.map((row) => ({
      artistId: row.artist_id,
      username: row.username,
      createdAt: date(row.created_at),
      notifiedAt: row.notified_at === null ? null : date(row.notified_at),
    })),
  };
  yield `${JSON.stringify(commissions, null, 2)}\n`;
}

async function* profileJson(db: Db, userId: string): AsyncGenerator<string> {
  const row = await selectProfile(db, userId);
  if (!row) throw new Error('the account of an export no longer exists');
  const profile = {
    id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    bio: row.bio,
    link: row.link,
    photo: row.photo_url ? { file: row.photo_file && pictureFile(row.photo_file), url: row.photo_url } : null,
    role: row.role,
    suspendedUntil: row.suspended_until === 'infinity' ? 'infinity' : date(row.suspended_until),
    suspensionReason: row.suspension_reason,
    settings: {
      worksSignedInOnly: row.works_signed_in_only,
      aiTrainingOptOut: row.ai_training_opt_out,
      sensitiveMedia: row.sensitive_media,
      hideAiGenerated: row.hide_ai_generated,
      allowCollecting: row.allow_collecting,
    },
    counts: {
      followers: row.follower_count,
      following: row.following_count,
      posts: row.post_count,
      bookmarks: row.bookmark_count,
    },
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    exportedAt: date(new Date()),
  };
  yield `${JSON.stringify(profile, null, 2)}\n`;
}

/** The JSON files of an export, in the order they go into the zip. */
function jsonFiles(db: Db, userId: string): [name: string, parts: () => AsyncIterable<string>][] {
  return [
    ['profile.json', () => profileJson(db, userId)],
    ['posts.json', () => postsJson(db, userId)],
    [
      'comments.json',
      () =>
        jsonList(commentPagesByAuthor(db, userId), (row) => ({
          ...commentJson(row),
          postId: row.post_id,
          postAuthor: row.post_author_username,
        })),
    ],
    ['likes.json', () => jsonList(listPages(db, userId, 'likes'), postRefJson)],
    ['bookmarks.json', () => jsonList(listPages(db, userId, 'bookmarks'), postRefJson)],
    ['following.json', () => jsonList(listPages(db, userId, 'following'), personJson)],
    ['followers.json', () => jsonList(listPages(db, userId, 'followers'), personJson)],
    [
      'followed-tags.json',
      () => jsonList(tagPages(db, userId), (row) => ({ tag: row.tag, createdAt: date(row.created_at) })),
    ],
    [
      'pins.json',
      () =>
        jsonList(once(selectPins(db, userId)), (row) => ({
          postId: row.post_id,
          position: row.position,
          createdAt: date(row.created_at),
        })),
    ],
    [
      'series.json',
      () =>
        jsonList(seriesPages(db, userId), (row) => ({
          id: row.id,
          slug: row.slug,
          title: row.title,
          description: row.description,
          coverPostId: row.cover_post_id,
          createdAt: date(row.created_at),
          updatedAt: date(row.updated_at),
          works: row.works.map((work) => ({
            postId: work.post_id,
            chapter: work.chapter,
            addedAt: date(work.added_at),
          })),
        })),
    ],
    [
      'collections.json',
      () =>
        jsonList(collectionPages(db, userId), (row) => ({
          id: row.id,
          slug: row.slug,
          title: row.title,
          description: row.description,
          visibility: row.is_public ? 'public' : 'private',
          createdAt: date(row.created_at),
          updatedAt: date(row.updated_at),
          works: row.works.map((work) => ({ postId: work.post_id, note: work.note, addedAt: date(work.added_at) })),
        })),
    ],
    [
      'drafts.json',
      () =>
        jsonList(draftPages(db, userId), (row) => ({
          id: row.id,
          content: row.content,
          rights: row.rights,
          seriesId: row.series_id,
          chapter: row.chapter,
          scheduledAt: date(row.scheduled_at),
          timeZone: row.time_zone,
          publishError: row.publish_error,
          createdAt: date(row.created_at),
          updatedAt: date(row.updated_at),
          pictures: row.pictures.map((picture) => ({
            id: picture.id,
            file: pictureFile(picture.original_file),
            alt: picture.alt,
          })),
          processPictures: row.process_pictures.map((picture) => ({
            id: picture.id,
            file: pictureFile(picture.original_file),
            alt: picture.alt,
          })),
        })),
    ],
    ['commissions.json', () => commissionsJson(db, userId)],
    [
      'inquiries.json',
      () =>
        jsonList(inquiryPages(db, userId), (row) => ({
          id: row.id,
          role: row.role,
          artist: row.artist_username,
          client: row.client_username,
          body: row.body,
          budget:
            row.budget_amount !== null ? { amount: Number(row.budget_amount), currency: row.budget_currency } : null,
          deadline: row.deadline,
          state: row.state,
          declineReason: row.decline_reason,
          createdAt: date(row.created_at),
          updatedAt: date(row.updated_at),
          messages: row.messages.map((message) => ({
            id: message.id,
            author: message.author,
            body: message.body,
            createdAt: date(message.created_at),
          })),
          references: row.references.map((reference) => ({
            id: reference.id,
            file: inquiryReferenceFile(row.id, reference.id),
            width: reference.width,
            height: reference.height,
            bytes: reference.bytes,
            createdAt: date(reference.created_at),
          })),
        })),
    ],
    [
      'followed-series.json',
      () =>
        jsonList(followedSeriesPages(db, userId), (row) => ({
          seriesId: row.series_id,
          title: row.title,
          slug: row.slug,
          owner: row.owner_username,
          createdAt: date(row.created_at),
        })),
    ],
    [
      'insights.json',
      () =>
        jsonList(insightPages(db, userId), (row) => ({
          day: row.day,
          postId: row.subject || null,
          source: row.source,
          host: row.host || null,
          views: row.views,
        })),
    ],
    ['blocks.json', () => jsonList(listPages(db, userId, 'blocks'), personJson)],
    ['mutes.json', () => jsonList(listPages(db, userId, 'mutes'), personJson)],
    [
      'muted-words.json',
      () =>
        jsonList(once(selectMutedWords(db, userId)), (row) => ({ word: row.word, createdAt: date(row.created_at) })),
    ],
    [
      'notifications.json',
      () =>
        jsonList(notificationPages(db, userId), (row) => ({
          id: row.id,
          kind: row.kind,
          // Someone on another server (a follow from Mastodon, issue 39) by their handle and profile page.
          actor:
            row.actor_id === null
              ? { handle: row.remote_handle, url: row.remote_url }
              : { id: row.actor_id, username: row.actor_username },
          postId: row.post_id,
          commentId: row.comment_id,
          reportId: row.report_id,
          createdAt: date(row.created_at),
          readAt: date(row.read_at),
        })),
    ],
    [
      'pictures.json',
      () =>
        jsonList(picturePages(db, userId), (row) => ({
          ...pictureJson(row),
          purpose: row.purpose,
          postId: row.post_id,
          position: row.position,
          process: row.process ?? false,
          createdAt: date(row.created_at),
        })),
    ],
  ];
}

export interface ExportArchive {
  /** The zip, as it is written; destroying it (the client went away) stops the export. */
  stream: Readable;
}

/**
 * The zip of one account's data, written while it is read: JSON files deflated, pictures stored as
 * they are (they are compressed already). One entry at a time is open; each JSON file reads its next
 * page, and each picture its next block, only when the zip has room for more, so memory stays at a few
 * pages whatever the account holds. Destroying `stream` stops the reads.
 */
/** Where the originals are read from: the media module's storage (the folder or the bucket), handed in by app.ts. */
export interface PictureFiles {
  read(name: string): Promise<{ status: string; file?: { body: Readable } }>;
}

export function createExportArchive({
  db,
  storage,
  userId,
  log,
  beforeEnd,
}: {
  db: Db;
  /** The picture storage (the media folder or the bucket) the originals are read from. */
  storage: PictureFiles;
  userId: string;
  log: ExportLog;
  /** Runs once the whole zip is written, before the stream ends: the client sees the end after it. */
  beforeEnd: () => Promise<void>;
}): ExportArchive {
  const zip = new ZipFile();
  const output = new Transform({
    transform: (chunk: Buffer, _encoding, done) => done(null, chunk),
    flush: (done) => void beforeEnd().then(() => done(), done),
  });
  let current: Readable | undefined;
  let stopped = false;

  zip.outputStream.pipe(output);
  zip.on('error', (err: Error) => output.destroy(err));
  output.on('close', () => {
    stopped = true;
    zip.outputStream.unpipe(output);
    current?.destroy();
  });

  /** Adds one entry and waits until the zip has read all of it. */
  async function add(name: string, source: Readable, options: { compress: boolean; mtime?: Date }): Promise<void> {
    if (stopped) {
      source.destroy();
      return;
    }
    current = source;
    zip.addReadStreamLazy(name, { mtime: options.mtime ?? new Date(), compress: options.compress }, (cb) =>
      cb(null, source),
    );
    await finished(source);
  }

  const json = (parts: () => AsyncIterable<string>) => Readable.from(chunked(parts()), { objectMode: false });

  async function write(): Promise<void> {
    zip.addBuffer(Buffer.from(README), 'README.txt', { compress: true });
    for (const [name, parts] of jsonFiles(db, userId)) await add(name, json(parts), { compress: true });
    for await (const page of picturePages(db, userId)) {
      for (const picture of page) {
        if (stopped) return;
        const file = picture.original_file;
        const found = await storage.read(file);
        if (found.status !== 'ok' || !found.file) {
          // A picture deleted while the export runs is left out; anything else stops the export.
          log.warn({ file, userId }, 'a picture of an export is no longer stored: left out');
          continue;
        }
        await add(pictureFile(file), found.file.body, {
          compress: false,
          mtime: new Date(picture.created_at),
        });
      }
    }
    // The inquiries' reference pictures (issue 42): kept in the database, read one at a time.
    for await (const page of inquiryReferencePages(db, userId)) {
      for (const reference of page) {
        if (stopped) return;
        const data = await selectInquiryReferenceData(db, reference.id);
        if (!data) continue;
        await add(inquiryReferenceFile(reference.inquiry_id, reference.id), Readable.from([Buffer.from(data)]), {
          compress: false,
          mtime: new Date(reference.created_at),
        });
      }
    }
    if (!stopped) zip.end();
  }

  write().catch((err: unknown) => {
    if (stopped) return;
    log.error({ err, userId }, 'an export failed while its zip was being written');
    output.destroy(err as Error);
  });
  return { stream: output };
}
