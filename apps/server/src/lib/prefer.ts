import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';

/** RFC 7240 `Prefer: return=minimal`: the client wants the written object alone, not the first page. */
export const prefersMinimal = (request: FastifyRequest): boolean =>
  /\breturn=minimal\b/i.test(String(request.headers.prefer ?? ''));

export const PreferHeader = Type.Object({
  prefer: Type.Optional(
    Type.String({ description: 'return=minimal (RFC 7240): answer the written object alone, without the first page' }),
  ),
});
