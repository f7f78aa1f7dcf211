import { randomUUID } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { TEST_CREDENTIALS } from '@share-arts/contract';
import type { Db } from './client.js';
import { appMeta, follows, posts, users } from './schema.js';
import { SAMPLE_FOLLOWS, SAMPLE_POSTS, SAMPLE_USERS } from './seed/sample-data.js';
import { ASSETS_DIR } from '../lib/assets.js';
import { hashPassword } from '../lib/password.js';

const SEED_KEY = 'sample_data_loaded_at';

/** Copies a shipped picture into the media folder under a fresh name and returns its URL. */
async function storeSamplePicture(mediaDir: string, file: string): Promise<string> {
  const name = `${randomUUID()}${path.extname(file)}`;
  await copyFile(path.join(ASSETS_DIR, 'seed', file), path.join(mediaDir, name));
  return `/media/${name}`;
}

/**
 * Loads the sample users, posts and follows once, on the first start of a database. All of them use
 * the test account's password, so every sample account can be tried.
 */
export async function seedSampleData(db: Db, options: { mediaDir: string; passwordHashCost: number }) {
  const done = await db.select().from(appMeta).where(eq(appMeta.key, SEED_KEY));
  if (done.length > 0) return false;

  const passwordHash = await hashPassword(TEST_CREDENTIALS.password, options.passwordHashCost);
  const photos = await Promise.all(SAMPLE_USERS.map((u) => storeSamplePicture(options.mediaDir, u.photo)));
  const pictures = await Promise.all(SAMPLE_POSTS.map((p) => storeSamplePicture(options.mediaDir, p.picture)));

  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(users)
      .values(SAMPLE_USERS.map(({ photo: _photo, ...user }, i) => ({ ...user, passwordHash, photoUrl: photos[i]! })))
      .returning({ id: users.id, username: users.username });
    const idOf = (username: string) => inserted.find((u) => u.username === username)!.id;

    for (const [i, post] of SAMPLE_POSTS.entries()) {
      const createdAt = new Date(Date.now() - post.minutesAgo * 60_000);
      await tx.insert(posts).values({
        authorId: idOf(post.author),
        content: post.content,
        picUrl: pictures[i]!,
        createdAt,
        updatedAt: createdAt,
      });
    }
    await tx.insert(follows).values(SAMPLE_FOLLOWS.map(([a, b]) => ({ followerId: idOf(a), followeeId: idOf(b) })));

    // Counters are derived from the rows just written, in the same transaction.
    await tx.execute(sql`
      update users u set
        post_count = (select count(*) from posts p where p.author_id = u.id),
        follower_count = (select count(*) from follows f where f.followee_id = u.id),
        following_count = (select count(*) from follows f where f.follower_id = u.id)
    `);
    await tx.insert(appMeta).values({ key: SEED_KEY, value: new Date().toISOString() });
  });
  return true;
}
