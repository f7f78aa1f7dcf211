import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import {
  IMPORT_ERRORS,
  IMPORT_LIMITS,
  ImportIdParams,
  ImportItemsQuery,
  ImportItemsResponse,
  ImportOptions,
  ImportResponse,
  ImportsResponse,
} from '@share-arts/contract';
import { badRequest, HttpError } from '../../lib/http-error.js';
import { RATE_LIMITS } from '../../lib/rate-limiter.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { ImportsService } from './imports.service.js';

const ONE_FILE = 'Send the archive as multipart/form-data, in one file field named "file".';

const UPLOAD_DESCRIPTION =
  'Bring your work (issue 40): the zip of Instagram ("Download your information", JSON format: ' +
  '`your_instagram_activity/media/posts_1.json` and its `media/` folder, or the older layout), of Mastodon or ' +
  'Pixelfed (`outbox.json`, `actor.json`, `media_attachments/`), or of Share Arts ("Download your data"), as ' +
  'multipart/form-data with one file field `file`. It streams to the server, at most 4 GB, and is checked before ' +
  'anything is read from it; the answer is its preview (how many works, their dates, the first few), `state: ready`. ' +
  'Start it with POST /api/imports/{id}/start. A new upload replaces a preview not started. 413: over 4 GB; 422: an ' +
  'archive refused, with a sentence saying why (not a zip, an HTML export of Instagram, a zip bomb, a path that leads ' +
  'out, a symbolic link, an index that is not JSON or over 64 MB, an export of this very account or one another ' +
  `account imported); 409: "${IMPORT_ERRORS.running}"`;

/** Imports (issue 40): the archive's upload and preview, its start, its progress and what became of each post. */
export const importsRoutes: FastifyPluginAsyncTypebox<{ imports: ImportsService; guards: AuthGuards }> = async (
  app,
  { imports, guards },
) => {
  await app.register(multipart, {
    limits: { fileSize: IMPORT_LIMITS.maxArchiveBytes, files: 1, fields: 0, parts: 1, headerPairs: 100 },
    throwFileSizeLimit: true,
  });

  app.post(
    '/imports',
    {
      preHandler: [
        guards.requireUser,
        async (request) => {
          await guards.limiter.hit(`upload:${request.userId}`, RATE_LIMITS.uploadPerUser);
          if (!request.isMultipart()) throw new HttpError(415, ONE_FILE);
          if (Number(request.headers['content-length'] ?? 0) > IMPORT_LIMITS.maxArchiveBytes + 64 * 1024) {
            throw new HttpError(413, IMPORT_ERRORS.tooLarge);
          }
          await imports.checkNotRunning(request.userId!);
        },
      ],
      decompress: false,
      validatorCompiler: () => () => true,
      schema: {
        tags: ['imports'],
        summary: 'Upload an archive to import',
        description: UPLOAD_DESCRIPTION,
        security: bearerAuth,
        consumes: ['multipart/form-data'],
        body: Type.Object({ file: Type.Unsafe({ type: 'string', format: 'binary' }) }),
        response: { 201: ImportResponse, ...errorResponses(400, 401, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      let file;
      try {
        file = await request.file();
      } catch {
        throw badRequest(ONE_FILE);
      }
      if (!file || file.fieldname !== 'file') throw badRequest(ONE_FILE);
      const created = await imports.upload(request.userId!, { stream: file.file, fileName: file.filename });
      return reply.code(201).send({ import: created });
    },
  );

  app.post(
    '/imports/:id/start',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['imports'],
        summary: 'Start a previewed import with your choices',
        description:
          'keepDates (default true): each work keeps its original date and takes its place in your grid; ' +
          "hashtagsAsTags (default true): a caption's #hashtags become tags; markImported: each work says where it " +
          "came from; profile (default false): the bio and profile photo the archive holds (the preview's `profile`) " +
          "replace yours, the photo checked as an upload is; the import's `profile` then says what was set, and why a " +
          'photo could not be. The import runs in the background: follow it with GET /api/imports/{id} (the live socket sends ' +
          '`{ type: "import", importId }` as it moves). Imported works notify nobody, do not come to the top of ' +
          "anyone's Home, and are not sent to the fediverse as new posts. 409 when it started already, or another " +
          'import of yours runs.',
        security: bearerAuth,
        params: ImportIdParams,
        body: ImportOptions,
        response: { 202: ImportResponse, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(202).send({ import: await imports.start(request.userId!, request.params.id, request.body) }),
  );

  app.get(
    '/imports',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['imports'],
        summary: 'Your imports, newest first',
        description: 'The ten newest: a page that was closed finds a running import here.',
        security: bearerAuth,
        response: { 200: ImportsResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ imports: await imports.list(request.userId!) }),
  );

  app.get(
    '/imports/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['imports'],
        summary: 'An import: its preview, choices and progress',
        security: bearerAuth,
        params: ImportIdParams,
        response: { 200: ImportResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ import: await imports.get(request.userId!, request.params.id) }),
  );

  app.get(
    '/imports/:id/items',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['imports'],
        summary: 'What became of each post of an import',
        description:
          'In archive order (oldest first): imported with its work (`postId`), imported already by an earlier ' +
          'import, or skipped with the reason. `outcome=imported` or `skipped` for one kind; `nextCursor` for the next page.',
        security: bearerAuth,
        params: ImportIdParams,
        querystring: ImportItemsQuery,
        response: { 200: ImportItemsResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => imports.items(request.userId!, request.params.id, request.query),
  );
};
