import type { FastifyPluginAsync } from 'fastify';

/**
 * The crawlers that gather text and pictures to train AI models, asked to stay away from the whole site
 * (issue 23: "Ask AI crawlers not to train on my work" is on by default, and robots.txt cannot ask per
 * artist; pages and pictures also say it per artist: `<meta name="robots" content="noai, noimageai">` and
 * `X-Robots-Tag`). Google-Extended and Applebot-Extended are tokens, not crawlers: they govern whether what
 * Googlebot and Applebot fetch may train Gemini and Apple's models, and leave search alone. Search crawlers
 * of AI companies that do not train on what they fetch (OAI-SearchBot) are not listed: turning them away
 * would only hide the artists from search results.
 */
export const AI_CRAWLERS = [
  'GPTBot',
  'ChatGPT-User',
  'ClaudeBot',
  'Claude-Web',
  'anthropic-ai',
  'CCBot',
  'Google-Extended',
  'Applebot-Extended',
  'Bytespider',
  'PerplexityBot',
  'meta-externalagent',
  'FacebookBot',
  'Diffbot',
  'Omgilibot',
  'cohere-ai',
  'ImagesiftBot',
  'Timpibot',
] as const;

/**
 * Other crawlers may read the public pages, and the public reads those pages are drawn from (a crawler that
 * runs the app asks for them); the rest of the API (sign-in, search, notifications, uploads, the live
 * socket) and the signed-in pages are not for them.
 */
export const ROBOTS_TXT = [
  '# Share Arts: artists share their work here. Please do not use it to train AI models.',
  '',
  ...AI_CRAWLERS.map((agent) => `User-agent: ${agent}`),
  'Disallow: /',
  '',
  'User-agent: *',
  'Allow: /api/posts',
  'Allow: /api/users/',
  'Allow: /api/tags/',
  'Allow: /api/comments/',
  'Disallow: /api/',
  'Disallow: /settings',
  'Disallow: /notifications',
  'Disallow: /login',
  'Disallow: /signup',
  '',
].join('\n');

/** GET /robots.txt: plain text, cached a day. */
export const robotsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=86400').send(ROBOTS_TXT),
  );
};
