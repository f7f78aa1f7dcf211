import type { PersonSummary, User, UserCard } from '@share-arts/contract';
import { absolute, escapeHtml, textHtml } from './html.js';

/** Mastodon's Account (https://docs.joinmastodon.org/entities/Account/). */
export interface MastoAccount {
  id: string;
  username: string;
  acct: string;
  url: string;
  uri: string;
  display_name: string;
  note: string;
  avatar: string;
  avatar_static: string;
  header: string;
  header_static: string;
  locked: boolean;
  fields: { name: string; value: string; verified_at: string | null }[];
  emojis: [];
  bot: boolean;
  group: boolean;
  discoverable: boolean | null;
  indexable: boolean;
  noindex: boolean | null;
  hide_collections: boolean | null;
  moved?: MastoAccount | null;
  suspended?: boolean;
  limited?: boolean;
  memorial?: boolean;
  roles: [];
  created_at: string;
  last_status_at: string | null;
  statuses_count: number;
  followers_count: number;
  following_count: number;
}

/** The signed-in person's own account (verify_credentials, update_credentials): with `source` and `role`. */
export interface MastoCredentialAccount extends MastoAccount {
  source: {
    note: string;
    fields: { name: string; value: string; verified_at: string | null }[];
    privacy: 'public' | 'unlisted' | 'private' | 'direct';
    sensitive: boolean;
    language: string | null;
    follow_requests_count: number;
    hide_collections: boolean | null;
    discoverable: boolean | null;
    indexable: boolean;
    attribution_domains: string[];
    quote_policy: 'nobody';
  };
  role: { id: string; name: string; permissions: string; color: string; highlighted: boolean };
}

/**
 * What an Account is made of: a whole profile (User), a person in a list (UserCard), or a person named by a
 * comment or notification (PersonSummary: no counts, no bio; sent as 0 and empty).
 */
export type AccountSource = (User | UserCard | PersonSummary) & {
  bio?: string;
  link?: string;
  createdAt?: string;
  followerCount?: number;
  followingCount?: number;
  postCount?: number;
  worksSignedInOnly?: boolean;
  movedTo?: PersonSummary;
};

export interface AccountExtras {
  /**
   * The artist asks AI crawlers not to train on their work (users.ai_training_opt_out, on by default): such an
   * account is `noindex` (search engines, and what reads their pages, are asked to keep away), as our pages say.
   * Unknown (a person from another server): false.
   */
  aiOptOut?: boolean;
  /** When their newest work was posted, a date (YYYY-MM-DD) as Mastodon sends it; null when unknown or none. */
  lastStatusAt?: string | null;
}

/** The header clients show when an account has none (we have no header pictures): the default post picture. */
export const DEFAULT_HEADER = '/media/defaults/default-post.jpg';
/** Mastodon sends created_at at midnight UTC; an unknown one (a summary) is the epoch. */
const EPOCH = '1970-01-01T00:00:00.000Z';

/** Our DateStrings (`…+00:00`, to the second) as Mastodon's ISO 8601 with milliseconds. */
export const isoDate = (date: string | undefined | null): string => {
  if (!date) return EPOCH;
  const parsed = new Date(date);
  return Number.isNaN(parsed.getTime()) ? EPOCH : parsed.toISOString();
};

function fieldsOf(link: string | undefined): MastoAccount['fields'] {
  if (!link) return [];
  const href = escapeHtml(link);
  const shown = escapeHtml(link.replace(/^https?:\/\//i, ''));
  return [
    {
      name: 'Website',
      value: `<a href="${href}" rel="nofollow noopener me" target="_blank">${shown}</a>`,
      verified_at: null,
    },
  ];
}

/**
 * One of our people as a Mastodon Account. `acct` is the username for an account here and `user@host` for
 * someone on another server (whose username here is already their handle); `url` their page (ours, or theirs
 * on their server). Nobody is `locked` (follows here need no approval) nor a `bot`. `discoverable` and
 * `indexable` are false for an artist who shows their works to signed-in people only; `noindex` follows the
 * AI-training opt-out. `fields` are the profile's link. `emojis` are [] (no custom emoji here).
 */
export function toAccount(user: AccountSource, origin: string, extras: AccountExtras = {}): MastoAccount {
  const remote = user.remote;
  const acct = remote ? remote.handle : user.username;
  const username = acct.split('@')[0]!;
  const avatar = absolute(user.userPhoto, origin);
  const header = absolute(DEFAULT_HEADER, origin);
  const hidden = user.worksSignedInOnly === true;
  const displayName = `${user.firstName} ${user.lastName ?? ''}`.trim();
  return {
    id: user._id,
    username,
    acct,
    url: remote ? remote.url : `${origin}/${encodeURIComponent(user.username)}`,
    uri: remote ? remote.url : `${origin}/ap/users/${encodeURIComponent(user.username)}`,
    display_name: displayName || username,
    note: textHtml(user.bio ?? '', origin),
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    locked: false,
    fields: fieldsOf(user.link),
    emojis: [],
    bot: false,
    group: false,
    discoverable: !hidden,
    indexable: !hidden,
    noindex: hidden || extras.aiOptOut === true,
    hide_collections: false,
    ...(user.movedTo ? { moved: toAccount(user.movedTo, origin) } : {}),
    roles: [],
    created_at: isoDate(user.createdAt ? `${user.createdAt.slice(0, 10)}T00:00:00Z` : undefined),
    last_status_at: extras.lastStatusAt ?? null,
    statuses_count: user.postCount ?? 0,
    followers_count: user.followerCount ?? 0,
    following_count: user.followingCount ?? 0,
  };
}

/**
 * The signed-in person's own account: `source` holds what they edit (the bio as plain text, the link as the one
 * field); every work is public here, so `privacy` is public; `sensitive` is false (a warning is set per work).
 */
export function toCredentialAccount(user: User, origin: string, extras: AccountExtras = {}): MastoCredentialAccount {
  const account = toAccount(user, origin, { aiOptOut: user.settings?.aiTrainingOptOut, ...extras });
  return {
    ...account,
    source: {
      note: user.bio,
      fields: user.link ? [{ name: 'Website', value: user.link, verified_at: null }] : [],
      privacy: 'public',
      sensitive: false,
      language: null,
      follow_requests_count: 0,
      hide_collections: false,
      discoverable: account.discoverable,
      indexable: account.indexable,
      attribution_domains: [],
      quote_policy: 'nobody',
    },
    role: {
      id: user.role === 'admin' ? '3' : user.role === 'moderator' ? '1' : '-99',
      name: user.role === 'admin' ? 'Admin' : user.role === 'moderator' ? 'Moderator' : '',
      permissions: '0',
      color: '',
      highlighted: user.role === 'admin' || user.role === 'moderator',
    },
  };
}
