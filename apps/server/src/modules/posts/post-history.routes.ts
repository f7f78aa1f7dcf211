import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, KeptPictureParams, KeptPictureQuery, PageQuery, PostHistoryPage } from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { PostHistory } from './post-history.js';

/** A work's history (issue 41, docs/post-history.md): its revisions, and its author's earlier pictures. */
export const postHistoryRoutes: FastifyPluginAsyncTypebox<{ history: PostHistory; guards: AuthGuards }> = async (
  app,
  { history, guards },
) => {
  app.get(
    '/posts/:id/history',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['posts'],
        summary: "A work's history: what each edit changed, newest first",
        description:
          'Keyset paging: pass nextCursor as cursor for the next page; nextCursor is null on the last page. Each ' +
          'revision names the fields it changed and their values before and after (the words and the rights), and ' +
          'how many pictures (and process pictures) the work showed before and after when it changed them. The ' +
          "work's author also gets the earlier pictures (pictures.earlier), whose files only they can read " +
          '(GET /api/posts/{id}/history/pictures/{mediaId}). A post the viewer may not see: 404, as for the post.',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: PostHistoryPage, ...errorResponses(400, 404) },
      },
    },
    async (request) => history.page(request.params.id, request.userId ?? null, request.query),
  );

  app.get(
    '/posts/:id/history/pictures/:mediaId',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['posts'],
        summary: 'A picture the history keeps (its author only)',
        description:
          "A JPEG of a picture the work showed before an edit, for the work's author: size=thumb (about 320 px, " +
          'the default) or large (about 1080 px). Such a picture is served to nobody under /media/ once no post ' +
          'shows it. Not the author: 403; a post the viewer may not see, or a picture its history does not keep: 404.',
        security: bearerAuth,
        params: KeptPictureParams,
        querystring: KeptPictureQuery,
        response: {
          200: {
            description: 'The JPEG',
            content: { 'image/jpeg': { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) } },
          },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const file = await history.keptPicture(
        request.params.id,
        request.params.mediaId,
        request.userId!,
        request.query.size ?? 'thumb',
      );
      return reply
        .type(file.contentType ?? 'image/jpeg')
        .header('content-length', file.length)
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );
};
