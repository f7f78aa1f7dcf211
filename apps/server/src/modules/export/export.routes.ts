import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { EXPORT_ERRORS, EXPORT_LIMITS, ExportLink, ExportTokenParams } from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { ExportService } from './export.service.js';

const running = {
  409: Type.Object({ errors: Type.Array(Type.String()) }, { description: 'An export of this account is running' }),
};

/** "Download your data" (issue 24): a one-time link, then the zip streamed from it. */
export const exportRoutes: FastifyPluginAsyncTypebox<{ exports: ExportService; guards: AuthGuards }> = async (
  app,
  { exports, guards },
) => {
  app.post(
    '/account/export',
    {
      preHandler: guards.requireUser,
      // The answer carries a secret (the link's token): never compressed beside text a client chose.
      compress: false,
      schema: {
        tags: ['account'],
        summary: 'Ask for a link to download your data',
        description:
          'Answers a link to a zip of everything your account holds: your profile, posts (each with its pictures and ' +
          'comments), the comments you wrote, likes, bookmarks, follows both ways, followed tags, pins, blocks, mutes, ' +
          'muted words and notifications as JSON, a README.txt explaining every file and field, and the original of ' +
          `every picture you uploaded, byte for byte. The link needs no token, works once and expires after ` +
          `${EXPORT_LIMITS.linkMinutes} minutes: open it in the browser (or GET it) to download; of the links you ` +
          'ask for, the 5 newest work. One export at a ' +
          `time per account: while one is downloading, 409 "${EXPORT_ERRORS.running}"`,
        security: bearerAuth,
        response: { 201: ExportLink, ...errorResponses(401), ...running },
      },
    },
    async (request, reply) => reply.code(201).send(await exports.createLink(request.userId!)),
  );

  app.get(
    '/account/export/:token',
    {
      // A zip is compressed already.
      compress: false,
      // A HEAD would use the one-time link up for nothing.
      exposeHeadRoute: false,
      schema: {
        tags: ['account'],
        summary: 'Download your data (a zip)',
        description:
          'The zip a link of POST /api/account/export names, streamed as it is written (its size is not known ' +
          'in advance), saved as share-arts-<username>-<date>.zip; the link is the credential, so no token is ' +
          `needed. Unknown, used or expired link: 404 "${EXPORT_ERRORS.linkNotFound}". Another export of the ` +
          'account downloading: 409 (the link stays usable until it expires). If the download is interrupted, ' +
          'ask for a new link.',
        params: ExportTokenParams,
        response: {
          200: {
            description: 'The zip',
            content: { 'application/zip': { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) } },
          },
          ...errorResponses(404),
          ...running,
        },
      },
    },
    async (request, reply) => {
      const download = await exports.download(request.params.token);
      return reply
        .header('content-disposition', `attachment; filename="${download.fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .type('application/zip')
        .send(download.stream);
    },
  );
};
