import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  AuditPage,
  JOB_MESSAGES,
  JobParams,
  JobRetried,
  JobsOverview,
  CreatedReport,
  CreateReportBody,
  MODERATION_MESSAGES,
  ModerationActionBody,
  ModerationActionResult,
  ModerationQueue,
  ModerationQueueQuery,
  ModerationQueryAudit,
  RoleBody,
  RoleResult,
  UsernameParams,
  CreateServerBlockBody,
  SERVER_BLOCK_MESSAGES,
  ServerBlockList,
  ServerBlockParams,
  ServerBlockRemoved,
  ServerBlockResult,
  UpdateServerBlockBody,
} from '@share-arts/contract';
import { Type } from 'typebox';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { JobQueue } from '../../jobs/queue.js';
import { notFound } from '../../lib/http-error.js';
import type { ModerationService } from './moderation.service.js';

const PAGING = 'Keyset paging: pass nextCursor as cursor for the next page; nextCursor is null on the last page.';
const SUSPENDED = `A suspended account's token: 403 "${MODERATION_MESSAGES.suspended}" (or "…until <date>.").`;

/** Reports (anyone signed in), the moderation queue and actions (moderators, admins), the audit log and roles (admins). */
export const moderationRoutes: FastifyPluginAsyncTypebox<{
  moderation: ModerationService;
  guards: AuthGuards;
  /** The background jobs (issue 37): admins see how they go and retry the failed ones. */
  jobs: JobQueue;
}> = async (app, { moderation, guards, jobs }) => {
  /** preHandler: a valid token of a moderator or admin (403 for anyone else), checked on the server each time. */
  const requireRole = (least: 'moderator' | 'admin') => async (request: FastifyRequest) => {
    await guards.requireUser(request);
    await moderation.requireRole(request.userId!, least);
  };

  app.post(
    '/reports',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['moderation'],
        summary: 'Report a post, a comment or a person',
        description:
          `Any signed-in person reports what they can see (something they cannot see, or that does not exist: 404), ` +
          `never themselves or their own content (400). One open report per reporter and target: a second answers ` +
          `409 "${MODERATION_MESSAGES.alreadyReported}". The reporter is notified of the outcome ('report-resolved'). ${SUSPENDED}`,
        security: bearerAuth,
        body: CreateReportBody,
        response: { 201: CreatedReport, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await moderation.report(request.userId!, request.body)),
  );

  app.get(
    '/moderation/reports',
    {
      preHandler: requireRole('moderator'),
      schema: {
        tags: ['moderation'],
        summary: 'The moderation queue (moderators)',
        description:
          `Open reports grouped by target, the longest waiting first: the target as it is now, its author with their ` +
          `history (account age, posts, earlier actions against them), its open reports and earlier actions on it. ` +
          `Anyone but a moderator or admin: 403. ${PAGING}`,
        security: bearerAuth,
        querystring: ModerationQueueQuery,
        response: { 200: ModerationQueue, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => moderation.queue(request.query),
  );

  app.get(
    '/moderation/inquiries/:id/references/:referenceId',
    {
      preHandler: requireRole('moderator'),
      schema: {
        tags: ['moderation'],
        summary: "A reported inquiry's reference picture (moderators)",
        description:
          `The picture (image/jpeg) of an inquiry that has an open report, as ModerationTarget.content.references ` +
          `lists it; otherwise 404 "${MODERATION_MESSAGES.referenceNotFound}" (the pictures are private to the ` +
          `inquiry's two people). Cache-Control private. Anyone but a moderator or admin: 403.`,
        security: bearerAuth,
        params: Type.Object({
          id: Type.String({ maxLength: 64, description: 'The inquiry _id' }),
          referenceId: Type.String({ maxLength: 64, description: 'The reference picture _id' }),
        }),
        response: {
          200: { description: 'The picture', content: { 'image/jpeg': { schema: Type.String({ format: 'binary' }) } } },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const picture = await moderation.reportedReference(request.params.id, request.params.referenceId);
      return (
        reply
          .type(picture.contentType)
          .header('cache-control', 'private, max-age=300')
          .header('x-content-type-options', 'nosniff')
          .header('content-disposition', 'inline')
          // The bytes as they are: the schema documents a binary answer, which the typed reply names a string.
          .send(picture.data as unknown as string)
      );
    },
  );

  app.post(
    '/moderation/actions',
    {
      preHandler: requireRole('moderator'),
      schema: {
        tags: ['moderation'],
        summary: 'Act on a target (moderators)',
        description:
          'dismiss: its open reports are resolved, nothing changes. hide: its author still sees it, marked hidden with ' +
          'the reason (Post.moderation); nobody else does. remove: gone for everyone (kept for the audit). ' +
          'mark-sensitive (a post): its content warning becomes "sensitive" if it had none. suspend (a person, or the ' +
          'author of a post or comment): until `until`, or for good without it; the account cannot sign in or act, its ' +
          'tokens stop working at once and its content is hidden. Every action writes the audit log and resolves the ' +
          "target's open reports, each reporter notified. Anyone but a moderator or admin: 403.",
        security: bearerAuth,
        body: ModerationActionBody,
        response: { 200: ModerationActionResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => moderation.act(request.userId!, request.body),
  );

  // Blocked servers (issue 39, docs/federation.md "Blocking a server"): moderators and admins.
  const SEVERITY =
    'suspend: everything from it is refused (its inbox POSTs answer 403 before its key is fetched), the follows of our ' +
    'artists by its people end and nothing is delivered to it; silence: its people notify only those here who follow ' +
    'them (their works reach only their followers, as every remote work); reject_media: its works are not taken in ' +
    'and none of its pictures fetched. A domain covers its subdomains.';

  app.get(
    '/moderation/servers',
    {
      preHandler: requireRole('moderator'),
      schema: {
        tags: ['moderation'],
        summary: 'The blocked servers (moderators)',
        description: `Every blocked or silenced server, by domain. ${SEVERITY} Anyone but a moderator or admin: 403.`,
        security: bearerAuth,
        response: { 200: ServerBlockList, ...errorResponses(401, 403, 404) },
      },
    },
    () => moderation.serverBlocks(),
  );

  app.post(
    '/moderation/servers',
    {
      preHandler: requireRole('moderator'),
      schema: {
        tags: ['moderation'],
        summary: 'Block a server (moderators)',
        description:
          `The domain is lower-cased, an IDN kept as punycode; a URL, a path, a port or a single label: 400 ` +
          `"${SERVER_BLOCK_MESSAGES.badDomain}". Already blocked: 409. Written to the audit log. ${SEVERITY} ` +
          'Anyone but a moderator or admin: 403.',
        security: bearerAuth,
        body: CreateServerBlockBody,
        response: { 201: ServerBlockResult, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await moderation.blockServer(request.userId!, request.body)),
  );

  app.patch(
    '/moderation/servers/:id',
    {
      preHandler: requireRole('moderator'),
      schema: {
        tags: ['moderation'],
        summary: "Change a server's block (moderators)",
        description: `Its severity or reason; written to the audit log. ${SEVERITY} Anyone but a moderator or admin: 403.`,
        security: bearerAuth,
        params: ServerBlockParams,
        body: UpdateServerBlockBody,
        response: { 200: ServerBlockResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => moderation.changeServerBlock(request.userId!, request.params.id, request.body),
  );

  app.delete(
    '/moderation/servers/:id',
    {
      preHandler: requireRole('moderator'),
      schema: {
        tags: ['moderation'],
        summary: 'Lift a server block (moderators)',
        description:
          'Written to the audit log. The follows it ended stay ended (its people follow again from their server). ' +
          'Anyone but a moderator or admin: 403.',
        security: bearerAuth,
        params: ServerBlockParams,
        response: { 200: ServerBlockRemoved, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => moderation.unblockServer(request.userId!, request.params.id),
  );

  app.get(
    '/moderation/audit',
    {
      preHandler: requireRole('admin'),
      schema: {
        tags: ['moderation'],
        summary: 'The audit log (admins)',
        description: `Every moderation action and role change, newest first: who, what, when and why. Nobody can change it. Anyone but an admin: 403. ${PAGING}`,
        security: bearerAuth,
        querystring: ModerationQueryAudit,
        response: { 200: AuditPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => moderation.audit(request.userId!, request.query),
  );

  app.put(
    '/admin/users/:username/role',
    {
      preHandler: requireRole('admin'),
      schema: {
        tags: ['moderation'],
        summary: "Change a person's role (admins)",
        description:
          `Names a moderator, or makes one a user again (written to the audit log). Your own role: 400 "${MODERATION_MESSAGES.ownRole}". ` +
          `An admin's: 400 (admins are named and un-named with \`npm run admin\` on the server). Anyone but an admin: 403.`,
        security: bearerAuth,
        params: UsernameParams,
        body: RoleBody,
        response: { 200: RoleResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => moderation.setRole(request.userId!, request.params.username, request.body.role),
  );

  app.get(
    '/admin/jobs',
    {
      preHandler: requireRole('admin'),
      schema: {
        tags: ['moderation'],
        summary: 'The background jobs (admins)',
        description:
          'Each kind of background job (mail, sweeps): how many wait, run and failed (out of tries, kept 14 days), ' +
          'and how long the oldest ready one has waited; then the 50 newest failed jobs with their last error. ' +
          'The same counts are in GET /api/metrics. Anyone but an admin: 403.',
        security: bearerAuth,
        response: { 200: JobsOverview, ...errorResponses(401, 403, 404) },
      },
    },
    async () => ({ kinds: await jobs.counts(), failed: await jobs.failed(50) }),
  );

  app.post(
    '/admin/jobs/:id/retry',
    {
      preHandler: requireRole('admin'),
      schema: {
        tags: ['moderation'],
        summary: 'Retry a failed background job (admins)',
        description: `Queues a job that ran out of tries for one more. A job that is not failed: 404 "${JOB_MESSAGES.notFailed}". Anyone but an admin: 403.`,
        security: bearerAuth,
        params: JobParams,
        response: { 200: JobRetried, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      if (!(await jobs.retry(request.params.id))) throw notFound(JOB_MESSAGES.notFailed);
      return { message: JOB_MESSAGES.retried };
    },
  );
};
