import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { TEST_CREDENTIALS } from '@share-arts/contract';
import type { Db } from './client.js';
import { appMeta, follows, posts, users } from './schema.js';
import { SAMPLE_FOLLOWS, SAMPLE_POSTS, SAMPLE_USERS } from './seed/sample-data.js';
import { ASSETS_DIR } from '../lib/assets.js';
import { hashPassword } from '../lib/password.js';
import { extractHashtags } from '../lib/hashtags.js';
import { createMediaService } from '../modules/media/media.service.js';
import { avatarUrl } from '../modules/media/media.presenter.js';

const SEED_KEY = 'sample_data_loaded_at';

const sampleFile = (name: string) => readFile(path.join(ASSETS_DIR, 'seed', name));

/**
 * Loads the sample users, posts and follows once, on the first start of a database, in one
 * transaction; their pictures go through the same pipeline as uploads. Every sample account uses the
 * test account's password.
 */
export async function seedSampleData(db: Db, options: { mediaDir: string; passwordHashCost: number }) {
  const done = await db.select().from(appMeta).where(eq(appMeta.key, SEED_KEY));
  if (done.length > 0) return false;
  const passwordHash = await hashPassword(TEST_CREDENTIALS.password, options.passwordHashCost);

  await db.transaction(async (tx) => {
    const media = createMediaService({ db: tx, mediaDir: options.mediaDir });
    const ids = new Map<string, string>();
    for (const { photo, ...user } of SAMPLE_USERS) {
      const [created] = await tx
        .insert(users)
        .values({ ...user, passwordHash })
        .returning({ id: users.id });
      const picture = await media.upload({ ownerId: created!.id, purpose: 'avatar', data: await sampleFile(photo) });
      await tx
        .update(users)
        .set({ photoMediaId: picture.id, photoUrl: avatarUrl(picture) })
        .where(eq(users.id, created!.id));
      ids.set(user.username, created!.id);
    }

    for (const post of SAMPLE_POSTS) {
      const authorId = ids.get(post.author)!;
      const picture = await media.upload({ ownerId: authorId, data: await sampleFile(post.picture), alt: post.alt });
      const createdAt = new Date(Date.now() - post.minutesAgo * 60_000);
      await tx.insert(posts).values({
        authorId,
        content: post.content,
        tags: extractHashtags(post.content),
        mediaId: picture.id,
        createdAt,
        updatedAt: createdAt,
      });
    }
    await tx
      .insert(follows)
      .values(SAMPLE_FOLLOWS.map(([a, b]) => ({ followerId: ids.get(a)!, followeeId: ids.get(b)! })));

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
