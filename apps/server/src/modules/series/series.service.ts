import {
  APP_NAME,
  ERRORS,
  PAGE_LIMITS,
  SERIES_LIMITS,
  type AddSeriesWorkBody,
  type CreateSeriesBody,
  type Post,
  type PostSeriesList,
  type Series,
  type UpdateSeriesBody,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { notifySeriesFollowers, withdrawSeriesWork } from '../../events/notification-rules.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { badRequest, HttpError, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { JsonText } from '../../lib/json-text.js';
import { FEED_ENTRIES, writeFeed, type AtomFeed } from '../atom/index.js';
import type { PostsService } from '../posts/index.js';
import { toUserSummary } from '../users/index.js';
import {
  countOwnerSeries,
  deleteFollow,
  deleteSeriesRow,
  deleteWork,
  insertFollow,
  insertSeries,
  insertWork,
  lockOwnerSeries,
  lockSeries,
  selectNewestWorkIds,
  selectOwner,
  selectPostOrigin,
  selectPostSeries,
  selectSeriesById,
  selectSeriesBySlug,
  selectSeriesPage,
  selectSlugsLike,
  selectWorkRows,
  seriesOrder,
  touchSeries,
  updateSeriesRow,
  updateWorkChapter,
  updateWorkPosition,
  type SeriesRow,
  type WorkRow,
} from './series.sql.js';

/** Every refusal of the series routes, each saying what to do instead. */
export const SERIES_ERRORS = {
  notFound: 'There is no such series: it may have been deleted or renamed.',
  notOwner: 'This series is someone else’s: you can change only your own series.',
  titleBlank: 'title must not be empty or only spaces: give the series a name.',
  tooMany: `You have ${SERIES_LIMITS.perArtist} series, the most an artist may have: delete one to start another.`,
  tooManyWorks: `This series holds ${SERIES_LIMITS.worksMax} works, the most a series may hold: start another series.`,
  notYourWork: 'This work is someone else’s: a series holds only your own works.',
  remoteWork: 'This work comes from another server: a series holds only works you posted here.',
  alreadyIn: 'This work is already in the series: move it with POST /api/series/{id}/works/{postId}/move.',
  notInSeries: 'This work is not in the series: add it first with POST /api/series/{id}/works.',
  afterNotInSeries:
    'after names a work that is not in this series: pass the _id of one of its works, or null for the start.',
  afterItself: 'A work cannot go after itself: name another work of the series in after, or null for the start.',
  coverNotInSeries: 'coverPostId must be a work in this series: add the work first, or send null for the first work.',
} as const;

const forbidden = (message: string) => new HttpError(403, message);

/** At most this many rounds of reading past works the viewer may not see, to fill one page. */
const PAGE_ROUNDS = 5;
/** Characters of a slug: a long title's slug is cut at a word. */
const SLUG_MAX = 60;

/**
 * The slug of a title: lower-case ASCII letters and digits joined by '-', accents dropped ("Été à Paris" →
 * "ete-a-paris"); `series` when nothing is left (a title in another script).
 */
export function slugOf(title: string): string {
  const ascii = title.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  let slug = ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length > SLUG_MAX) {
    const cut = slug.slice(0, SLUG_MAX);
    const dash = cut.lastIndexOf('-');
    slug = (dash > SLUG_MAX / 2 ? cut.slice(0, dash) : cut).replace(/-+$/, '');
  }
  return slug || 'series';
}

const cleanTitle = (title: string) => {
  const trimmed = title.trim();
  if (!trimmed) throw badRequest(SERIES_ERRORS.titleBlank);
  return trimmed;
};
/** A chapter as stored: trimmed, and none when empty. */
const cleanChapter = (chapter: string | null | undefined) => chapter?.trim() || null;

const workJson = (post: JsonText, row: WorkRow) =>
  new JsonText(
    `{"post":${post.text},"chapter":${JSON.stringify(row.chapter)},"addedAt":${JSON.stringify(row.added_at)}}`,
  );

/**
 * Series (issue 41): an artist's own works in their order, with the rules of who may see and change what. Works are
 * presented as the posts module presents posts (its reader), which checks once more that each is there for the
 * viewer.
 */
