import type { User } from '@share-arts/contract';

export type Role = 'user' | 'moderator' | 'admin';

/** The signed-in user's `role` (own profile only; 'user' while a server does not send it). */
export function roleOf(user: User | null | undefined): Role {
  const role = (user as { role?: unknown } | null | undefined)?.role;
  return role === 'moderator' || role === 'admin' ? role : 'user';
}

/** Moderators and admins see the moderation queue. */
export const canModerate = (user: User | null | undefined) => roleOf(user) !== 'user';
