import {
  formatDate,
  isLocale,
  type PersonSummary,
  type User,
  type UserCard,
  type UserSummary,
} from '@share-arts/contract';
import { DEFAULT_AVATAR_URL } from '../../lib/assets.js';
import type { PersonRow, RemoteOfRow, SummaryRow, UserCardRow, UserRow } from './users.sql.js';

const toDate = (value: Date | string) => formatDate(value instanceof Date ? value : new Date(value));

export const photoUrl = (url: string | null) => url ?? DEFAULT_AVATAR_URL;

export function toUserSummary(row: SummaryRow): UserSummary {
  return {
    _id: row._id,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    userPhoto: photoUrl(row.photoUrl),
  };
}

/** `href` when it is an absolute http(s) URL (safe in an href), else null: a remote server's `url` is not trusted. */
function webUrl(href: string | null | undefined): string | null {
  const url = href ? URL.parse(href) : null;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
}

/** A shadow account's remote person (following out): their handle and their profile there (else their actor id). */
const remoteOf = (remote: RemoteOfRow | null) =>
  remote ? { remote: { handle: remote.handle, url: webUrl(remote.url) ?? webUrl(remote.iri) ?? '' } } : {};

/**
 * A person in a notification or a followers list: an account here as its summary, or someone on another server
 * (issue 39) by their handle, display name (the handle's user part when they gave none) and profile page (their
 * actor id when the page they named is not an http(s) URL). Their own picture is not shown: the pages'
 * Content-Security-Policy loads pictures from this site only, so they get the default photo.
 */
export function toPersonSummary(row: PersonRow): PersonSummary {
  if (!row.remote) return toUserSummary(row);
  const { handle } = row.remote;
  return {
    _id: row._id,
    username: handle,
    firstName: row.firstName.trim() || handle.split('@')[0] || handle,
    lastName: '',
    userPhoto: DEFAULT_AVATAR_URL,
    remote: { handle, url: webUrl(row.remote.url) ?? webUrl(row.remote.iri) ?? '' },
  };
}

/**
 * The user as it leaves the server. What is the viewer's alone (`email`, the Saved list and its count)
 * only for its owner; never the password hash.
 */
export function toUser(row: UserRow, viewerId: string | null): User {
  const own = viewerId === row.id;
  return {
    _id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    ...(own ? { email: row.email, emailVerified: row.email_verified } : {}),
    bio: row.bio,
    link: row.link,
    userPhoto: photoUrl(row.photo_url),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    followers: row.followers.map(toUserSummary),
    following: row.following.map(toUserSummary),
    ...(own ? { bookmarks: row.bookmarks.map((_id) => ({ _id })) } : {}),
    followerCount: Number(row.follower_count),
    followingCount: Number(row.following_count),
    ...(own ? { bookmarkCount: Number(row.bookmark_count) } : {}),
    postCount: Number(row.post_count),
    worksSignedInOnly: row.works_signed_in_only,
    ...(own
      ? {
          settings: {
            aiTrainingOptOut: row.ai_training_opt_out,
            sensitiveMedia: row.sensitive_media,
            hideAiGenerated: row.hide_ai_generated,
            allowCollecting: row.allow_collecting,
            language: isLocale(row.language) ? row.language : null,
          },
          role: row.role,
        }
      : {}),
    viewer: {
      follows: row.viewer_follows,
      followsYou: row.follows_viewer,
      blocked: row.viewer_blocked,
      muted: row.viewer_muted,
      // A follow of someone on another server that their server has not accepted yet (only such follows wait).
      ...(row.viewer_requested ? { requested: true } : {}),
    },
    ...remoteOf(row.remote),
    ...(row.moved_to ? { movedTo: toPersonSummary(row.moved_to) } : {}),
    ...(row.open_for_commissions ? { openForCommissions: true } : {}),
  };
}

export function toUserCard(row: UserCardRow): UserCard {
  return {
    _id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    userPhoto: photoUrl(row.photo_url),
    bio: row.bio,
    followers: row.followers.map(toUserSummary),
    following: row.following.map(toUserSummary),
    followerCount: Number(row.follower_count),
    followingCount: Number(row.following_count),
    postCount: Number(row.post_count),
    viewer: { follows: row.viewer_follows, followsYou: row.follows_viewer },
    ...remoteOf(row.remote),
    ...(row.open_for_commissions ? { openForCommissions: true } : {}),
  };
}

/**
 * A page of users as the viewer sees it. The viewer's own entry also lists, in `following`, everyone on
 * the page they follow (first), so a client that asks its own entry "do I follow X" is right for every X
 * on screen, not only the newest few.
 */
export function toUserCards(rows: UserCardRow[], viewerId: string | null): UserCard[] {
  const cards = rows.map(toUserCard);
  const own = viewerId === null ? undefined : cards.find((card) => card._id === viewerId);
  if (!own) return cards;
  const shown = rows.filter((row) => row.viewer_follows).map((row) => toUserSummary(summaryOf(row)));
  const ids = new Set(shown.map((user) => user._id));
  own.following = [...shown, ...own.following.filter((user) => !ids.has(user._id))];
  return cards;
}

const summaryOf = (row: UserCardRow): SummaryRow => ({
  _id: row.id,
  username: row.username,
  firstName: row.first_name,
  lastName: row.last_name,
  photoUrl: row.photo_url,
});
