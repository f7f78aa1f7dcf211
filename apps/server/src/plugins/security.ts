import { hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

type Middleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers `middleware` sets on an answer, read once from a response that is never sent. Helmet's are
 * the same on every answer here (no nonce, no directive computed per request): set through Fastify's
 * reply, they cost less than helmet's chain of middlewares calling Node's setHeader one by one on every
 * request (issue 26: 7 % of a hello world's time in a CPU profile).
 */
function headersOf(middleware: Middleware): Record<string, string> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  let failure: unknown;
  middleware(request, response, (error) => (failure = error));
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return Object.fromEntries(
    Object.entries(response.getHeaders()).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : String(value),
    ]),
  );
}

/** An inline `<script>` (its attributes, its text); a src, a JSON type or a module's is not a classic inline one. */
const INLINE_SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi;
const NOT_CLASSIC = /\b(src|type)\s*=/i;

/**
 * The CSP sources ('sha256-…') that let the web build's inline classic scripts run: its head script, which sets
 * the theme before the first paint and is written into index.html (a file of its own held the paint back by a
 * round trip, issue 22). Read from the built index.html when the server starts; none without a web build.
 */
export function inlineScriptSources(webDistDir: string): string[] {
  const file = path.join(webDistDir, 'index.html');
  if (!existsSync(file)) return [];
  const sources = [...readFileSync(file, 'utf8').matchAll(INLINE_SCRIPT)]
    .filter(([, attributes = '']) => !NOT_CLASSIC.test(attributes))
    .map(([, , text = '']) => `'sha256-${hash('sha256', text, 'base64')}'`);
  return [...new Set(sources)];
}

/**
 * Security headers on every response: a CSP that allows only what the app loads, nosniff, no framing, and
 * Cross-Origin-Resource-Policy same-origin but on uploaded media (cross-origin: other sites may show them).
 * Helmet's headers are computed once (the Fastify plugin rebuilt its middleware, directives parsed again, on
 * every request; then its middleware ran on every request).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { mediaOrigin?: string | undefined; inlineScripts?: string[] } = {},
): void {
  // MEDIA_PUBLIC_URL's origin (issue 25): pictures served by a CDN or the bucket are shown and downloaded from there.
  const media = options.mediaOrigin ? [options.mediaOrigin] : [];
  const headers = headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // The web build's own inline scripts, by hash: nothing else written into a page can run.
          scriptSrc: ["'self'", ...(options.inlineScripts ?? [])],
          // React sets style attributes (image aspect ratios, placeholders), and a page drawn on the server has
          // its stylesheets inline (plugins/static-files.ts).
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...media],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...media],
          mediaSrc: ["'self'", ...media],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          workerSrc: ["'self'", 'blob:'],
        },
      },
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: false,
    }) as Middleware,
  );
  // Uploaded pictures may be shown by other sites (a shared link's preview, an embed); pages, the API and
  // the app's own files stay same-origin.
  const mediaHeaders = { ...headers, 'cross-origin-resource-policy': 'cross-origin' };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/media/') ? mediaHeaders : headers);
    done();
  });
}
