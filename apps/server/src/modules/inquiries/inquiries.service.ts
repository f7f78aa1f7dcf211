import sharp from 'sharp';
import {
  INQUIRY_ERRORS,
  INQUIRY_LIMITS,
  MEDIA_LIMITS,
  PAGE_LIMITS,
  type CreateInquiryBody,
  type Inquiry,
  type InquiryMessage,
  type InquiryMessagePage,
  type InquiryPage,
  type InquiryPolicy,
  type InquiryReference,
  type InquirySettings,
  type InquirySettingsBody,
  type InquiryState,
  type InquiryStateBody,
  type PageQuery,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { notifyInquiry, withdrawInquiryNotifications } from '../../events/notification-rules.js';
import { badRequest, HttpError, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import type { RateLimit, RateLimiter } from '../../lib/rate-limiter.js';
import { toUserSummary } from '../users/index.js';
import {
  deleteForPerson,
  insertInquiry,
  insertMessage,
  insertReference,
  lockInquiry,
  selectArtist,
  selectDeadlineOk,
  selectInquiry,
  selectInquiryPage,
  selectMessagePage,
  selectReferenceData,
  selectSettings,
  updateState,
  upsertSettings,
  type ArtistRow,
  type InquiryRow,
  type LockedInquiry,
  type MessageRow,
} from './inquiries.sql.js';

/** New inquiries one person may send in a day, counted by the app's limiter (Redis when REDIS_URL is set). */
export const INQUIRIES_PER_DAY: RateLimit = { max: INQUIRY_LIMITS.perSenderPerDay, windowMs: 24 * 60 * 60_000 };

const forbidden = (message: string) => new HttpError(403, message);
const conflict = (message: string) => new HttpError(409, message);

/** The allowed moves of an inquiry's state, by the artist. */
const NEXT: Record<InquiryState, InquiryState[]> = {
  open: ['accepted', 'declined', 'done'],
  accepted: ['declined', 'done'],
  declined: [],
  done: [],
};

/** The address of a reference picture: the authorized route, never /media/. */
export const referenceUrl = (inquiryId: string, referenceId: string) =>
  `/api/inquiries/${inquiryId}/references/${referenceId}`;

const toInquiry = (row: InquiryRow, viewerId: string): Inquiry => ({
  _id: row.id,
  artist: toUserSummary(row.artist),
  client: toUserSummary(row.client),
  body: row.body,
  budget:
    row.budget_amount !== null && row.budget_currency !== null
      ? { amount: Number(row.budget_amount), currency: row.budget_currency }
      : null,
  deadline: row.deadline,
  state: row.state,
  declineReason: row.decline_reason,
  references: row.references.map((reference) => ({
    _id: reference._id,
    url: referenceUrl(row.id, reference._id),
    width: Number(reference.width),
    height: Number(reference.height),
    bytes: Number(reference.bytes),
  })),
  messageCount: Number(row.message_count),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  viewer: { role: row.artist_id === viewerId ? 'artist' : 'client', otherLeft: row.other_left },
});

const toMessage = (row: MessageRow): InquiryMessage => ({
  _id: row.id,
  author: toUserSummary(row.author),
  body: row.body,
  createdAt: row.created_at,
});

/** Why the viewer may not send this artist an inquiry (an HttpError), or undefined when they may. */
function refusal(artist: ArtistRow | undefined, viewerId: string): HttpError | undefined {
  // A blocked pair, a suspended or unknown artist: as if there were no one (a block cannot be probed).
  if (!artist || artist.blocked || artist.suspended) return notFound(INQUIRY_ERRORS.artistNotFound);
  if (artist.id === viewerId) return badRequest(INQUIRY_ERRORS.yourself);
  if (artist.remote) return badRequest(INQUIRY_ERRORS.remoteArtist);
  if (artist.accepting === 'closed') return forbidden(INQUIRY_ERRORS.closed);
  if (artist.accepting === 'followers' && !artist.follows) return forbidden(INQUIRY_ERRORS.followersOnly);
  return undefined;
}

/** Reads a reference picture and re-encodes it: upright, at most 2048 px on its longer side, JPEG, no metadata. */
async function encodeReference(data: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  let format: string | undefined;
  try {
    format = (await sharp(data, { limitInputPixels: MEDIA_LIMITS.maxPixels }).metadata()).format;
  } catch {
    throw new HttpError(415, INQUIRY_ERRORS.notPicture);
  }
  if (!format || !['jpeg', 'png', 'webp', 'gif', 'heif'].includes(format)) {
    throw new HttpError(415, INQUIRY_ERRORS.notPicture);
  }
  try {
    const { data: encoded, info } = await sharp(data, { limitInputPixels: MEDIA_LIMITS.maxPixels, failOn: 'error' })
      .rotate()
      .resize({
        width: INQUIRY_LIMITS.referenceSide,
        height: INQUIRY_LIMITS.referenceSide,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { data: encoded, width: info.width, height: info.height };
  } catch {
    throw new HttpError(422, 'The picture is damaged or cut off: send it again, or another one.');
  }
}

/**
 * Inquiries (issue 42): a request from a signed-in person (the client) to an artist, a thread of their messages, the
 * artist's answer, reference pictures private to the two, and the artist's settings. Everything between a blocked
 * pair, or of a thread the viewer deleted, is not there (404).
 */
export function createInquiriesService({
  db,
  limiter,
  mailNew,
}: {
  db: Db;
  limiter: RateLimiter;
  /** Queues the mail of a new inquiry to its artist (sent if they chose mail), once it is committed. */
  mailNew: (inquiryId: string) => Promise<void>;
}) {
  async function shown(id: string, viewerId: string): Promise<InquiryRow> {
    const row = isUuid(id) ? await selectInquiry(db, id, viewerId) : undefined;
    if (!row) throw notFound(INQUIRY_ERRORS.notFound);
    return row;
  }

  /** Runs a change with the inquiry's row locked, once it is known to be there for the viewer. */
  async function change<T>(
    id: string,
    viewerId: string,
    work: (tx: Db, inquiry: LockedInquiry, role: 'artist' | 'client') => Promise<T>,
  ): Promise<T> {
    if (!isUuid(id)) throw notFound(INQUIRY_ERRORS.notFound);
    return db.transaction(async (tx) => {
      const inquiry = await lockInquiry(tx, id);
      const role = inquiry?.artist_id === viewerId ? 'artist' : inquiry?.client_id === viewerId ? 'client' : null;
      const left = role === 'artist' ? inquiry?.artist_deleted_at : inquiry?.client_deleted_at;
      if (!inquiry || !role || left || inquiry.blocked) throw notFound(INQUIRY_ERRORS.notFound);
      return work(tx, inquiry, role);
    });
  }

  const otherLeft = (inquiry: LockedInquiry, role: 'artist' | 'client') =>
    (role === 'artist' ? inquiry.client_deleted_at : inquiry.artist_deleted_at) !== null;

  return {
    /** GET /api/inquiries: the inbox (as the artist) or the sent list (as the client). */
    async list(viewerId: string, query: PageQuery & { as?: 'artist' | 'client' | undefined }): Promise<InquiryPage> {
      const { page, nextCursor } = await selectInquiryPage(db, viewerId, query.as ?? 'artist', {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
      });
      return { inquiries: page.map((row) => toInquiry(row, viewerId)), nextCursor };
    },

    async one(id: string, viewerId: string): Promise<Inquiry> {
      return toInquiry(await shown(id, viewerId), viewerId);
    },

    /** GET /api/inquiries/to/{username}: whether the viewer may send this artist an inquiry now. */
    async policy(username: string, viewerId: string): Promise<InquiryPolicy> {
      const artist = await selectArtist(db, username, viewerId);
      const refused = refusal(artist, viewerId);
      if (refused?.statusCode === 404) throw refused;
      return { accepting: artist!.accepting, canSend: !refused, reason: refused ? refused.message : null };
    },

    /** POST /api/inquiries. */
    async create(viewerId: string, body: CreateInquiryBody): Promise<Inquiry> {
      const text = body.body.trim();
      if (!text) throw badRequest(INQUIRY_ERRORS.bodyBlank);
      const artist = await selectArtist(db, body.artist, viewerId);
      const refused = refusal(artist, viewerId);
      if (refused) throw refused;
      if (body.deadline !== undefined) {
        const ok = await selectDeadlineOk(db, body.deadline);
        if (ok === undefined) throw badRequest(INQUIRY_ERRORS.badDeadline);
        if (!ok) throw badRequest(INQUIRY_ERRORS.deadlinePast);
      }
      // Counted once everything else is right: a refused inquiry does not use up the day's.
      await limiter.hit(`inquiry:${viewerId}`, INQUIRIES_PER_DAY);
      const id = await db.transaction(async (tx) => {
        const id = await insertInquiry(tx, {
          artistId: artist!.id,
          clientId: viewerId,
          body: text,
          budget: body.budget ?? null,
          deadline: body.deadline ?? null,
        });
        await notifyInquiry(tx, { recipientId: artist!.id, actorId: viewerId, kind: 'inquiry', inquiryId: id });
        return id;
      });
      await mailNew(id);
      return toInquiry(await shown(id, viewerId), viewerId);
    },

    async messages(id: string, viewerId: string, query: PageQuery): Promise<InquiryMessagePage> {
      const inquiry = await shown(id, viewerId);
      const { page, nextCursor } = await selectMessagePage(db, inquiry.id, {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
      });
      return { messages: page.map(toMessage), nextCursor };
    },

    /** POST /api/inquiries/{id}/messages: an answer from either of the two. */
    async answer(id: string, viewerId: string, body: string): Promise<InquiryMessage> {
      const text = body.trim();
      if (!text) throw badRequest(INQUIRY_ERRORS.messageBlank);
      return change(id, viewerId, async (tx, inquiry, role) => {
        if (otherLeft(inquiry, role)) throw conflict(INQUIRY_ERRORS.otherLeft);
        const row = await insertMessage(tx, { inquiryId: inquiry.id, authorId: viewerId, body: text });
        await notifyInquiry(tx, {
          recipientId: role === 'artist' ? inquiry.client_id : inquiry.artist_id,
          actorId: viewerId,
          kind: 'inquiry-message',
          inquiryId: inquiry.id,
        });
        return toMessage(row);
      });
    },

    /** POST /api/inquiries/{id}/state: the artist accepts, declines (with a reason) or marks done. */
    async setState(id: string, viewerId: string, body: InquiryStateBody): Promise<Inquiry> {
      const reason = body.reason?.trim() || null;
      if (body.state === 'declined' && !reason) throw badRequest(INQUIRY_ERRORS.reasonRequired);
      if (body.state !== 'declined' && body.reason !== undefined) throw badRequest(INQUIRY_ERRORS.reasonOnlyForDecline);
      await change(id, viewerId, async (tx, inquiry, role) => {
        if (role !== 'artist') throw forbidden(INQUIRY_ERRORS.artistOnly);
        if (otherLeft(inquiry, role)) throw conflict(INQUIRY_ERRORS.otherLeft);
        if (!NEXT[inquiry.state].includes(body.state)) {
          throw conflict(INQUIRY_ERRORS.badTransition(inquiry.state, body.state));
        }
        await updateState(tx, inquiry.id, body.state, reason);
        await notifyInquiry(tx, {
          recipientId: inquiry.client_id,
          actorId: viewerId,
          kind: 'inquiry-state',
          inquiryId: inquiry.id,
        });
      });
      return toInquiry(await shown(id, viewerId), viewerId);
    },

    /** DELETE /api/inquiries/{id}: gone for the viewer; the row goes once both deleted it. */
    async deleteForMe(id: string, viewerId: string): Promise<void> {
      await change(id, viewerId, async (tx, inquiry, role) => {
        await withdrawInquiryNotifications(tx, { inquiryId: inquiry.id, recipientId: viewerId });
        await deleteForPerson(tx, inquiry.id, role);
      });
    },

    /** POST /api/inquiries/{id}/references: the client adds a reference picture (at most 5). */
    async addReference(id: string, viewerId: string, data: Buffer): Promise<InquiryReference> {
      // Checked before the picture is decoded, and again under the row's lock.
      const before = await shown(id, viewerId);
      if (before.client_id !== viewerId) throw forbidden(INQUIRY_ERRORS.clientOnly);
      if (before.references.length >= INQUIRY_LIMITS.referencesMax) {
        throw badRequest(INQUIRY_ERRORS.tooManyReferences);
      }
      const encoded = await encodeReference(data);
      return change(id, viewerId, async (tx, inquiry, role) => {
        if (role !== 'client') throw forbidden(INQUIRY_ERRORS.clientOnly);
        if (otherLeft(inquiry, role)) throw conflict(INQUIRY_ERRORS.otherLeft);
        if (inquiry.reference_count >= INQUIRY_LIMITS.referencesMax) {
          throw badRequest(INQUIRY_ERRORS.tooManyReferences);
        }
        const row = await insertReference(tx, {
          inquiryId: inquiry.id,
          width: encoded.width,
          height: encoded.height,
          contentType: 'image/jpeg',
          data: encoded.data,
        });
        return {
          _id: row._id,
          url: referenceUrl(inquiry.id, row._id),
          width: row.width,
          height: row.height,
          bytes: row.bytes,
        };
      });
    },

    /** A reference picture's bytes, to the two people of the inquiry only (anyone else: 404). */
    async reference(id: string, referenceId: string, viewerId: string) {
      const row =
        isUuid(id) && isUuid(referenceId) ? await selectReferenceData(db, id, referenceId, viewerId) : undefined;
      if (!row) throw notFound('There is no such reference picture.');
      return { contentType: row.content_type, data: Buffer.from(row.data), createdAt: row.created_at };
    },

    async settings(userId: string): Promise<InquirySettings> {
      return selectSettings(db, userId);
    },

    async changeSettings(userId: string, body: InquirySettingsBody): Promise<InquirySettings> {
      return upsertSettings(db, userId, body);
    },
  };
}

export type InquiriesService = ReturnType<typeof createInquiriesService>;
