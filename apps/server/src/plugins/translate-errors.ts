import type { FastifyInstance } from 'fastify';
import { acceptedLocale, translateSentence } from '../lib/i18n.js';

/**
 * The API's messages in the reader's language (issue 43): an answer's `errors` (and a short answer's `message`)
 * are translated by the request's Accept-Language — the web app sends the language it shows — and a translated
 * refusal keeps its English in `untranslated`. Without an Accept-Language, or in English, the answer is left as it
 * was written, byte for byte.
 */
export function registerErrorTranslation(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || payload.charCodeAt(0) !== 123 /* { */) return payload;
    const failed = reply.statusCode >= 400;
    if (!failed && (payload.length > 1024 || !payload.includes('"message"'))) return payload;
    const locale = acceptedLocale(request.headers['accept-language']);
    if (!locale || locale === 'en') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return payload;
    const record = body as { errors?: unknown; message?: unknown };
    let changed = false;
    if (failed && Array.isArray(record.errors)) {
      const written = record.errors;
      record.errors = written.map((error) => {
        if (typeof error !== 'string') return error;
        const translated = translateSentence(locale, error);
        changed ||= translated !== error;
        return translated;
      });
      // The English beside them, for programs that act on what a refusal says (the web app opens "Confirm it's
      // you" on one, and puts others beside their field): what they compare never changes with the language.
      if (changed) (record as { untranslated?: unknown }).untranslated = written;
    }
    if (typeof record.message === 'string') {
      const translated = translateSentence(locale, record.message);
      changed ||= translated !== record.message;
      record.message = translated;
    }
    if (changed) {
      reply.header('content-language', locale);
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, accept-language` : 'accept-language');
    }
    return changed ? JSON.stringify(record) : payload;
  });
}
