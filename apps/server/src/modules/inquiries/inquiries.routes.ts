import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import {
  CreateInquiryBody,
  INQUIRY_ERRORS,
  INQUIRY_LIMITS,
  InquiryArtistParams,
  InquiryIdParams,
  InquiryListQuery,
  InquiryMessageBody,
  InquiryMessagePage,
  InquiryMessageResponse,
  InquiryPage,
  InquiryPolicy,
  InquiryReferenceParams,
  InquiryReferenceResponse,
  InquiryResponse,
  InquirySettingsBody,
  InquirySettingsResponse,
  InquiryStateBody,
  MEDIA_LIMITS,
  PageQuery,
} from '@share-arts/contract';
import { Type } from 'typebox';
import { badRequest, HttpError } from '../../lib/http-error.js';
import { RATE_LIMITS } from '../../lib/rate-limiter.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { InquiriesService } from './inquiries.service.js';

const TAGS = ['inquiries'];
const ONE_FILE = 'Send exactly one picture, in a field named "file".';
const NOT_MULTIPART = 'Send the picture as multipart/form-data, with the image in a field named "file".';
const TOO_LARGE = `The picture is larger than ${MEDIA_LIMITS.maxBytes / 1024 / 1024} MB: send a smaller one.`;
const ONLY_TWO =
  'Only the two people of the inquiry (the artist and the client) see it, and not once they deleted it for themselves, nor while one of them blocks the other: anyone else 404.';

/** The multipart body's one picture; @fastify/multipart's limit errors as messages a person can act on. */
async function readPicture(request: FastifyRequest): Promise<Buffer> {
  let data: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || data) throw badRequest(ONE_FILE);
      data = await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, TOO_LARGE);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new HttpError(415, NOT_MULTIPART);
    if (error instanceof HttpError) throw error;
    throw badRequest(ONE_FILE);
  }
  if (!data) throw badRequest(ONE_FILE);
  return data;
}