export function createSeriesService({ db, posts }: { db: Db; posts: PostsService }) {
  /** The posts the viewer may see among `ids`, by id. */
  async function postsById(ids: string[], viewerId: string | null): Promise<Map<string, JsonText>> {
    if (ids.length === 0) return new Map();
    const found = await posts.getPosts(ids, viewerId);
    return new Map(found.map((json) => [(JSON.parse(json.text) as Post)._id, json]));
  }

  /** The rows as the contract's Series, each with the first cover candidate the viewer may see with a picture. */
  async function present(rows: SeriesRow[], viewerId: string | null): Promise<Series[]> {
    const candidates = [...new Set(rows.flatMap((row) => row.cover_candidates))];
    const shown = await postsById(candidates, viewerId);
    const parsed = new Map([...shown].map(([id, json]) => [id, JSON.parse(json.text) as Post]));
    return rows.map((row) => {
      const cover = row.cover_candidates
        .map((id) => parsed.get(id))
        .find((post) => post?.picture && !post.contentWarning);
      return {
        _id: row.id,
        slug: row.slug,
        title: row.title,
        description: row.description,
        owner: toUserSummary({
          _id: row.owner_id,
          username: row.owner_username,
          firstName: row.owner_first_name,
          lastName: row.owner_last_name,
          photoUrl: row.owner_photo_url,
        }),
        cover: cover?.picture ?? null,
        coverPostId: row.cover_post_id,
        workCount: row.work_count,
        followerCount: row.follower_count,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        viewer: { follows: row.viewer_follows, isOwner: viewerId === row.owner_id },
      };
    });
  }

  /** One series as the viewer sees it; 404 when it is not there for them. */
  async function shownSeries(id: string, viewerId: string | null): Promise<SeriesRow> {
    const row = isUuid(id) ? await selectSeriesById(db, id, viewerId) : undefined;
    if (!row) throw notFound(SERIES_ERRORS.notFound);
    return row;
  }

  const answer = async (id: string, viewerId: string) => {
    const [series] = await present([await shownSeries(id, viewerId)], viewerId);
    return series!;
  };

  /** A slug for `title` not taken among the owner's series (but `except`): the base, else base-2, base-3… */
  async function freeSlug(tx: Db, ownerId: string, title: string, except?: string): Promise<string> {
    const base = slugOf(title);
    const taken = new Set(await selectSlugsLike(tx, ownerId, base, except));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  /** Runs a change of the series' works in one transaction, with the series row locked and checked as the user's. */
  async function changeOwn<T>(
    userId: string,
    id: string,
    change: (tx: Db, series: { id: string; work_count: number }) => Promise<T>,
  ) {
    if (!isUuid(id)) throw notFound(SERIES_ERRORS.notFound);
    return db
      .transaction(async (tx) => {
        const series = await lockSeries(tx, id);
        if (!series) throw notFound(SERIES_ERRORS.notFound);
        if (series.owner_id !== userId) throw forbidden(SERIES_ERRORS.notOwner);
        return change(tx, series);
      })
      .catch((error: unknown) => {
        // The post was deleted between its check and the write.
        if (isForeignKeyViolation(error, 'series_works_post_id_posts_id_fk')) throw notFound(ERRORS.postNotFound);
        if (isForeignKeyViolation(error, 'series_cover_post_id_posts_id_fk')) throw notFound(ERRORS.postNotFound);
        throw error;
      });
  }

  /** A free position right after `after` (undefined: the end; null: the start), `moving` left out. */
  const placeAfter = (tx: Db, seriesId: string, after: string | null | undefined, moving?: string) =>
    seriesOrder.placeAfter(tx, seriesId, after, {
      ...(moving ? { moving } : {}),
      afterMissing: () => badRequest(SERIES_ERRORS.afterNotInSeries),
    });

  /** The post's id as stored, after checking it exists, is the user's own and was posted here. */
  async function ownWork(tx: Db, userId: string, postId: string): Promise<string> {
    const origin = isUuid(postId) ? await selectPostOrigin(tx, postId) : undefined;
    if (!origin) throw notFound(ERRORS.postNotFound);
    if (origin.remote) throw badRequest(SERIES_ERRORS.remoteWork);
    if (origin.author_id !== userId) throw badRequest(SERIES_ERRORS.notYourWork);
    return postId.toLowerCase();
  }

  return {
    /** An artist's series, newest first. Unknown user (or a blocked pair, or a suspended artist): 404. */
    async list(
      username: string,
      query: { cursor?: string | undefined; limit?: number | undefined },
      viewerId: string | null,
    ) {
      const owner = await selectOwner(db, username, viewerId);
      if (!owner || owner.blocked) throw notFound(ERRORS.userNotFound);
      // Signed out, an artist who shows their works to signed-in people only has no series to show.
      if (!owner.shown) return { series: [], nextCursor: null };
      const { page, nextCursor } = await selectSeriesPage(db, owner.id, viewerId, {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
      });
      return { series: await present(page, viewerId), nextCursor };
    },

    /** One series by its owner's username and its slug. */
    async bySlug(username: string, slug: string, viewerId: string | null): Promise<Series> {
      const row = await selectSeriesBySlug(db, username, slug.toLowerCase(), viewerId);
      if (!row) throw notFound(SERIES_ERRORS.notFound);
      const [series] = await present([row], viewerId);
      return series!;
    },

    async byId(id: string, viewerId: string | null): Promise<Series> {
      const [series] = await present([await shownSeries(id, viewerId)], viewerId);
      return series!;
    },

    /** A new series of the user's; at most SERIES_LIMITS.perArtist. */
    async create(userId: string, body: CreateSeriesBody): Promise<Series> {
      const title = cleanTitle(body.title);
      const description = body.description?.trim() ?? '';
      const id = await db.transaction(async (tx) => {
        await lockOwnerSeries(tx, userId);
        if ((await countOwnerSeries(tx, userId)) >= SERIES_LIMITS.perArtist) throw badRequest(SERIES_ERRORS.tooMany);
        return insertSeries(tx, { ownerId: userId, slug: await freeSlug(tx, userId, title), title, description });
      });
      return answer(id, userId);
    },

    /** Renames (a new slug from the new title), describes, or chooses the cover; only the fields sent change. */
    async update(userId: string, id: string, body: UpdateSeriesBody): Promise<Series> {
      await changeOwn(userId, id, async (tx, series) => {
        const changes: Parameters<typeof updateSeriesRow>[2] = {};
        if (body.title !== undefined) {
          changes.title = cleanTitle(body.title);
          await lockOwnerSeries(tx, userId);
          changes.slug = await freeSlug(tx, userId, changes.title, series.id);
        }
        if (body.description !== undefined) changes.description = body.description.trim();
        if (body.coverPostId !== undefined) {
          if (body.coverPostId !== null) {
            const inSeries = await seriesOrder.positionOf(tx, series.id, body.coverPostId);
            if (inSeries === undefined) throw badRequest(SERIES_ERRORS.coverNotInSeries);
          }
          changes.coverPostId = body.coverPostId?.toLowerCase() ?? null;
        }
        await updateSeriesRow(tx, series.id, changes);
      });
      return answer(id, userId);
    },

    /** Deletes the series (its works stay posts; its followers' notifications of it go with it). */
    async remove(userId: string, id: string): Promise<void> {
      await changeOwn(userId, id, (tx, series) => deleteSeriesRow(tx, series.id));
    },

    /**
     * A keyset page of the series' works in order, those the viewer may not see left out: the page is filled by
     * reading past them (a few rounds at most; a page may then come out short, its cursor going on).
     */
    async works(
      id: string,
      query: { cursor?: string | undefined; limit?: number | undefined },
      viewerId: string | null,
    ) {
      const series = await shownSeries(id, viewerId);
      const limit = query.limit ?? PAGE_LIMITS.default;
      let after = query.cursor ? (decodeCursor(query.cursor, ['int'])[0] as number) : undefined;
      const works: JsonText[] = [];
      let more = true;
      for (let round = 0; round < PAGE_ROUNDS && more && works.length < limit; round++) {
        const want = limit - works.length;
        const rows = await selectWorkRows(db, series.id, viewerId, after, want + 1);
        more = rows.length > want;
        const batch = rows.slice(0, want);
        const shown = await postsById(
          batch.map((row) => row.post_id),
          viewerId,
        );
        for (const row of batch) {
          const post = shown.get(row.post_id);
          if (post) works.push(workJson(post, row));
          after = row.position;
        }
      }
      return { works, nextCursor: more && after !== undefined ? encodeCursor([after]) : null };
    },

    /** Adds one of the user's own works (after a work, first, or last), and notifies the series' followers. */
    async addWork(userId: string, id: string, body: AddSeriesWorkBody): Promise<Series> {
      await changeOwn(userId, id, async (tx, series) => {
        const postId = await ownWork(tx, userId, body.postId);
        if ((await seriesOrder.positionOf(tx, series.id, postId)) !== undefined) {
          throw new HttpError(409, SERIES_ERRORS.alreadyIn);
        }
        if (series.work_count >= SERIES_LIMITS.worksMax) throw badRequest(SERIES_ERRORS.tooManyWorks);
        const position = await placeAfter(tx, series.id, body.after);
        await insertWork(tx, { seriesId: series.id, postId, position, chapter: cleanChapter(body.chapter) }).catch(
          (error: unknown) => {
            // Two adds of the same work raced: the second finds the first's row (the series lock orders them,
            // so this is only a safety net).
            if (isUniqueViolation(error, 'series_works_series_id_post_id_pk'))
              throw new HttpError(409, SERIES_ERRORS.alreadyIn);
            throw error;
          },
        );
        await touchSeries(tx, series.id);
        await notifySeriesFollowers(tx, { actorId: userId, seriesId: series.id, postId });
      });
      return answer(id, userId);
    },

    /** Names (or clears) the chapter of a work of the series. */
    async editWork(userId: string, id: string, postId: string, chapter: string | null): Promise<Series> {
      await changeOwn(userId, id, async (tx, series) => {
        const changed = isUuid(postId) && (await updateWorkChapter(tx, series.id, postId, cleanChapter(chapter)));
        if (!changed) throw notFound(SERIES_ERRORS.notInSeries);
        await touchSeries(tx, series.id);
      });
      return answer(id, userId);
    },

    /** Takes a work out of the series (the work itself stays); unread notifications of its addition go. */
    async removeWork(userId: string, id: string, postId: string): Promise<Series> {
      await changeOwn(userId, id, async (tx, series) => {
        const removed = isUuid(postId) && (await deleteWork(tx, series.id, postId));
        if (!removed) throw notFound(SERIES_ERRORS.notInSeries);
        await touchSeries(tx, series.id);
        await withdrawSeriesWork(tx, { seriesId: series.id, postId });
      });
      return answer(id, userId);
    },

    /** Moves one work right after another (null: first): one row written, as drag and keyboard both ask. */
    async moveWork(userId: string, id: string, postId: string, after: string | null): Promise<Series> {
      await changeOwn(userId, id, async (tx, series) => {
        if ((await seriesOrder.positionOf(tx, series.id, postId)) === undefined) {
          throw notFound(SERIES_ERRORS.notInSeries);
        }
        if (after !== null && after.toLowerCase() === postId.toLowerCase()) throw badRequest(SERIES_ERRORS.afterItself);
        const position = await placeAfter(tx, series.id, after, postId);
        await updateWorkPosition(tx, series.id, postId, position);
        await touchSeries(tx, series.id);
      });
      return answer(id, userId);
    },

    /** The series holding a work, with the works before and after it (404 when the viewer may not see the work). */
    async ofPost(postId: string, viewerId: string | null): Promise<PostSeriesList> {
      // The post's own visibility is the posts module's: its 404 for anyone who may not see it.
      await posts.getPost(postId, viewerId);
      const rows = await selectPostSeries(db, postId, viewerId);
      return {
        series: rows.map((row) => ({
          series: { _id: row.id, slug: row.slug, title: row.title, username: row.owner_username },
          chapter: row.chapter,
          previous: row.previous,
          next: row.next,
        })),
      };
    },

    /** Follows the series (idempotent); one's own too, which notifies nobody. */
    async follow(userId: string, id: string): Promise<Series> {
      const series = await shownSeries(id, userId);
      await insertFollow(db, series.id, userId).catch((error: unknown) => {
        // Deleted between the read and the write.
        if (isForeignKeyViolation(error, 'series_follows_series_id_series_id_fk'))
          throw notFound(SERIES_ERRORS.notFound);
        throw error;
      });
      return answer(series.id, userId);
    },

    async unfollow(userId: string, id: string): Promise<Series> {
      const series = await shownSeries(id, userId);
      await deleteFollow(db, series.id, userId);
      return answer(series.id, userId);
    },

    /** The Atom feed of a series as a visitor sees it: its newest additions first. */
    async feed(username: string, slug: string, origin: string | undefined): Promise<AtomFeed> {
      const row = await selectSeriesBySlug(db, username, slug.toLowerCase(), null);
      if (!row) throw notFound(SERIES_ERRORS.notFound);
      const ids = await selectNewestWorkIds(db, row.id, null, FEED_ENTRIES);
      const works = (await posts.getPosts(ids, null)).map((json) => JSON.parse(json.text) as Post);
      const owner = encodeURIComponent(row.owner_username);
      const name = `${row.owner_first_name} ${row.owner_last_name}`.trim() || `@${row.owner_username}`;
      return writeFeed(
        {
          id: `urn:uuid:${row.id}`,
          title: `${row.title} by ${name} on ${APP_NAME}`,
          subtitle: row.description,
          selfPath: seriesFeedPath(row.owner_username, row.slug),
          pagePath: `/${owner}/series/${row.slug}`,
          authorName: name,
          authorPath: `/${owner}`,
          emptyUpdated: row.created_at,
        },
        works,
        origin,
      );
    },
  };
}

/** The feed of a series: under /api, so no page or file can take it. */
export const seriesFeedPath = (username: string, slug: string) =>
  `/api/users/${encodeURIComponent(username)}/series/${slug}/feed.atom`;

export type SeriesService = ReturnType<typeof createSeriesService>;
