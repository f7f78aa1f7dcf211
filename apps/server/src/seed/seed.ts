import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { TEST_CREDENTIALS } from '@share-arts/contract';
import type { Db } from '../db/client.js';
import {
  appMeta,
  commentVotes,
  comments,
  follows,
  media,
  postMedia,
  postReactions,
  posts,
  users,
} from '../db/schema.js';
import { drawArt } from './art.js';
import { planCommunity, type PlannedPost } from './community.js';
import { SAMPLE_MODERATOR, SAMPLE_USERS } from './sample-data.js';
import { copySamplePicture, prepareSampleMedia, SAMPLE_MEDIA_DIR, type SampleSource } from './sample-media.js';
import { ASSETS_DIR } from '../lib/assets.js';
import { hashPassword } from '../lib/password.js';
import { extractHashtags } from '../lib/hashtags.js';
import { avatarUrl, createMediaStorage, type MediaStoreConfig } from '../modules/media/index.js';

const SEED_KEY = 'sample_data_loaded_at';
// Any constant: servers starting at once on one PostgreSQL take turns to look and to load.
const SEED_LOCK_KEY = 7_347_119;
const DAYS = 24 * 60;

const sampleFile = (name: string) => () => readFile(path.join(ASSETS_DIR, 'seed', name));
const pictureKey = (post: PlannedPost, index: number) =>
  'file' in post.picture ? `post-${path.parse(post.picture.file).name}` : `post-${index}-${post.picture.kind}`;

/** A post's pictures in order, each with its key among the prepared pictures and its alt text. */
const picturesOf = (post: PlannedPost, index: number) => [
  { key: pictureKey(post, index), alt: post.alt, picture: post.picture },
  ...post.more.map(({ picture, alt }, k) => ({ key: `${pictureKey(post, index)}-${k + 2}`, alt, picture })),
];

/** Every sample picture, committed (the avatars, the spec's four posts) or drawn from a seed. */
export function sampleSources(): SampleSource[] {
  return [
    ...SAMPLE_USERS.map((user) => ({
      key: `avatar-${user.username}`,
      purpose: 'avatar' as const,
      read: sampleFile(user.photo),
    })),
    ...planCommunity().posts.flatMap((post, index) =>
      picturesOf(post, index).map(({ key, picture }) => ({
        key,
        purpose: 'post' as const,
        read: 'file' in picture ? sampleFile(picture.file) : () => drawArt(picture.kind, picture.seed),
      })),
    ),
  ];
}

async function isEmpty(db: Db): Promise<boolean> {
  const [loaded] = await db.select().from(appMeta).where(eq(appMeta.key, SEED_KEY));
  const [people] = await db.select({ n: count() }).from(users);
  return !loaded && people!.n === 0;
}

/**
 * Loads the sample community (see seed/community.ts) into an empty database, once, in one transaction:
 * a database that already has the sample data or any account is left alone. The pictures went through
 * the upload pipeline ahead of time (seed/sample-media.ts); here they are copied in. Every sample
 * account uses the test account's password.
 */
