import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { LIMITS, LOCALES, MEDIA_LIMITS } from '@share-arts/contract';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { MASTODON_ROUTE } from './params.js';
import { selectActivity, selectContactAccountId, selectInstanceStats } from './more.sql.js';

/**
 * The Mastodon version we say we are compatible with. Apps turn features on by it (Ice Cubes, Ivory, megalodon's
 * detection read `version`): 4.3.0 has v2 filters, v2 instance, markers and v2 search, all answered here.
 */
export const MASTODON_COMPAT = '4.3.0';

/** The site's words about itself, as Instance shows them. */
const TITLE = 'Share Arts';
const DESCRIPTION = 'Share Arts: a home for artists to share their works, follow each other and find commissions.';

/** The picture apps show for the server: our default post picture (there is no instance banner). */
const THUMBNAIL = '/media/defaults/default-post.jpg';

/** Mastodon's limits for what we do not have (polls), as a server without them sends. */
const NO_POLLS = { max_options: 0, max_characters_per_option: 0, min_expiration: 0, max_expiration: 0 };

function mediaConfiguration() {
  return {
    supported_mime_types: [...MEDIA_LIMITS.mimeTypes],
    description_limit: MEDIA_LIMITS.altMax,
    image_size_limit: MEDIA_LIMITS.maxBytes,
    image_matrix_limit: MEDIA_LIMITS.maxPixels,
    // No video here: Mastodon's smallest honest values.
    video_size_limit: 0,
    video_frame_rate_limit: 0,
    video_matrix_limit: 0,
  };
}

function statusesConfiguration() {
  return {
    max_characters: LIMITS.postContentMax,
    max_media_attachments: LIMITS.postPicturesMax,
    characters_reserved_per_url: 23,
  };
}

/**
 * GET /api/v1/instance and /api/v2/instance (Mastodon's Instance, both shapes), /api/v1/instance/peers,
 * /activity, /rules, /extended_description, /api/v1/custom_emojis and /api/v1/announcements.
 */
export async function instanceRoutes(app: FastifyInstance, { shared, present }: MastodonDeps): Promise<void> {
  const { db } = shared;
  const { origin } = present;
  const versionText = `${MASTODON_COMPAT} (compatible; Share Arts ${await serverVersion()})`;
  const contact = async (at: string) => {
    const id = await selectContactAccountId(db);
    return id ? ((await present.accounts([id], at)).get(id) ?? null) : null;
  };

  app.get('/v1/instance', { schema: MASTODON_ROUTE }, async (request) => {
    const base = origin(request);
    const [stats, account] = await Promise.all([selectInstanceStats(db), contact(base)]);
    return {
      uri: new URL(base).host,
      title: TITLE,
      short_description: DESCRIPTION,
      description: DESCRIPTION,
      email: '',
      version: versionText,
      urls: { streaming_api: base.replace(/^http/, 'ws') },
      stats: { user_count: stats.user_count, status_count: stats.status_count, domain_count: stats.domain_count },
      thumbnail: `${base}${THUMBNAIL}`,
      languages: [...LOCALES],
      registrations: true,
      approval_required: false,
      invites_enabled: false,
      configuration: {
        accounts: { max_featured_tags: 0, max_pinned_statuses: 6 },
        statuses: statusesConfiguration(),
        media_attachments: mediaConfiguration(),
        polls: NO_POLLS,
      },
      contact_account: account,
      rules: [],
    };
  });

  app.get('/v2/instance', { schema: MASTODON_ROUTE }, async (request) => {
    const base = origin(request);
    const [stats, account] = await Promise.all([selectInstanceStats(db), contact(base)]);
    return {
      domain: new URL(base).host,
      title: TITLE,
      version: versionText,
      source_url: 'https://github.com/share-arts/share-arts',
      description: DESCRIPTION,
      usage: { users: { active_month: stats.active_month } },
      thumbnail: { url: `${base}${THUMBNAIL}`, blurhash: null, versions: {} },
      icon: [],
      languages: [...LOCALES],
      configuration: {
        urls: { streaming: base.replace(/^http/, 'ws'), status: null },
        vapid: { public_key: '' },
        accounts: { max_featured_tags: 0, max_pinned_statuses: 6 },
        statuses: statusesConfiguration(),
        media_attachments: mediaConfiguration(),
        polls: NO_POLLS,
        translation: { enabled: false },
      },
      registrations: { enabled: true, approval_required: false, message: null, url: null },
      api_versions: { mastodon: 2 },
      contact: { email: '', account },
      rules: [],
    };
  });

  // Peers are not published (Mastodon may hide them too): an empty list.
  app.get('/v1/instance/peers', { schema: MASTODON_ROUTE }, async () => []);
  app.get('/v1/instance/activity', { schema: MASTODON_ROUTE }, async () =>
    (await selectActivity(db)).map((week) => ({
      week: String(week.week),
      statuses: String(week.statuses),
      logins: String(week.logins),
      registrations: String(week.registrations),
    })),
  );
  app.get('/v1/instance/rules', { schema: MASTODON_ROUTE }, async () => []);
  app.get('/v1/instance/extended_description', { schema: MASTODON_ROUTE }, async () => ({
    updated_at: null,
    content: `<p>${DESCRIPTION}</p>`,
  }));
  app.get('/v1/instance/domain_blocks', { schema: MASTODON_ROUTE }, async () => []);
  app.get('/v1/custom_emojis', { schema: MASTODON_ROUTE }, async () => []);
  app.get('/v1/announcements', { schema: MASTODON_ROUTE }, async () => []);
}

/** The server's version, as NodeInfo names it: apps/server/package.json (beside src/ and dist/ alike). */
async function serverVersion(): Promise<string> {
  const json = await readFile(new URL('../../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(json) as { version: string }).version;
}
