import { eq, sql } from 'drizzle-orm';
import { ERRORS, type EditableUserFields, type User } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import { selectUserWithLists } from './users.queries.js';
import { toUser } from './users.presenter.js';

/** An http(s) URL or empty; any other scheme (javascript:, data:, …) could run code where it is shown. */
export function normalizeLink(link: string): string {
  const trimmed = link.trim();
  if (!trimmed) return '';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw badRequest('link must be a full web address starting with http:// or https://.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest('link must start with http:// or https://.');
  }
  return url.href;
}

const OWN_MEDIA_PATH = /^\/media\/[A-Za-z0-9._/-]+$/;

export function createUsersService({ db }: { db: Db }) {
  async function getUser(userId: string, viewerId: string | null): Promise<User> {
    const row = await selectUserWithLists(db, userId);
    if (!row) throw notFound(ERRORS.usernameNotRegistered);
    return toUser(row, viewerId);
  }

  return {
    getUser,

    async editProfile(userId: string, data: EditableUserFields): Promise<User> {
      const changes: Partial<typeof users.$inferInsert> = {};
      if (data.firstName !== undefined) {
        const firstName = data.firstName.trim();
        if (!firstName) throw badRequest('firstName must not be empty.');
        changes.firstName = firstName;
      }
      if (data.lastName !== undefined) changes.lastName = data.lastName.trim();
      if (data.email !== undefined) changes.email = data.email.trim();
      if (data.bio !== undefined) changes.bio = data.bio.trim();
      if (data.link !== undefined) changes.link = normalizeLink(data.link);
      if (data.userPhoto !== undefined) {
        if (!OWN_MEDIA_PATH.test(data.userPhoto) || data.userPhoto.includes('..')) {
          throw badRequest('userPhoto must be the URL of a picture uploaded to Share Arts (/media/…).');
        }
        changes.photoUrl = data.userPhoto;
      }
      if (Object.keys(changes).length > 0) {
        const updated = await db
          .update(users)
          .set({ ...changes, updatedAt: sql`now()` })
          .where(eq(users.id, userId))
          .returning({ id: users.id });
        if (updated.length === 0) throw notFound(ERRORS.usernameNotRegistered);
      }
      return getUser(userId, userId);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