export async function seedSampleData(
  db: Db,
  options: {
    mediaDir: string;
    passwordHashCost: number;
    sampleMediaDir?: string;
    /** MEDIA_STORE: with s3, the pictures are written to the bucket instead of the media folder. */
    mediaStore?: MediaStoreConfig | undefined;
  },
): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  const dir = options.sampleMediaDir ?? SAMPLE_MEDIA_DIR;
  const pictures = await prepareSampleMedia(sampleSources(), dir);
  // The server makes its media folder when it starts; `bench:seed` seeds before any start.
  await mkdir(options.mediaDir, { recursive: true });
  const target =
    options.mediaStore?.kind === 's3'
      ? createMediaStorage({ store: options.mediaStore, mediaDir: options.mediaDir }, console)
      : options.mediaDir;
  const community = planCommunity();
  const passwordHash = await hashPassword(TEST_CREDENTIALS.password, options.passwordHashCost);
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000);

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (!(await isEmpty(tx))) return false;

    const created = await tx
      .insert(users)
      .values(
        // The sample accounts' addresses count as confirmed (issue 24): nobody could click a link to example.com.
        SAMPLE_USERS.map(({ photo: _photo, ...user }, i) => ({
          ...user,
          passwordHash,
          createdAt: ago(60 * DAYS - i),
          emailVerifiedAt: ago(60 * DAYS - i),
        })),
      )
      .returning({ id: users.id, username: users.username });
    const ids = new Map(created.map((row) => [row.username, row.id]));
    const id = (username: string) => ids.get(username)!;

    const avatars = await Promise.all(
      SAMPLE_USERS.map((user) =>
        copySamplePicture(pictures.get(`avatar-${user.username}`)!, id(user.username), '', target, dir),
      ),
    );
    await tx.insert(media).values(avatars);
    for (const avatar of avatars) {
      await tx
        .update(users)
        .set({ photoMediaId: avatar.id, photoUrl: avatarUrl(avatar as Parameters<typeof avatarUrl>[0]) })
        .where(eq(users.id, avatar.ownerId));
    }

    const postPictures = await Promise.all(
      community.posts.map((post, index) =>
        Promise.all(
          picturesOf(post, index).map(({ key, alt }) =>
            copySamplePicture(pictures.get(key)!, id(post.author), alt, target, dir),
          ),
        ),
      ),
    );
    await tx
      .insert(media)
      .values(
        postPictures.flatMap((series, i) =>
          series.map((picture) => ({ ...picture, createdAt: ago(community.posts[i]!.minutesAgo) })),
        ),
      );
    const postIds = (
      await tx
        .insert(posts)
        .values(
          community.posts.map((post) => ({
            authorId: id(post.author),
            content: post.content,
            tags: extractHashtags(post.content),
            createdAt: ago(post.minutesAgo),
            updatedAt: ago(post.minutesAgo),
          })),
        )
        .returning({ id: posts.id })
    ).map((row) => row.id);
    await tx
      .insert(postMedia)
      .values(
        postPictures.flatMap((series, i) =>
          series.map((picture, position) => ({ postId: postIds[i]!, mediaId: picture.id, position })),
        ),
      );

    await tx.insert(postReactions).values(
      community.likes.map(([post, user]) => ({
        postId: postIds[post]!,
        userId: id(user),
        kind: 'like' as const,
        createdAt: ago(community.posts[post]!.minutesAgo / 2),
      })),
    );
    const commentIds = (
      await tx
        .insert(comments)
        .values(
          community.comments.map((comment) => ({
            postId: postIds[comment.post]!,
            authorId: id(comment.author),
            content: comment.content,
            createdAt: ago(comment.minutesAgo),
            updatedAt: ago(comment.minutesAgo),
          })),
        )
        .returning({ id: comments.id })
    ).map((row) => row.id);
    const votes = community.comments.flatMap((comment, i) =>
      comment.votes.map((vote) => ({ commentId: commentIds[i]!, userId: id(vote.voter), kind: vote.kind })),
    );
    if (votes.length > 0) await tx.insert(commentVotes).values(votes);
    await tx.insert(follows).values(community.follows.map(([a, b]) => ({ followerId: id(a), followeeId: id(b) })));

    // Counters are derived from the rows just written, in the same transaction.
    await tx.execute(sql`
      update users u set
        post_count = (select count(*) from posts p where p.author_id = u.id),
        follower_count = (select count(*) from follows f where f.followee_id = u.id),
        following_count = (select count(*) from follows f where f.follower_id = u.id)
    `);
    await tx.execute(sql`
      update posts p set
        like_count = (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'like'),
        dislike_count = (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'dislike'),
        comment_count = (select count(*) from comments c where c.post_id = p.id and c.moderation_state is null)
    `);
    await tx.execute(sql`
      update comments c set
        upvote_count = (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'up'),
        downvote_count = (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'down')
    `);
    const { password, ...moderator } = SAMPLE_MODERATOR;
    await tx.insert(users).values({
      ...moderator,
      role: 'moderator',
      passwordHash: await hashPassword(password, options.passwordHashCost),
      createdAt: ago(60 * DAYS + 1),
      emailVerifiedAt: ago(60 * DAYS + 1),
    });
    await tx.insert(appMeta).values({ key: SEED_KEY, value: new Date(now).toISOString() });
    return true;
  });
}
