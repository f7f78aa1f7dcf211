import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import {
  EditAltBody,
  MEDIA_LIMITS,
  MediaIdParams,
  MediaResponse,
  UploadMediaFields,
  type MediaPurpose,
} from '@share-arts/contract';
import { badRequest, HttpError } from '../../lib/http-error.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import { RATE_LIMITS } from '../../lib/rate-limiter.js';
import { MEDIA_MESSAGES } from './media.processing.js';
import type { MediaService } from './media.service.js';
import { scheduleSweeps } from './media.sweeper.js';

const NOT_MULTIPART = 'Send the picture as multipart/form-data, with the image in a field named "file".';
const MALFORMED_MULTIPART =
  'The multipart/form-data body is malformed (a missing boundary or a cut-off part): send it as a browser FormData.';
const ONE_FILE = 'Send exactly one picture, in a field named "file".';
const ENCODED =
  'Send the picture uncompressed (without Content-Encoding): pictures are compressed already, and an ' +
  'upload is read as it arrives.';
// Room for the multipart boundaries and the text fields around a file of the largest allowed size.
const MAX_REQUEST_BYTES = MEDIA_LIMITS.maxBytes + 64 * 1024;

const UPLOAD_DESCRIPTION =
  `multipart/form-data with one file field \`file\` and optional text fields \`alt\` (at most ` +
  `${MEDIA_LIMITS.altMax} characters) and \`purpose\` (\`post\`, the default, or \`avatar\`). ` +
  `Accepted: ${MEDIA_LIMITS.formats.join(', ')} (a GIF's first frame), detected from the content, ` +
  `never from the file name or its Content-Type; at most 20 MB (${MEDIA_LIMITS.maxBytes} bytes) and ` +
  `${MEDIA_LIMITS.maxPixels / 1e6} megapixels. The original is kept as uploaded (originalUrl); the served ` +
  `variants are AVIF and JPEG (4:4:4), sRGB, without any metadata (EXIF, GPS, XMP): ` +
  `${MEDIA_LIMITS.postWidths.join(', ')} px wide for a post, square crops of ` +
  `${MEDIA_LIMITS.avatarSizes.join(', ')} px for an avatar, never upscaled. ` +
  '413: more than 20 MB or 40 megapixels; 415: not a supported picture, or a compressed body ' +
  '(Content-Encoding); 422: damaged, truncated, or ' +
  'containing HTML or script; 429: four of your pictures are already waiting to be processed; 503: too ' +
  'many pictures waiting to be processed, or the disk is full or read-only (see Retry-After). Pictures ' +
  'of different accounts are processed in turns.';

/** Maps @fastify/multipart's limit errors to messages a person can act on. */
function multipartError(error: unknown): unknown {
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, MEDIA_MESSAGES.tooLarge);
    case 'FST_FILES_LIMIT':
      return badRequest(ONE_FILE);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('Too many form fields: send only file, alt and purpose.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpError(415, NOT_MULTIPART);
    case 'FST_PROTO_VIOLATION':
      return badRequest('A form field name is not allowed.');
    default:
      // The parser's own errors ("Multipart: Boundary not found", "Unexpected end of multipart data", a
      // malformed part header) carry no code: the body is not valid multipart, so the client must fix it.
      if (error instanceof HttpError) return error;
      return badRequest(MALFORMED_MULTIPART);
  }
}

async function readUpload(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  let data: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw badRequest(ONE_FILE);
        data = await part.toBuffer();
      } else if (part.fieldname === 'alt' || part.fieldname === 'purpose') {
        if (part.valueTruncated) throw badRequest(`alt must be at most ${MEDIA_LIMITS.altMax} characters long.`);
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    throw multipartError(error);
  }
  if (!data) throw badRequest(ONE_FILE);
  return { data, alt: fields.alt, purpose: fields.purpose };
}

export const mediaRoutes: FastifyPluginAsyncTypebox<{ media: MediaService; guards: AuthGuards }> = async (
  app,
  { media, guards },
) => {
  let stopSweeps: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopSweeps = scheduleSweeps(media.sweep, app.log);
  });
  app.addHook('onClose', async () => stopSweeps?.());

  await app.register(multipart, {
    limits: {
      fileSize: MEDIA_LIMITS.maxBytes,
      files: 1,
      fields: 4,
      parts: 6,
      // alt is at most 500 characters, up to 4 bytes each in UTF-8.
      fieldSize: MEDIA_LIMITS.altMax * 4,
      fieldNameSize: 100,
      headerPairs: 100,
    },
    throwFileSizeLimit: true,
  });

  app.post(
    '/media',
    {
      preHandler: [
        guards.requireUser,
        async (request) => {
          guards.limiter.hit(`upload:${request.userId}`, RATE_LIMITS.uploadPerUser);
          if (!request.isMultipart()) throw new HttpError(415, NOT_MULTIPART);
          const encoding = request.headers['content-encoding'];
          if (encoding !== undefined && encoding !== 'identity') throw new HttpError(415, ENCODED);
          // A declared length over the limit is refused before a byte of the body is read.
          if (Number(request.headers['content-length'] ?? 0) > MAX_REQUEST_BYTES) {
            throw new HttpError(413, MEDIA_MESSAGES.tooLarge);
          }
        },
      ],
      // The multipart parser reads the socket itself: a decompressor reading it too would stall both.
      decompress: false,
      // The multipart body is read and checked by the handler; the schema documents it.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['media'],
        summary: 'Upload a picture',
        description: UPLOAD_DESCRIPTION,
        security: bearerAuth,
        consumes: ['multipart/form-data'],
        body: UploadMediaFields,
        response: { 201: MediaResponse, ...errorResponses(400, 401, 413, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const { data, alt, purpose } = await readUpload(request);
      const row = await media.upload({
        ownerId: request.userId!,
        data,
        alt,
        purpose: purpose as MediaPurpose | undefined,
      });
      return reply.code(201).send({ media: media.toPicture(row) });
    },
  );

  app.post(
    '/media/:id/alt',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['media'],
        summary: 'Change the alt text of your picture',
        description: `Only the owner may. alt is at most ${MEDIA_LIMITS.altMax} characters; empty removes it.`,
        security: bearerAuth,
        params: MediaIdParams,
        body: EditAltBody,
        response: { 201: MediaResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const row = await media.editAlt(request.userId!, request.params.id, request.body.alt);
      return reply.code(201).send({ media: media.toPicture(row) });
    },
  );
};
