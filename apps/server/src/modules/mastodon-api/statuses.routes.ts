import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  canonicalLanguage,
  CONTENT_WARNING_MAX,
  ERRORS,
  LIMITS,
  type Comment,
  type Post,
  type PostRevision,
} from '@share-arts/contract';
import { Type } from 'typebox';
import { HttpError } from '../../lib/http-error.js';
import { createIdempotency, idempotencyKeyOf } from '../../lib/idempotency.js';
import { isUuid } from '../../lib/ids.js';
import type { JsonText } from '../../lib/json-text.js';
import { isoDate, toContext, textHtml, type MastoStatus } from './entities/index.js';
import { mastoError, recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { flag, list, paramsOf, text, type Params } from './mastodon-api.params.js';
import { selectCommentPost } from './mastodon-api.sql.js';
import { focusOf } from './media.routes.js';
import { checkScheduleLimits, toScheduledStatus, type MastoScheduledStatus } from './scheduled.js';
import { DRAFT_ERRORS } from '../drafts/index.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/**
 * A create's or an edit's `language` (ISO 639, or a BCP 47 tag; clients send `pt_BR` too): the work's language in its
 * canonical form (issue 43), undefined when not sent. Mastodon's own refusal when it is not a language tag.
 */
function languageParam(params: Params): string | undefined {
  const language = text(params, 'language')?.trim();
  if (!language) return undefined;
  const canonical = /^[a-zA-Z]{2,8}([-_][A-Za-z0-9]{1,8})*$/.test(language)
    ? canonicalLanguage(language.replaceAll('_', '-'))
    : null;
  if (!canonical) throw validationFailed('Language is not valid');
  return canonical;
}

/** A status here is a work, or a comment on one (a Status replying to the work). */
type Found = { kind: 'post'; post: Post } | { kind: 'comment'; comment: Comment; postId: string; postAuthorId: string };

const parse = (post: JsonText): Post => JSON.parse(post.text) as Post;
const is404 = (error: unknown) => error instanceof HttpError && error.statusCode === 404;
const isRefusal = (error: unknown, ...messages: string[]) =>
  error instanceof HttpError && error.statusCode === 400 && messages.includes(error.message);

const NOT_ALLOWED = 'This action is not allowed';

/**
 * The Mastodon API's refusals of a status it cannot make as asked (422 `Validation failed: …`): a visibility the works
 * here do not have (a work is public, or for signed-in people when its artist chose so for all their works; there is
 * no followers-only work and no direct message), and a schedule too soon (Mastodon: 5 minutes ahead at least).
 */
export const MASTO_STATUS_ERRORS = {
  private:
    'Visibility private (followers only) is not available on this server: every work is public, or shown to signed-in people only when its artist chose that for all their works',
  direct: 'Visibility direct is not available on this server: there are no direct messages here',
  tooSoon: 'Scheduled at The scheduled date must be in the future',
  notADate: 'Scheduled at must be a date and time, such as 2026-12-08T08:00:00Z',
} as const;
const VISIBILITY_REFUSED = { private: MASTO_STATUS_ERRORS.private, direct: MASTO_STATUS_ERRORS.direct };
const SCHEDULE_ERRORS = MASTO_STATUS_ERRORS;
/** Mastodon's least time ahead for a scheduled status (its PostStatusService::MIN_SCHEDULE_OFFSET). */
const SCHEDULE_MIN_AHEAD_MS = 5 * 60_000;
const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'];

/**
 * Statuses (https://docs.joinmastodon.org/methods/statuses/). A work is a Status; a comment is a Status replying to
 * its work (`in_reply_to_id`), so a reply to a work or to one of its comments is a new comment on that work
 * (comments here are not threaded). Every read and write goes through the posts, comments and pins services.
 */
export async function statusesRoutes(root: FastifyInstance, deps: MastodonDeps): Promise<void> {
  const scope = root.withTypeProvider<TypeBoxTypeProvider>();
  const { posts, comments, media, pins, history, drafts, present, requireScopes, optionalScopes } = deps;
  const { db } = deps.shared;
  // Creates by Idempotency-Key (lib/idempotency.ts, 24 hours, in the database): a retried create answers the first
  // one's status. Mastodon keeps its keys an hour in Redis; here they outlive a restart and reach every process.
  const idempotency = createIdempotency(db, 'masto-status');

  async function find(id: string, viewerId: string | null): Promise<Found> {
    if (!isUuid(id)) throw recordNotFound();
    try {
      return { kind: 'post', post: parse(await posts.getPost(id, viewerId)) };
    } catch (error) {
      if (!is404(error)) throw error;
    }
    const row = await selectCommentPost(db, id, viewerId);
    if (!row) throw recordNotFound();
    // The comment's work must be there for the viewer too (a hidden work, a blocked pair).
    await posts.getPost(row.post_id, viewerId);
    const comment = await comments.getComment(id, viewerId);
    return { kind: 'comment', comment, postId: row.post_id, postAuthorId: row.author_id };
  }

  async function statusOf(found: Found, viewerId: string | null, at: string): Promise<MastoStatus> {
    if (found.kind === 'post') return present.status(found.post, viewerId, at);
    const [status] = await present.commentStatuses([found.comment], found.postAuthorId, viewerId, at);
    if (!status) throw recordNotFound();
    return status;
  }

  const reload = async (id: string, request: FastifyRequest) =>
    statusOf(await find(id, request.userId), request.userId, present.origin(request));

  scope.get(
    '/v1/statuses/:id',
    { preHandler: optionalScopes('read', 'read:statuses'), schema: { params: IdParams } },
    async (request) => reload(request.params.id, request),
  );

  /** What a create or an edit says of the warning: Mastodon's spoiler text and sensitive flag as our one warning. */
  function warningOf(params: Params, current: string | null | undefined): string | null | undefined {
    const spoiler = text(params, 'spoiler_text')?.trim();
    const sensitive = flag(params, 'sensitive');
    if (spoiler === undefined && sensitive === undefined) return current === undefined ? null : undefined;
    if (spoiler && spoiler.length > CONTENT_WARNING_MAX) {
      throw validationFailed(`Spoiler text is too long (maximum is ${CONTENT_WARNING_MAX} characters)`);
    }
    if (spoiler) return spoiler;
    // Sensitive without words: the warning kept, or the word "sensitive".
    if (sensitive === true) return current ?? 'sensitive';
    if (sensitive === false) return null;
    return current === undefined ? null : current;
  }

  function checkStatusText(status: string, max: number) {
    if ([...status].length > max) throw validationFailed(`Text character limit of ${max} exceeded`);
  }

  async function create(request: FastifyRequest): Promise<MastoStatus | MastoScheduledStatus> {
    const me = request.userId!;
    const at = present.origin(request);
    const { params, files } = await paramsOf(request);
    if (files.length > 0) throw validationFailed('upload pictures with POST /api/v2/media, then send their media_ids');
    const status = text(params, 'status') ?? '';
    const mediaIds = list(params, 'media_ids') ?? [];
    const visibility = text(params, 'visibility') ?? 'public';
    const inReplyTo = text(params, 'in_reply_to_id');
    // A comment keeps no language: a reply's is checked and not kept.
    const language = languageParam(params);
    if (!VISIBILITIES.includes(visibility))
      throw validationFailed(`Visibility ${visibility} is not one of ${VISIBILITIES.join(', ')}`);
    if (visibility === 'private' || visibility === 'direct') throw validationFailed(VISIBILITY_REFUSED[visibility]);
    if (params.poll !== undefined) throw validationFailed('Polls are not supported on this server');
    if (mediaIds.length > LIMITS.postPicturesMax) {
      throw validationFailed(`Media attachments are limited to ${LIMITS.postPicturesMax} pictures`);
    }
    const warning = warningOf(params, undefined);
    const scheduledAt = text(params, 'scheduled_at');
    if (scheduledAt) {
      if (inReplyTo) throw validationFailed('A reply is a comment here, and comments cannot be scheduled');
      checkStatusText(status, LIMITS.postContentMax);
      return schedule(me, { status, mediaIds, warning: warning ?? null, language, scheduledAt }, at);
    }
    if (inReplyTo) {
      // A reply is a comment on the work (replying to a comment answers its work: comments are not threaded).
      const target = await find(inReplyTo, me);
      if (mediaIds.length > 0) throw validationFailed('A reply is a comment here, and comments have no pictures');
      checkStatusText(status, LIMITS.commentContentMax);
      const postId = target.kind === 'post' ? target.post._id : target.postId;
      const postAuthorId = target.kind === 'post' ? target.post.userId : target.postAuthorId;
      const comment = await comments.add(me, postId, status);
      const [reply] = await present.commentStatuses([comment], postAuthorId, me, at);
      return reply!;
    }
    checkStatusText(status, LIMITS.postContentMax);
    const post = await posts.create(me, {
      content: status,
      mediaIds,
      contentWarning: warning ?? null,
      ...(language ? { language } : {}),
    });
    present.forget({ accounts: [me] });
    return present.status(post, me, at);
  }

  /**
   * POST /api/v1/statuses with `scheduled_at`: a new draft (issue 41) with the status's words, pictures, warning and
   * language, scheduled at that time (kept in UTC); its answer is Mastodon's ScheduledStatus. Mastodon's rule: at
   * least 5 minutes ahead (else 422 in its words); then the drafts module's (words needed, at most a year ahead).
   */
  async function schedule(
    me: string,
    wanted: {
      status: string;
      mediaIds: string[];
      warning: string | null;
      language?: string | undefined;
      scheduledAt: string;
    },
    at: string,
  ): Promise<MastoScheduledStatus> {
    const when = Date.parse(wanted.scheduledAt);
    if (Number.isNaN(when)) throw validationFailed(SCHEDULE_ERRORS.notADate);
    if (when <= Date.now() + SCHEDULE_MIN_AHEAD_MS) throw validationFailed(SCHEDULE_ERRORS.tooSoon);
    if (!wanted.status.trim()) throw validationFailed(DRAFT_ERRORS.scheduleEmpty);
    await checkScheduleLimits(db, me, new Date(when));
    const asValidation = (error: unknown): never => {
      if (error instanceof HttpError && error.statusCode === 400) throw validationFailed(error.message);
      throw error;
    };
    const draft = await drafts
      .create(me, {
        content: wanted.status,
        ...(wanted.language ? { language: wanted.language } : {}),
        pictures: wanted.mediaIds.map((mediaId) => ({ mediaId })),
        rights: {
          contentWarning: wanted.warning,
          commentPolicy: 'everyone',
          licence: 'all-rights-reserved',
          aiGenerated: false,
          downloadable: false,
        },
      })
      .catch(asValidation);
    const scheduled = await drafts
      .schedule(me, draft._id, { at: new Date(when).toISOString(), timeZone: 'UTC' })
      .catch(asValidation);
    return toScheduledStatus(scheduled, at);
  }

  /** What a create made, named for the Idempotency-Key store: `post:…`, `comment:…` or `scheduled:…` and its id. */
  const madeName = (made: MastoStatus | MastoScheduledStatus) =>
    'params' in made ? `scheduled:${made.id}` : `${made.in_reply_to_id ? 'comment' : 'post'}:${made.id}`;

  /** A replayed create's answer: what the first one made, as it is now (404 when it is gone since, as Mastodon). */
  async function remade(name: string, request: FastifyRequest): Promise<MastoStatus | MastoScheduledStatus> {
    const [kind, id = ''] = name.split(':');
    if (kind !== 'scheduled') return reload(id, request);
    // A draft gone (published, discarded) answers 404 `Record not found`, as the scope's errors say.
    const draft = await drafts.read(id, request.userId!);
    if (!draft.scheduledAt) throw recordNotFound();
    return toScheduledStatus(draft, present.origin(request));
  }

  scope.post('/v1/statuses', { preHandler: requireScopes('write', 'write:statuses') }, async (request) => {
    const key = idempotencyKeyOf(request.headers['idempotency-key'] || undefined);
    let made: MastoStatus | MastoScheduledStatus | undefined;
    const { resultId, replayed } = await idempotency.run(request.userId!, key, async () => {
      made = await create(request);
      return madeName(made);
    });
    return !replayed && made ? made : remade(resultId, request);
  });

  scope.put(
    '/v1/statuses/:id',
    { preHandler: requireScopes('write', 'write:statuses'), schema: { params: IdParams } },
    async (request) => {
      const me = request.userId!;
      const found = await find(request.params.id, me);
      const { params } = await paramsOf(request);
      const status = text(params, 'status');
      if (found.kind === 'comment') {
        if (found.comment.userId !== me) throw mastoError(403, NOT_ALLOWED);
        if (status !== undefined) {
          checkStatusText(status, LIMITS.commentContentMax);
          await comments.edit(me, found.postId, found.comment._id, status);
        }
        return reload(found.comment._id, request);
      }
      const post = found.post;
      if (post.userId !== me) throw mastoError(403, NOT_ALLOWED);
      if (status !== undefined) checkStatusText(status, LIMITS.postContentMax);
      const mediaIds = list(params, 'media_ids');
      if (mediaIds && mediaIds.length > LIMITS.postPicturesMax) {
        throw validationFailed(`Media attachments are limited to ${LIMITS.postPicturesMax} pictures`);
      }
      // media_attributes[]: each picture's new description (its alt text) and focus (`x,y`), as PUT /api/v1/media/{id}
      // keeps them. Every entry is checked before any is written.
      const attributes = params.media_attributes;
      const entries = attributes && typeof attributes === 'object' ? Object.values(attributes) : [];
      const changes = entries.map((entry) => {
        if (!entry || typeof entry !== 'object' || Array.isArray(entry))
          throw validationFailed('media_attributes must be a list of objects');
        const attribute = entry as Params;
        const mediaId = text(attribute, 'id');
        const description = text(attribute, 'description');
        if (!mediaId) throw validationFailed('media_attributes[].id is required');
        if (description !== undefined && description.length > LIMITS.altTextMax) {
          throw validationFailed(`Description is too long (maximum is ${LIMITS.altTextMax} characters)`);
        }
        return { mediaId, description, focus: focusOf(attribute) };
      });
      for (const { mediaId, description, focus } of changes) {
        if (focus) await media.editFocus(me, mediaId, focus);
        if (description !== undefined) await media.editAlt(me, mediaId, description);
      }
      const warning = warningOf(params, post.contentWarning);
      const language = languageParam(params);
      await posts.edit(me, post._id, {
        ...(language !== undefined ? { language } : {}),
        ...(status !== undefined ? { content: status } : {}),
        ...(mediaIds ? { mediaIds } : {}),
        ...(warning !== undefined ? { contentWarning: warning } : {}),
      });
      return reload(post._id, request);
    },
  );

  scope.get(
    '/v1/statuses/:id/source',
    { preHandler: requireScopes('read', 'read:statuses'), schema: { params: IdParams } },
    async (request) => {
      const found = await find(request.params.id, request.userId);
      return found.kind === 'post'
        ? { id: found.post._id, text: found.post.content, spoiler_text: found.post.contentWarning ?? '' }
        : { id: found.comment._id, text: found.comment.content, spoiler_text: '' };
    },
  );

  /**
   * A status's versions, oldest first (StatusEdit: https://docs.joinmastodon.org/entities/StatusEdit/), rebuilt
   * from the work's revisions (issue 41): each keeps what an edit changed, before and after. The words and the
   * warning of each version are exact; its pictures are today's (a revision keeps the earlier pictures for the
   * artist only, not as attachments). A comment keeps no history: its one version.
   */
  scope.get(
    '/v1/statuses/:id/history',
    { preHandler: optionalScopes('read', 'read:statuses'), schema: { params: IdParams } },
    async (request) => {
      const viewerId = request.userId;
      const at = present.origin(request);
      const found = await find(request.params.id, viewerId);
      const current = await statusOf(found, viewerId, at);
      const version = (content: string, warning: string | null, created: string) => ({
        content: textHtml(content, at),
        spoiler_text: warning ?? '',
        sensitive: warning !== null,
        created_at: created,
        account: current.account,
        poll: null,
        media_attachments: current.media_attachments,
        emojis: [],
      });
      if (found.kind === 'comment') return [version(found.comment.content, null, current.created_at)];
      const revisions: PostRevision[] = [];
      let cursor: string | undefined;
      do {
        const page = await history.page(found.post._id, viewerId, { cursor, limit: 50 });
        revisions.push(...page.revisions);
        cursor = page.nextCursor ?? undefined;
      } while (cursor && revisions.length < 500);
      // Newest first: walk back from today's words, each revision's `before` giving the version before it.
      let content = found.post.content;
      let warning = found.post.contentWarning;
      const versions = [
        version(content, warning, revisions.length > 0 ? isoDate(revisions[0]!.createdAt) : current.created_at),
      ];
      revisions.forEach((revision, i) => {
        if (revision.before.content !== undefined) content = revision.before.content;
        if (revision.before.contentWarning !== undefined) warning = revision.before.contentWarning;
        const older = revisions[i + 1];
        versions.push(version(content, warning, older ? isoDate(older.createdAt) : current.created_at));
      });
      return versions.reverse();
    },
  );

  scope.delete(
    '/v1/statuses/:id',
    { preHandler: requireScopes('write', 'write:statuses'), schema: { params: IdParams } },
    async (request) => {
      const me = request.userId!;
      const found = await find(request.params.id, me);
      const status = await statusOf(found, me, present.origin(request));
      if (found.kind === 'post') {
        if (found.post.userId !== me) throw mastoError(403, NOT_ALLOWED);
        await posts.remove(me, found.post._id);
        present.forget({ accounts: [me], posts: [found.post._id] });
        return { ...status, text: found.post.content };
      }
      try {
        await comments.remove(me, found.postId, found.comment._id);
      } catch (error) {
        if (isRefusal(error, ERRORS.deleteCommentNotOwner)) throw mastoError(403, NOT_ALLOWED);
        throw error;
      }
      return { ...status, text: found.comment.content };
    },
  );

  /**
   * Favourite = like (a comment: upvote). Unfavourite takes the like back as the web app's heart does: a work's
   * like becomes a dislike (likes − 1), a comment's upvote a downvote. Both are idempotent, as Mastodon's.
   */
  for (const [action, like] of [
    ['favourite', true],
    ['unfavourite', false],
  ] as const) {
    scope.post(
      `/v1/statuses/:id/${action}`,
      { preHandler: requireScopes('write', 'write:favourites'), schema: { params: IdParams } },
      async (request) => {
        const me = request.userId!;
        const found = await find(request.params.id, me);
        try {
          if (found.kind === 'post' && found.post.viewer.liked !== like) {
            await posts.react(me, found.post._id, like ? 'like' : 'dislike');
          }
          if (found.kind === 'comment' && (found.comment.viewerVote === 'up') !== like) {
            await comments.vote(me, found.postId, found.comment._id, like ? 'up' : 'down');
          }
        } catch (error) {
          if (
            !isRefusal(
              error,
              ERRORS.alreadyLiked,
              ERRORS.alreadyDisliked,
              ERRORS.likeBelowZero,
              ERRORS.alreadyUpvoted,
              ERRORS.alreadyDownvoted,
            )
          )
            throw error;
        }
        return reload(request.params.id, request);
      },
    );
  }

  for (const [action, add] of [
    ['bookmark', true],
    ['unbookmark', false],
  ] as const) {
    scope.post(
      `/v1/statuses/:id/${action}`,
      { preHandler: requireScopes('write', 'write:bookmarks'), schema: { params: IdParams } },
      async (request) => {
        const me = request.userId!;
        const found = await find(request.params.id, me);
        if (found.kind === 'comment') throw validationFailed('Comments cannot be bookmarked here: bookmark the work');
        try {
          await posts.bookmark(me, found.post._id, add);
        } catch (error) {
          if (!isRefusal(error, ERRORS.alreadyBookmarked, ERRORS.notBookmarked)) throw error;
        }
        return reload(found.post._id, request);
      },
    );
  }

  for (const [action, pin] of [
    ['pin', true],
    ['unpin', false],
  ] as const) {
    scope.post(
      `/v1/statuses/:id/${action}`,
      { preHandler: requireScopes('write', 'write:accounts'), schema: { params: IdParams } },
      async (request) => {
        const me = request.userId!;
        const found = await find(request.params.id, me);
        if (found.kind === 'comment') throw validationFailed('Comments cannot be pinned: pin one of your works');
        if (found.post.userId !== me) throw validationFailed('Only your own works can be pinned');
        await (pin ? pins.pin(me, found.post._id) : pins.unpin(me, found.post._id));
        present.forget({ posts: [found.post._id] });
        return reload(found.post._id, request);
      },
    );
  }

  // Boosts: there are none here. A boost is refused as Mastodon refuses a status that cannot be boosted; undoing
  // one answers the status unchanged; nobody boosted anything.
  scope.post(
    '/v1/statuses/:id/reblog',
    { preHandler: requireScopes('write', 'write:statuses'), schema: { params: IdParams } },
    async (request) => {
      await find(request.params.id, request.userId);
      throw validationFailed('Boosts are not available on this server');
    },
  );
  scope.post(
    '/v1/statuses/:id/unreblog',
    { preHandler: requireScopes('write', 'write:statuses'), schema: { params: IdParams } },
    async (request) => reload(request.params.id, request),
  );
  scope.get(
    '/v1/statuses/:id/reblogged_by',
    { preHandler: optionalScopes('read', 'read:accounts'), schema: { params: IdParams } },
    async (request) => {
      await find(request.params.id, request.userId);
      return [];
    },
  );

  /** The people who like a work: the newest ones a work names (at most 5 here, the viewer first if they do). */
  scope.get(
    '/v1/statuses/:id/favourited_by',
    { preHandler: optionalScopes('read', 'read:accounts'), schema: { params: IdParams } },
    async (request) => {
      const found = await find(request.params.id, request.userId);
      const ids =
        found.kind === 'post'
          ? found.post.likes.likedBy.map((person) => person._id)
          : found.comment.votes.upvotedBy.map((person) => person._id);
      const accounts = await present.accounts(ids, present.origin(request));
      return ids.flatMap((id) => accounts.get(id) ?? []);
    },
  );

  /**
   * A work's context: no ancestors, its comments as descendants, oldest first (the first CONTEXT_MAX); a
   * comment's: its work as the one ancestor, no descendants (comments answer the work, not each other).
   */
  scope.get(
    '/v1/statuses/:id/context',
    { preHandler: optionalScopes('read', 'read:statuses'), schema: { params: IdParams } },
    async (request) => {
      const viewerId = request.userId;
      const at = present.origin(request);
      const found = await find(request.params.id, viewerId);
      const postId = found.kind === 'post' ? found.post._id : found.postId;
      const postAuthorId = found.kind === 'post' ? found.post.userId : found.postAuthorId;
      if (found.kind === 'comment') {
        // Comments answer their work only (not threaded): the work is the one ancestor.
        return toContext([await present.status(await posts.getPost(postId, viewerId), viewerId, at)], []);
      }
      const all: Comment[] = [];
      let cursor: string | undefined;
      do {
        const page = await comments.list(postId, { limit: 50, cursor, order: 'oldest' }, viewerId);
        all.push(...page.comments.map((comment) => JSON.parse(comment.text) as Comment));
        cursor = page.nextCursor ?? undefined;
      } while (cursor && all.length < CONTEXT_MAX);
      return toContext([], await present.commentStatuses(all.slice(0, CONTEXT_MAX), postAuthorId, viewerId, at));
    },
  );
}

/** The most comments a context lists (Mastodon caps its descendants too). */
const CONTEXT_MAX = 500;
