import { formatDate, type User, type UserCard, type UserSummary } from '@share-arts/contract';
import { DEFAULT_AVATAR_URL } from '../../lib/assets.js';
import type { SummaryRow, UserCardRow, UserRow } from './users.queries.js';

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

/** The user as it leaves the server; `email` only for its owner. Never the password hash. */
export function toUser(row: UserRow, viewerId: string | null): User {
  return {
    _id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    ...(viewerId === row.id ? { email: row.email } : {}),
    bio: row.bio,
    link: row.link,
    userPhoto: photoUrl(row.photo_url),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    followers: row.followers.map(toUserSummary),
    following: row.following.map(toUserSummary),
    bookmarks: row.bookmarks.map((_id) => ({ _id })),
    followerCount: Number(row.follower_count),
    followingCount: Number(row.following_count),
    bookmarkCount: Number(row.bookmark_count),
    postCount: Number(row.post_count),
    viewer: { follows: row.viewer_follows, followsYou: row.follows_viewer },
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
    followerCount: Number(row.follower_count),
    followingCount: Number(row.following_count),
    postCount: Number(row.post_count),
    viewer: { follows: row.viewer_follows, followsYou: row.follows_viewer },
  };
}
