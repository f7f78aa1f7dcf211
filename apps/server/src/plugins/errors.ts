import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '@share-arts/contract';
import { HttpError, type MessageValues } from '../lib/http-error.js';
import { acceptedLocale, format, SOURCE_LOCALE } from '../lib/i18n.js';
import { LIMIT_MESSAGES } from '../lib/limit-messages.js';
import { isDatabaseUnavailable, isUnstorableText } from '../lib/db-errors.js';
import { DISK_MESSAGES, diskProblem, type DiskProblem } from '../lib/disk-errors.js';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: { errorMessage?: string; patternMessage?: string };
}

/** A message and the values its placeholders are filled with (none: it is said as written). */
export interface FilledMessage {
  template: string;
  values?: MessageValues;
}

/** Turns a schema validation failure into one sentence that names the field and what is allowed. */
export function describeValidationError(error: AjvError | undefined, context: string | undefined): string {
  const { template, values } = validationMessage(error, context);
  return values ? format(SOURCE_LOCALE, template, values) : template;
}

/**
 * describeValidationError's sentence as a message and its values: a limit with its number (`{name} must be at most
 * {limit} characters long.`) is filled in the reader's language when the answer is sent (issue 43).
 */
export function validationMessage(error: AjvError | undefined, context: string | undefined): FilledMessage {
  if (!error) return { template: 'The request is not valid.' };
  const field = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const where = context === 'querystring' ? 'query parameter ' : context === 'params' ? 'path parameter ' : '';
  const { params } = error;
  if (error.keyword === 'required') {
    return { template: `${where}${joinPath(field, String(params.missingProperty))} is required.` };
  }
  if (!field) {
    if (error.keyword === 'type' && context === 'body') return { template: 'The request body must be a JSON object.' };
    return { template: `The ${context ?? 'request'} ${error.message ?? 'is not valid'}.` };
  }
  if (error.keyword === 'pattern' && error.parentSchema?.patternMessage) {
    return { template: `${where}${field} ${error.parentSchema.patternMessage}.` };
  }
  if (error.parentSchema?.errorMessage && error.keyword !== 'type') {
    return { template: `${error.parentSchema.errorMessage}.` };
  }
  const name = `${where}${field}`;
  const limit = typeof params.limit === 'number' ? params.limit : String(params.limit);
  switch (error.keyword) {
    case 'type':
      return { template: `${name} must be ${article(String(params.type))}.` };
    case 'minLength':
      return params.limit === 1
        ? { template: `${name} must not be empty.` }
        : { template: LIMIT_MESSAGES.minLength, values: { name, limit } };
    case 'maxLength':
      return { template: LIMIT_MESSAGES.maxLength, values: { name, limit } };
    case 'format':
      return { template: `${name} must be a valid ${params.format}.` };
    case 'enum':
      return { template: `${name} must be one of: ${(params.allowedValues as unknown[]).join(', ')}.` };
    case 'minimum':
    case 'maximum':
      return { template: LIMIT_MESSAGES[error.keyword], values: { name, limit } };
    case 'maxItems':
      return { template: LIMIT_MESSAGES.maxItems, values: { name, limit } };
    default:
      return { template: `${name} ${error.message ?? 'is not valid'}.` };
  }
}

/**
 * Sends `errors: [message]`, a message with placeholders filled in the language the request accepts (with the English
 * beside it in `untranslated`, and Content-Language), else as written.
 */
function sendFilled(request: FastifyRequest, reply: FastifyReply, { template, values }: FilledMessage) {
  if (!values) return reply.send({ errors: [template] });
  // The others are translated after they are written (plugins/translate-errors.ts).
  const english = format(SOURCE_LOCALE, template, values);
  const locale = acceptedLocale(request.headers['accept-language']);
  if (!locale || locale === SOURCE_LOCALE) return reply.send({ errors: [english] });
  const translated = format(locale, template, values);
  if (translated === english) return reply.send({ errors: [english] });
  return reply.header('content-language', locale).send({ errors: [translated], untranslated: [english] });
}

const joinPath = (parent: string, child: string) => (parent ? `${parent}.${child}` : child);
const article = (type: string) =>
  type === 'object' || type === 'array' || type === 'integer' ? `an ${type}` : `a ${type}`;

const NUL_CHARACTER = 'Text must not contain the NUL character (\\u0000 or %00): remove it and try again.';

/** Fastify's own client errors, reworded so a person knows what to change. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type: send the body as JSON (Content-Type: application/json).',
  FST_ERR_CTP_BODY_TOO_LARGE: ERRORS.bodyTooLarge,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty: send a JSON object.',
  FST_ERR_CTP_INVALID_JSON_BODY: ERRORS.invalidJson,
};

export function registerErrorHandling(app: FastifyInstance): void {
  // A full disk fails every write: its cause is logged once a minute, not once per request.
  const diskLoggedAt = new Map<DiskProblem, number>();
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      reply.code(error.statusCode).headers(error.headers);
      if (error.template === undefined || !error.values) return reply.send({ errors: [error.message] });
      return sendFilled(request, reply, { template: error.template, values: error.values });
    }
    if (error.validation) {
      reply.code(400);
      return sendFilled(request, reply, validationMessage(error.validation[0] as AjvError, error.validationContext));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        FASTIFY_MESSAGES[error.code] ?? (error instanceof SyntaxError ? ERRORS.invalidJson : error.message);
      return reply.code(status).send({ errors: [message] });
    }
    if (isUnstorableText(error)) {
      return reply.code(400).send({ errors: [NUL_CHARACTER] });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ errors: [ERRORS.databaseUnavailable] });
    }
    const disk = diskProblem(error);
    if (disk) {
      if (Date.now() - (diskLoggedAt.get(disk) ?? -Infinity) >= 60_000) {
        diskLoggedAt.set(disk, Date.now());
        request.log.error({ err: error }, `the disk is ${disk === 'full' ? 'full' : 'read-only'}`);
      }
      return reply
        .code(503)
        .header('retry-after', '60')
        .send({ errors: [DISK_MESSAGES[disk]] });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ errors: [ERRORS.internal] });
  });
}
