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
  `Accepted: ${MEDIA_LIMITS.formats.join(', ')}, detected from the content, never from the file name or ` +
  `its Content-Type; at most 20 MB (${MEDIA_LIMITS.maxBytes} bytes) and ${MEDIA_LIMITS.maxPixels / 1e6} ` +
  `megapixels; an animated GIF or WebP at most ${MEDIA_LIMITS.maxFrames} frames and ` +
  `${MEDIA_LIMITS.maxAnimationPixels / 1e6} megapixels in all (width × height × frames).\n\n` +
  '**The original** (`originalUrl`) is the uploaded file itself, byte for byte, with one exception: ' +
  'personal metadata is removed from it, losslessly, by leaving out the blocks that hold it, so the ' +
  'compressed picture data and the ICC colour profile stay exactly as uploaded. JPEG: the APP1 EXIF and ' +
  "XMP segments, APP13 IPTC, COM comments, every other application segment (vendors' blocks, a JFXX " +
  'thumbnail, MPF) and anything after the end of the image (appended pictures, motion-photo video) go; ' +
  'JFIF, the APP2 ICC profile and the APP14 Adobe colour transform stay. PNG: eXIf, tEXt, zTXt, iTXt, ' +
  'tIME and private chunks go; iCCP, sRGB, gAMA, cHRM, cICP, pHYs, tRNS, bKGD, sBIT and the APNG chunks ' +
  'stay. WebP: the EXIF and XMP chunks go and the VP8X header and RIFF size are corrected. GIF: comments ' +
  'and application blocks other than looping (NETSCAPE2.0) and the ICC profile go. AVIF: its EXIF and ' +
  'XMP items are overwritten in place with an empty EXIF structure and an empty XMP packet of the same ' +
  'length (every offset in the file stays right). EXIF also holds the orientation: when it is not the ' +
  'default, a minimal EXIF block holding only the orientation replaces the old one, so the original ' +
  'still displays upright. The result is read back and checked; a file whose structure cannot be ' +
  'followed is re-encoded instead, as lossless PNG with every pixel and the colour profile kept. A file ' +
  'without metadata is stored unchanged. `originalType`, `originalBytes` and `originalName` (the ' +
  'uploaded file name, cleaned: no path, no control characters, at most 150 characters, ending in the ' +
  'extension of its real format) describe it.\n\n' +
  '`GET /media/<id>-original.<ext>` serves it with its Content-Type and ' +
  '`Content-Disposition: inline; filename="…"; filename*=UTF-8\'\'…` (RFC 6266), so that viewing it ' +
  'shows it and saving it keeps its name; add `?download` for `attachment` (a download link in the web ' +
  'app can equally use the HTML `download` attribute: same origin, and the header gives the name).\n\n' +
  '**The variants** are re-encoded, without any metadata but a colour profile: AVIF and JPEG ' +
  `(4:4:4), sRGB, ${MEDIA_LIMITS.postWidths.join(', ')} px wide for a post, square crops of ` +
  `${MEDIA_LIMITS.avatarSizes.join(', ')} px for an avatar, never upscaled (but pixel art, below), ` +
  'colours converted from the embedded profile (Display P3, Adobe RGB, ProPhoto, …). A post picture ' +
  'whose profile is wider than sRGB and at least one pixel in 10,000 of which lies beyond sRGB also gets ' +
  'Display P3 variants (AVIF and JPEG, the P3 profile embedded), listed first in `sources` with ' +
  '`media: "(color-gamut: p3)"`. An animated GIF or WebP gets ' +
  `animated WebP variants (at most ${MEDIA_LIMITS.animatedMaxWidth} px wide), listed first with ` +
  '`media: "(prefers-reduced-motion: no-preference)"`; its other variants and `url` are the still first ' +
  `frame. Pixel art (a post picture under ${MEDIA_LIMITS.pixelArtMaxSide} px on its longer side, of flat ` +
  'colours: at least half its pixels equal to their left neighbour) is scaled with nearest-neighbour, ' +
  'only up and by whole multiples, and marked `pixelated: true` (draw it with `image-rendering: ' +
  'pixelated`); a small photograph or painting is scaled as any other picture.\n\n' +
  '413: more than 20 MB or 40 megapixels, or an animation over its limits; 415: not a supported ' +
  'picture, or a compressed body (Content-Encoding); 422: damaged, truncated, or containing HTML or ' +
  'script; 429: four of your pictures are already waiting to be processed; 503: too many pictures ' +
  'waiting to be processed, or the disk is full or read-only (see Retry-After). Pictures of different ' +
  'accounts are processed in turns.';

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
  let name: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw badRequest(ONE_FILE);
        name = part.filename;
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
  return { data, name, alt: fields.alt, purpose: fields.purpose };
}

export const mediaRoutes: FastifyPluginAsyncTypebox<{ media: MediaService; guards: AuthGuards }> = async (
  app,
  { media, guards },
) => {
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
          await guards.limiter.hit(`upload:${request.userId}`, RATE_LIMITS.uploadPerUser);
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
      const { data, name, alt, purpose } = await readUpload(request);
      const row = await media.upload({
        ownerId: request.userId!,
        data,
        name,
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
