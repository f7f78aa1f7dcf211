import { IncomingMessage, ServerResponse } from 'node:http';
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

/**
 * Security headers on every response: a CSP that allows only what the app loads, nosniff, no framing, and
 * Cross-Origin-Resource-Policy same-origin but on uploaded media (cross-origin: other sites may show them).
 * Helmet's headers are computed once (the Fastify plugin rebuilt its middleware, directives parsed again, on
 * every request; then its middleware ran on every request).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { mediaOrigin?: string | undefined } = {},
): void {
  // MEDIA_PUBLIC_URL's origin (issue 25): pictures served by a CDN or the bucket are shown and downloaded from there.
  const media = options.mediaOrigin ? [options.mediaOrigin] : [];
  const headers = headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // React sets style attributes (image aspect ratios, placeholders); no stylesheet is inlined.
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
