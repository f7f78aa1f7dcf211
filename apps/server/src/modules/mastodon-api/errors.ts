import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from '../../lib/http-error.js';
import { isDatabaseUnavailable, isUnstorableText } from '../../lib/db-errors.js';
import { describeValidationError } from '../../plugins/errors.js';

/**
 * Mastodon's error shape, `{"error": "…"}` (https://docs.joinmastodon.org/entities/Error/), for every route of the
 * Mastodon API: they are registered in one encapsulated Fastify scope whose error and not-found handlers are these,
 * so the rest of the site keeps its own `{"errors": [...]}`.
 * - a request that fails validation: 422 `Validation failed: …` (as Rails' record validation answers);
 * - anything not found, or not there for this viewer (a blocked pair, a hidden work): 404 `Record not found`,
 *   the same words whatever the reason, as Mastodon answers, so that a block cannot be probed;
 * - no token or a bad one: 401 `The access token is invalid`; a scope missing: 403 (the scope guard's words);
 * - our services' other refusals keep their status and their sentence (a 400 that Mastodon would answer 422
 *   is 422: a request Mastodon's clients may correct).
 */
export const RECORD_NOT_FOUND = 'Record not found';
export const INVALID_TOKEN = 'The access token is invalid';
/** Every limit's 429 in this API (its own, an upload's, a write's), in Mastodon's words (its `errors.429`). */
export const MASTODON_LIMIT_ERRORS = { tooMany: 'Too many requests' } as const;
export const TOO_MANY_REQUESTS = MASTODON_LIMIT_ERRORS.tooMany;

/** A refusal in Mastodon's words, thrown by the routes (the handler below sends it as `{error}`). */
export const mastoError = (status: number, message: string) => new HttpError(status, message);
export const validationFailed = (message: string) => new HttpError(422, `Validation failed: ${message}`);
export const recordNotFound = () => new HttpError(404, RECORD_NOT_FOUND);

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * Mastodon's errors on `scope` (registered at `/api`), and its 404 for unknown addresses under `/api/v1` and
 * `/api/v2` only (each its own prefix: the site's other `/api` addresses keep the site's 404).
 */
export async function registerMastodonErrors(scope: FastifyInstance): Promise<void> {
  // A catch-all route per version, not a not-found handler: other modules register Mastodon addresses of their own
  // under /api/v1 (the OAuth module's apps), and a wildcard only answers what no route of the site does.
  for (const prefix of ['/v1', '/v2']) {
    scope.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: `${prefix}/*`,
      handler: (_request, reply) => reply.code(404).send({ error: RECORD_NOT_FOUND }),
    });
  }
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      const status = error.statusCode === 400 ? 422 : error.statusCode;
      const message =
        status === 404
          ? RECORD_NOT_FOUND
          : status === 429
            ? TOO_MANY_REQUESTS
            : status === 401
              ? INVALID_TOKEN
              : status === 422 && !error.message.startsWith('Validation failed')
                ? `Validation failed: ${error.message}`
                : error.message;
      return reply.code(status).headers(error.headers).send({ error: message });
    }
    if (error.validation) {
      const message = describeValidationError(error.validation[0] as AjvError, error.validationContext);
      return reply.code(422).send({ error: `Validation failed: ${message}` });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ error: error.message });
    if (isUnstorableText(error)) {
      return reply.code(422).send({ error: 'Validation failed: text must not contain the NUL character' });
    }
    if (isDatabaseUnavailable(error)) {
      return reply.code(503).header('retry-after', '5').send({ error: 'The database cannot be reached right now' });
    }
    request.log.error({ err: error }, 'unexpected error (Mastodon API)');
    return reply.code(500).send({ error: 'An unexpected error occurred' });
  });
}
