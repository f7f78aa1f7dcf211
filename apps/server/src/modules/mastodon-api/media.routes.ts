import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '@share-arts/contract';
import { Type } from 'typebox';
import { RATE_LIMITS } from '../../lib/rate-limiter.js';
import { isUuid } from '../../lib/ids.js';
import { toPicture } from '../media/index.js';
import { toMediaAttachment } from './entities/index.js';
import { mastoError, recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { paramsOf, readMultipart, text, type Params } from './mastodon-api.params.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** `focus` as Mastodon sends it ("x,y", each from -1 to 1): the focal point kept on the picture; undefined: none. */
export function focusOf(params: Params): { x: number; y: number } | undefined {
  const focus = text(params, 'focus');
  if (focus === undefined || focus === '') return undefined;
  const parts = focus.split(',').map((part) => (part.trim() === '' ? NaN : Number(part)));
  if (parts.length !== 2 || parts.some((part) => !Number.isFinite(part) || part < -1 || part > 1)) {
    throw validationFailed('Focus must be two numbers from -1.0 to 1.0, as "x,y"');
  }
  return { x: parts[0]!, y: parts[1]! };
}

function checkDescription(description: string | undefined): void {
  if (description !== undefined && description.length > LIMITS.altTextMax) {
    throw validationFailed(`Description is too long (maximum is ${LIMITS.altTextMax} characters)`);
  }
}

/**
 * Media (https://docs.joinmastodon.org/methods/media/): a picture uploaded as `POST /api/media` uploads one (the
 * same checks, pipeline, fair queue and rate limit), `description` its alt text. Our pictures are processed before
 * the upload answers, so v2 answers 200 with its `url` (Mastodon's answer for a file processed at once), never
 * 202, and `GET /api/v1/media/{id}` answers 200 (there is never a 206 "still processing"). Pictures only: other
 * files are refused (415/422), as the site's own uploads.
 */
export async function mediaRoutes(root: FastifyInstance, deps: MastodonDeps): Promise<void> {
  const scope = root.withTypeProvider<TypeBoxTypeProvider>();
  const { media, present, requireScopes } = deps;
  const { limiter } = deps.shared;

  async function upload(request: FastifyRequest, reply: FastifyReply) {
    const me = request.userId!;
    if (!request.isMultipart()) throw mastoError(415, 'Send the file as multipart/form-data, in a field named "file"');
    await limiter.hit(`upload:${me}`, RATE_LIMITS.uploadPerUser);
    const { params, files } = await readMultipart(request);
    const file = files.find((part) => part.field === 'file');
    if (!file || files.length > 1) throw validationFailed('send one file, in a field named "file"');
    const description = text(params, 'description');
    checkDescription(description);
    const focus = focusOf(params);
    if (files.some((part) => part.field === 'thumbnail')) throw validationFailed('thumbnails are for audio and video');
    const uploaded = await media.upload({
      ownerId: me,
      purpose: 'post',
      data: file.data,
      name: file.name,
      alt: description ?? '',
    });
    const row = focus ? await media.editFocus(me, uploaded.id, focus) : uploaded;
    return reply.code(200).send(toMediaAttachment(toPicture(row), present.origin(request)));
  }

  const uploadOptions = {
    preHandler: requireScopes('write', 'write:media'),
    // The multipart parser reads the socket itself.
    decompress: false,
  } as const;
  scope.post('/v2/media', uploadOptions, upload);
  scope.post('/v1/media', uploadOptions, upload);

  /** One's own picture: 404 for anyone else's, as for none. */
  async function own(me: string, id: string) {
    if (!isUuid(id)) throw recordNotFound();
    try {
      return await media.findOwned(me, id);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 403) throw recordNotFound();
      throw error;
    }
  }

  scope.get(
    '/v1/media/:id',
    { preHandler: requireScopes('write', 'write:media'), schema: { params: IdParams } },
    async (request) =>
      toMediaAttachment(toPicture(await own(request.userId!, request.params.id)), present.origin(request)),
  );

  scope.put(
    '/v1/media/:id',
    { preHandler: requireScopes('write', 'write:media'), schema: { params: IdParams } },
    async (request) => {
      const me = request.userId!;
      await own(me, request.params.id);
      const { params, files } = await paramsOf(request);
      if (files.length > 0) throw validationFailed('thumbnails are for audio and video');
      const description = text(params, 'description');
      checkDescription(description);
      const focus = focusOf(params);
      if (focus) await media.editFocus(me, request.params.id, focus);
      const row =
        description !== undefined
          ? await media.editAlt(me, request.params.id, description)
          : await own(me, request.params.id);
      return toMediaAttachment(toPicture(row), present.origin(request));
    },
  );
}