/** Inquiries (issue 42): requests to artists, their threads, states, reference pictures and the artist's settings. */
export const inquiriesRoutes: FastifyPluginAsyncTypebox<{ inquiries: InquiriesService; guards: AuthGuards }> = async (
  app,
  { inquiries, guards },
) => {
  await app.register(multipart, {
    limits: { fileSize: MEDIA_LIMITS.maxBytes, files: 1, fields: 2, parts: 3, fieldNameSize: 100, headerPairs: 100 },
    throwFileSizeLimit: true,
  });

  app.get(
    '/inquiries',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Your inquiries: received (your inbox) or sent',
        description: `as=artist (the default): the inquiries people sent you; as=client: those you sent. The latest activity (a message, a state change) first, by keyset (cursor, limit); each request's body cut to its first ${INQUIRY_LIMITS.listBodyMax} characters. Threads you deleted for yourself, and those with someone in a blocked pair with you, are left out.`,
        security: bearerAuth,
        querystring: InquiryListQuery,
        response: { 200: InquiryPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => inquiries.list(request.userId!, request.query),
  );

  app.post(
    '/inquiries',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Send an artist an inquiry',
        description: `What you would like (1 to ${INQUIRY_LIMITS.bodyMax} characters), a budget (a whole amount and an ISO 4217 currency) and a deadline (YYYY-MM-DD, today or later), both optional; add reference pictures afterwards with POST /api/inquiries/{id}/references. The artist is notified (and mailed if they chose). Refused: an unknown or suspended artist, or one in a blocked pair with you, 404 "${INQUIRY_ERRORS.artistNotFound}"; yourself or an artist on another server 400; an artist who closed inquiries 403 "${INQUIRY_ERRORS.closed}", or takes them from followers only while you do not follow them 403 "${INQUIRY_ERRORS.followersOnly}"; more than ${INQUIRY_LIMITS.perSenderPerDay} new inquiries in a day 429 (with Retry-After).`,
        security: bearerAuth,
        body: CreateInquiryBody,
        response: { 201: InquiryResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => reply.code(201).send({ inquiry: await inquiries.create(request.userId!, request.body) }),
  );

  app.get(
    '/inquiries/settings',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Your inquiry settings',
        description:
          'Who may send you an inquiry (everyone signed in, your followers, or nobody: closed) and whether a new one is also mailed to you. Until changed: everyone, no mail.',
        security: bearerAuth,
        response: { 200: InquirySettingsResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ settings: await inquiries.settings(request.userId!) }),
  );

  app.put(
    '/inquiries/settings',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Change your inquiry settings',
        description: 'Only the fields sent change. Inquiries already received stay.',
        security: bearerAuth,
        body: InquirySettingsBody,
        response: { 200: InquirySettingsResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ settings: await inquiries.changeSettings(request.userId!, request.body) }),
  );

  app.get(
    '/inquiries/to/:username',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Whether you may send this artist an inquiry',
        description: `The artist's setting, and whether you may send them one now (reason: why not, in words). An unknown or suspended artist, or one in a blocked pair with you: 404.`,
        security: bearerAuth,
        params: InquiryArtistParams,
        response: { 200: InquiryPolicy, ...errorResponses(401, 404) },
      },
    },
    async (request) => inquiries.policy(request.params.username, request.userId!),
  );

  app.get(
    '/inquiries/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'One inquiry',
        description: `The request, its budget, deadline, state, reference pictures and who you are in it. ${ONLY_TWO}`,
        security: bearerAuth,
        params: InquiryIdParams,
        response: { 200: InquiryResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ inquiry: await inquiries.one(request.params.id, request.userId!) }),
  );

  app.delete(
    '/inquiries/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Delete an inquiry for yourself',
        description: `It disappears for you only (with your notifications of it); the other person still sees it, marked as left, and it takes no more messages or changes. Once both deleted it, it is deleted with its messages and pictures. ${ONLY_TWO}`,
        security: bearerAuth,
        params: InquiryIdParams,
        response: { 204: { description: 'Deleted for you', type: 'null' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await inquiries.deleteForMe(request.params.id, request.userId!);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/inquiries/:id/messages',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: "An inquiry's messages",
        description: `The messages of the two, oldest first, by keyset (cursor, limit). ${ONLY_TWO}`,
        security: bearerAuth,
        params: InquiryIdParams,
        querystring: PageQuery,
        response: { 200: InquiryMessagePage, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => inquiries.messages(request.params.id, request.userId!, request.query),
  );

  app.post(
    '/inquiries/:id/messages',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Answer in an inquiry',
        description: `A message of 1 to ${INQUIRY_LIMITS.messageMax} characters from either of the two, whatever the state; the other is notified. Once the other deleted it: 409 "${INQUIRY_ERRORS.otherLeft}". ${ONLY_TWO}`,
        security: bearerAuth,
        params: InquiryIdParams,
        body: InquiryMessageBody,
        response: { 201: InquiryMessageResponse, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ message: await inquiries.answer(request.params.id, request.userId!, request.body.body) }),
  );

  app.post(
    '/inquiries/:id/state',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Accept, decline or finish an inquiry',
        description: `The artist only (the client 403 "${INQUIRY_ERRORS.artistOnly}"). An open inquiry can be accepted, declined or done, an accepted one declined or done; anything else 409. declined needs a reason (at most ${INQUIRY_LIMITS.reasonMax} characters), which the client sees. The client is notified. ${ONLY_TWO}`,
        security: bearerAuth,
        params: InquiryIdParams,
        body: InquiryStateBody,
        response: { 200: InquiryResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ({ inquiry: await inquiries.setState(request.params.id, request.userId!, request.body) }),
  );

  app.post(
    '/inquiries/:id/references',
    {
      preHandler: [
        guards.requireUser,
        async (request) => {
          await guards.limiter.hit(`upload:${request.userId}`, RATE_LIMITS.uploadPerUser);
          if (!request.isMultipart()) throw new HttpError(415, NOT_MULTIPART);
          if (Number(request.headers['content-length'] ?? 0) > MEDIA_LIMITS.maxBytes + 64 * 1024) {
            throw new HttpError(413, TOO_LARGE);
          }
        },
      ],
      decompress: false,
      // The multipart body is read and checked by the handler; the schema documents it.
      validatorCompiler: () => () => true,
      schema: {
        tags: TAGS,
        summary: 'Add a reference picture to your inquiry',
        description: `multipart/form-data with one file field \`file\`: a JPEG, PNG, WebP, AVIF or GIF of at most 20 MB. The client only (the artist 403 "${INQUIRY_ERRORS.clientOnly}"), at most ${INQUIRY_LIMITS.referencesMax} per inquiry (then 400). It is stored re-encoded (upright, at most ${INQUIRY_LIMITS.referenceSide} px on its longer side, JPEG, without any metadata), private to the two people: never under the public /media/ address, only through GET /api/inquiries/{id}/references/{referenceId}. ${ONLY_TWO}`,
        security: bearerAuth,
        consumes: ['multipart/form-data'],
        params: InquiryIdParams,
        body: Type.Object({ file: Type.String({ format: 'binary', description: 'One picture' }) }),
        response: { 201: InquiryReferenceResponse, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const data = await readPicture(request);
      const { id } = request.params as { id: string };
      return reply.code(201).send({ reference: await inquiries.addReference(id, request.userId!, data) });
    },
  );

  app.get(
    '/inquiries/:id/references/:referenceId',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: "One of an inquiry's reference pictures",
        description: `The picture (image/jpeg), with Cache-Control private (no shared cache keeps it). Send the token as for every route: a web page draws it from the bytes it fetched (an object URL). ${ONLY_TWO}`,
        security: bearerAuth,
        params: InquiryReferenceParams,
        response: {
          200: { description: 'The picture', content: { 'image/jpeg': { schema: Type.String({ format: 'binary' }) } } },
          ...errorResponses(401, 404),
        },
      },
    },
    async (request, reply) => {
      const picture = await inquiries.reference(request.params.id, request.params.referenceId, request.userId!);
      return (
        reply
          .type(picture.contentType)
          .header('cache-control', 'private, max-age=3600')
          .header('x-content-type-options', 'nosniff')
          .header('content-disposition', 'inline')
          // The bytes as they are: the schema above documents a binary answer, which the typed reply names a string.
          .send(picture.data as unknown as string)
      );
    },
  );
};
