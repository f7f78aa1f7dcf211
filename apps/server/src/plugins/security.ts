import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers on every response: a CSP that allows only what the app loads, nosniff, no framing, and
 * Cross-Origin-Resource-Policy same-origin but on uploaded media (cross-origin: other sites may show them).
 * Helmet's middleware is built once (the Fastify plugin rebuilt it, directives parsed again, on every
 * request: a tenth of the server's time on a small answer).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { mediaOrigin?: string | undefined } = {},
): void {
  // MEDIA_PUBLIC_URL's origin (issue 25): pictures served by a CDN or the bucket are shown and downloaded from there.
  const media = options.mediaOrigin ? [options.mediaOrigin] : [];
  const setHeaders = helmet({
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
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error) => {
      // Uploaded pictures may be shown by other sites (a shared link's preview, an embed); pages, the API and
      // the app's own files stay same-origin.
      if (request.url.startsWith('/media/')) reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
      done(error as Error | undefined);
    });
  });
}
