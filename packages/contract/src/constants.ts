import { LOCALE_STORAGE_KEY } from './locales.js';
/** Field limits, enforced by the server's schemas and mirrored by the client's inputs. */
export const LIMITS = {
  usernameMin: 3,
  usernameMax: 30,
  passwordMin: 8,
  passwordMax: 128,
  nameMax: 50,
  emailMax: 254,
  bioMax: 300,
  linkMax: 300,
  postContentMax: 2000,
  commentContentMax: 1000,
  altTextMax: 500,
  /** Pictures in one post. */
  postPicturesMax: 20,
  /** Process pictures of one work (sketch, lines, flats…: issue 41). */
  processPicturesMax: 10,
} as const;

/** Letters, digits, underscore and dot; must start with a letter or digit. */
export const USERNAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.]*$';

/**
 * Usernames that would shadow an app route (`/{username}` is a profile) or a server prefix.
 * Compared case-insensitively.
 */
export const RESERVED_USERNAMES = [
  'api',
  'assets',
  'media',
  'landing',
  'login',
  'signup',
  'mockman',
  'explore',
  'profile',
  'settings',
  'posts',
  'search',
  'notifications',
  'moderation',
  // Your insights (issue 42): /insights.
  'insights',
  // Your drafts and scheduled posts (issue 41): /drafts.
  'drafts',
  // Your inquiries (issue 42): /inquiries.
  'inquiries',
  'tags',
  // Files the server answers at the root (a username may hold a dot).
  'robots.txt',
  'favicon.svg',
  'admin',
  'root',
  'support',
  'help',
] as const;

export const SORTS = ['latest', 'trending', 'oldest'] as const;
export type Sort = (typeof SORTS)[number];

export const STORAGE_KEYS = {
  token: 'token',
  theme: 'theme',
  locale: LOCALE_STORAGE_KEY,
  /** The language the composer last said a post's text is in (issue 43): a language tag, or '' for "Not said". */
  postLanguage: 'post-language',
} as const;

export const TOAST = {
  autoCloseMs: 2000,
  position: 'top-right',
  collapseMs: 300,
} as const;

export const MOBILE_BREAKPOINT_PX = 560;

/** The credentials the login page's "Login with Test Credential" button sends (a seeded account). */
export const TEST_CREDENTIALS = { username: 'mira', password: 'share-arts-guest' } as const;

export const LIVE = {
  path: '/api/live',
  helloTimeoutMs: 10_000,
  heartbeatMs: 25_000,
  /** Open connections per user (tabs, devices); the oldest is closed when one more signs in. */
  connectionsPerUser: 5,
  /** Posts one connection may watch at once. */
  watchCap: 100,
  /** Notifications replayed on resume at most; beyond that the client refetches its list. */
  replayCap: 100,
} as const;

/** Close codes the server uses (the reason carries a readable message). */
export const LIVE_CLOSE = {
  goingAway: 1001,
  badFrame: 4000,
  unauthorised: 4001,
  helloTimeout: 4008,
  replaced: 4009,
  idle: 4010,
} as const;
