import type { FastifyInstance } from 'fastify';

/**
 * JSON for `application/json`, and also for the `text/plain` and `application/x-www-form-urlencoded`
 * labels that mock-era clients put on JSON text. An empty body is no body, so body-less POSTs work.
 * Prototype-poisoning keys (`__proto__`, `constructor.prototype`) are refused by Fastify's parser.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    ['application/json', 'text/plain', 'application/x-www-form-urlencoded'],
    { parseAs: 'string' },
    (request, body, done) => {
      if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
      parseJson(request, body as string, done);
    },
  );
}
