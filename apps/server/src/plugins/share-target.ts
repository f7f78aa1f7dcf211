import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';

/** Where the web app's manifest sends what is shared to it (its `share_target`, issue 44). */
export const SHARE_TARGET_PATH = '/share-target';
/** The most of the shared words kept (a post's text is shorter; the composer cuts it to its own limit). */
const TEXT_MAX = 5000;
const FIELDS = ['title', 'text', 'url'] as const;

/** The shared title, text and link as a post's words: each once, in that order, one per line. */
export function sharedWords(fields: Partial<Record<(typeof FIELDS)[number], string>>): string {
  const parts: string[] = [];
  for (const name of FIELDS) {
    const value = fields[name]?.trim();
    if (value && !parts.some((part) => part.includes(value))) parts.push(value);
  }
  return parts.join('\n').slice(0, TEXT_MAX);
}

/**
 * POST /share-target without the service worker (it takes the POST itself when it runs, src/sw/share-target.ts
 * in the web app): the browser still posts what the person shared here, multipart. The shared words go to the
 * composer on Home (`/?compose=1&text=…`, 303); the pictures cannot be kept without the worker (they are read and
 * let go), and the composer is told how many there were (`dropped`). Anything that is not multipart goes to the
 * composer empty.
 */
export async function registerShareTarget(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    // Whatever the body's type: this address always answers with the composer.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    await scope.register(multipart, {
      limits: { fields: 6, fieldSize: TEXT_MAX, files: 20, parts: 30, fieldNameSize: 100, headerPairs: 100 },
    });
    scope.post(SHARE_TARGET_PATH, { schema: { hide: true } }, async (request, reply) => {
      const fields: Partial<Record<(typeof FIELDS)[number], string>> = {};
      let dropped = 0;
      if (request.isMultipart()) {
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              part.file.resume();
              if (part.filename) dropped += 1;
            } else if ((FIELDS as readonly string[]).includes(part.fieldname) && typeof part.value === 'string') {
              fields[part.fieldname as (typeof FIELDS)[number]] = part.value;
            }
          }
        } catch {
          // A body cut short or over the limits: what was read so far is kept.
        }
      }
      const query = new URLSearchParams({ compose: '1' });
      const text = sharedWords(fields);
      if (text) query.set('text', text);
      if (dropped > 0) query.set('dropped', String(dropped));
      return reply.code(303).header('cache-control', 'no-store').redirect(`/?${query}`, 303);
    });
  });
}
