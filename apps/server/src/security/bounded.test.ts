import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { MODERATION_QUEUE_PAGE, PAGE_LIMITS, PINS_MAX, SESSIONS_LIST_MAX, SORTS } from '@share-arts/contract';
import { queryRows } from '../db/client.js';
import { createTestApp, signUp, walkPages, type SignedUp, type TestContext } from '../test/helpers.js';
import { afterAllTests, expectCleanRefusal, uploadPicture } from './fixtures.js';
import { writeReliabilitySection } from '../../../../scripts/reliability-report.mjs';

/**
 * Bounded responses (issue 8): with 5,000 posts, 2,000 comments on one post, hundreds of followers,
 * likes, bookmarks and notifications, every list route answers at most PAGE_LIMITS.max items whatever
 * `limit` says (or a clean 400), and no 2xx body grows past a documented byte cap. The data is measured
 * twice: as typical content, then with every text at its longest and costliest to encode (each character
 * a control character JSON writes as six bytes, `\u0001`), which is the worst a client can store.
 */

const POSTS = 5000;
const HUB_COMMENTS = 2000;
const BULK_USERS = 300;
/** The newest and the oldest posts that carry full like and dislike lists (more than the embedded cap). */
const REACTED = 300;
const KB = 1024;

/**
 * The byte caps, per kind of list item, for a page of PAGE_LIMITS.max items. Chosen from the worst-case
 * measurement below (rounded up, with room for a few more fields) and documented in docs/reliability.md.
 */
const CAPS = {
  // 50 posts, worst case 987 KB (about 20 KB each: 12 KB of text, 3 KB of alt text, 3 KB of likers).
  post: 1280 * KB,
  // 50 comments, worst case 492 KB (6 KB of text and 3 KB of voters each).
  comment: 640 * KB,
  // 50 user cards, worst case 433 KB: each card carries its newest 5 followers and 5 followed (issue 27),
  // and the viewer's own card every one of the page it follows (up to 50).
  user: 512 * KB,
  // 50 notification groups, worst case 167 KB (texts cut to 140 characters).
  notification: 256 * KB,
  // type=all: a page of posts and the best 5 people, worst case 1,000 KB.
  search: 1280 * KB,
  // 50 tags with their counts (tag suggestions, the tags one follows), worst case 4 KB.
  tag: 64 * KB,
  // A page of the moderation queue (issue 23): 10 targets, each with its 10 oldest open reports (notes up to
  // 1,000 characters), its 10 newest earlier actions and its author's 10 (reasons up to 500), worst case
  // 490 KB; or 50 audit entries.
  moderation: 640 * KB,
  // Where one is signed in (issue 24): the 50 most recently used sessions, each a device, a network and two
  // dates (the user agent is stored bounded, and described in a few words): about 11 KB.
  session: 64 * KB,
  // One post (3 newest comments, 20 likers) or one user (20 followers, 20 followed, 20 bookmarks): 49 KB.
  single: 64 * KB,
  // An Atom feed of 30 works (text and pictures as HTML, escaped into the XML): 19 KB measured, typical and
  // "worst" alike, as the posts' cache keeps the typical text (see the post rows). Until that is measured, the
  // cap is the posts' own, from the limits: 30 works at 2,000 characters, each escaped twice (& → &amp;amp;).
  feed: 1280 * KB,
  // 50 series (issue 41), worst case 668 KB: each a description of up to 2,000 characters (12 KB escaped), a title,
  // its owner and its cover picture (its sources and alt text).
  series: 1024 * KB,
  // 50 collections (issue 41): each as a series is (a description of up to 2,000 characters, a title, its owner and
  // its cover picture), so the series' cap.
  collection: 1024 * KB,
  // 50 inquiries (issue 42): each its request's start (280 characters in a list), a decline's reason of up to 1,000
  // characters, its two people and up to 5 reference pictures' addresses: about 10 KB each at worst.
  inquiry: 640 * KB,
  // 50 messages of an inquiry (issue 42): up to 2,000 characters each (12 KB escaped) and their writer.
  'inquiry-message': 768 * KB,
  // 50 drafts (issue 41): each its words' first 280 characters (1.7 KB escaped), its cover picture (alt text of 500
  // characters, 3 KB escaped, and its sources) and a publishing error: about 9 KB each at worst.
  draft: 640 * KB,
  // A page of 50 revisions of a work's history (issue 41), as its author reads it: each the words before and after
  // (2,000 characters each, 12 KB escaped), every right before and after, and the 20 pictures and 10 process
  // pictures the work showed before (each its alt text then, up to 500 characters: 3 KB escaped, and two addresses).
  // Worst case measured 6,164 KB for the author's page of 50 (the kept pictures' alt texts are most of it: 50 × 30 ×
  // 3 KB), 1.2 MB for a reader's; typical 630 KB and 30 KB.
  revision: 7 * 1024 * KB,
  // One whole draft (issue 41, GET /api/drafts/{id}): its words (2,000 characters), 20 pictures and 10 process
  // pictures, each with its sources and alt text (up to 500 characters): 32 KB typical, 132 KB worst case measured.
  'draft-detail': 256 * KB,
} as const;
type CapKind = keyof typeof CAPS;

const LIMITS = [undefined, '-1', '0', '1', '20', '50', '51', '1000', '1e9', 'abc'] as const;

let ctx: TestContext;
let viewer: SignedUp;
let hubPostId: string;
/** The viewer's series holding every one of their works (issue 41). */
let bulkSeriesId: string;
/** The viewer's collection holding every one of their works (issue 41). */
let bulkCollectionId: string;
/** An inquiry to the viewer with a long thread (issue 42). */
let bulkInquiryId: string;
/** The viewer's fullest draft (issue 41): 20 pictures and 10 process pictures. */
let bulkDraftId: string;

interface Variant {
  label: string;
  url: string;
  key: string;
  kind: CapKind;
  auth?: boolean;
  /** A list bounded by its own rule (an artist's pins: at most PINS_MAX), not paged: it takes no `limit`. */
  bounded?: number;
}

/** Every GET list route, with the variants each is asked in. */
function listRoutes(): Record<string, Variant[]> {
  const post = (label: string, url: string, auth = false, key = 'posts'): Variant => ({
    label,
    url,
    key,
    kind: 'post',
    auth,
  });
  return {
    'GET /api/posts': SORTS.map((sort) => post(`/api/posts?sort=${sort}`, `/api/posts?sort=${sort}`)),
    'GET /api/feed': SORTS.map((sort) => post(`/api/feed?sort=${sort}`, `/api/feed?sort=${sort}`, true)),
    'GET /api/posts/liked': [post('/api/posts/liked', '/api/posts/liked', true)],
    'GET /api/users/bookmark': [post('/api/users/bookmark', '/api/users/bookmark', true, 'bookmarks')],
    'GET /api/posts/user/:username': SORTS.map((sort) =>
      post(`/api/posts/user/{viewer}?sort=${sort}`, `/api/posts/user/${viewer.user.username}?sort=${sort}`),
    ),
    'GET /api/comments/:postId': ['oldest', 'newest'].map((order) => ({
      label: `/api/comments/{hub}?order=${order}`,
      url: `/api/comments/${hubPostId}?order=${order}`,
      key: 'comments',
      kind: 'comment' as const,
    })),
    'GET /api/users': [{ label: '/api/users', url: '/api/users', key: 'users', kind: 'user' }],
    // The viewer's followers: the bulk users all follow them.
    'GET /api/users/:userId/followers': [
      {
        label: '/api/users/{viewer}/followers',
        url: `/api/users/${viewer.user._id}/followers`,
        key: 'followers',
        kind: 'user',
      },
    ],
    'GET /api/users/suggestions': [
      { label: '/api/users/suggestions', url: '/api/users/suggestions', key: 'users', kind: 'user', auth: true },
    ],
    'GET /api/search': [
      { label: '/api/search?q=painting', url: '/api/search?q=painting', key: 'posts', kind: 'search' },
      { label: '/api/search?type=posts', url: '/api/search?q=painting&type=posts', key: 'posts', kind: 'post' },
      { label: '/api/search?type=users', url: '/api/search?q=bulk&type=users', key: 'users', kind: 'user' },
    ],
    'GET /api/tags/:tag/posts': SORTS.map((sort) =>
      post(`/api/tags/bulk/posts?sort=${sort}`, `/api/tags/bulk/posts?sort=${sort}`),
    ),
    'GET /api/tags': [{ label: '/api/tags?prefix=b', url: '/api/tags?prefix=b', key: 'tags', kind: 'tag' }],
    'GET /api/users/:username/pins': [
      { ...post('/api/users/{viewer}/pins', `/api/users/${viewer.user.username}/pins`), bounded: PINS_MAX },
    ],
    'GET /api/users/me/tags': [
      { label: '/api/users/me/tags', url: '/api/users/me/tags', key: 'tags', kind: 'tag', auth: true },
    ],
    'GET /api/users/mentionable': [
      {
        label: '/api/users/mentionable',
        url: '/api/users/mentionable?prefix=bulk',
        key: 'users',
        kind: 'user',
        auth: true,
      },
    ],
    'GET /api/users/me/blocks': [
      { label: '/api/users/me/blocks', url: '/api/users/me/blocks', key: 'users', kind: 'user', auth: true },
    ],
    'GET /api/users/me/mutes': [
      { label: '/api/users/me/mutes', url: '/api/users/me/mutes', key: 'users', kind: 'user', auth: true },
    ],
    // The viewer is an admin here: the moderation queue and the audit log.
    'GET /api/moderation/reports': [
      {
        label: '/api/moderation/reports',
        url: '/api/moderation/reports',
        key: 'targets',
        kind: 'moderation',
        auth: true,
        bounded: MODERATION_QUEUE_PAGE,
      },
    ],
    'GET /api/moderation/audit': [
      { label: '/api/moderation/audit', url: '/api/moderation/audit', key: 'entries', kind: 'moderation', auth: true },
    ],
    // Its own rule: at most SESSIONS_LIST_MAX (the viewer has more).
    'GET /api/sessions': [
      {
        label: '/api/sessions',
        url: '/api/sessions',
        key: 'sessions',
        kind: 'session',
        auth: true,
        bounded: SESSIONS_LIST_MAX,
      },
    ],
    // Series (issue 41): the viewer's 60, and the one holding all their 1,000 works.
    'GET /api/users/:username/series': [
      {
        label: '/api/users/{viewer}/series',
        url: `/api/users/${viewer.user.username}/series`,
        key: 'series',
        kind: 'series',
      },
    ],
    // A work's edit history (issue 41): the hub post's 60 revisions, each changing everything (the words, every right,
    // 20 pictures and 10 process pictures kept), as a reader sees it and as its author does (the kept pictures too).
    'GET /api/posts/:id/history': [
      {
        label: '/api/posts/{hub}/history (a reader)',
        url: `/api/posts/${hubPostId}/history`,
        key: 'revisions',
        kind: 'revision',
      },
      {
        label: '/api/posts/{hub}/history (its author)',
        url: `/api/posts/${hubPostId}/history`,
        key: 'revisions',
        kind: 'revision',
        auth: true,
      },
    ],
    'GET /api/series/:id/works': [
      { label: '/api/series/{bulk}/works', url: `/api/series/${bulkSeriesId}/works`, key: 'works', kind: 'post' },
    ],
    // Collections (issue 41): the viewer's 60 (their first page opens with Saved), and the one holding all their
    // 1,000 works, each with a note.
    'GET /api/users/:username/collections': [
      {
        label: '/api/users/{viewer}/collections',
        url: `/api/users/${viewer.user.username}/collections`,
        key: 'collections',
        kind: 'collection',
        auth: true,
      },
    ],
    'GET /api/collections/:id/works': [
      {
        label: '/api/collections/{bulk}/works',
        url: `/api/collections/${bulkCollectionId}/works`,
        key: 'works',
        kind: 'post',
      },
    ],
    // Inquiries (issue 42): 60 to the viewer, each with 5 reference pictures; one with 120 messages.
    'GET /api/inquiries': [
      { label: '/api/inquiries', url: '/api/inquiries?as=artist', key: 'inquiries', kind: 'inquiry', auth: true },
    ],
    'GET /api/inquiries/:id/messages': [
      {
        label: '/api/inquiries/{bulk}/messages',
        url: `/api/inquiries/${bulkInquiryId}/messages`,
        key: 'messages',
        kind: 'inquiry-message',
        auth: true,
      },
    ],
    // Drafts (issue 41): the viewer's 60, each with a cover picture.
    'GET /api/drafts': [{ label: '/api/drafts', url: '/api/drafts', key: 'drafts', kind: 'draft', auth: true }],
    'GET /api/notifications': [
      {
        label: '/api/notifications',
        url: '/api/notifications',
        key: 'notifications',
        kind: 'notification',
        auth: true,
      },
    ],
  };
}

/** GET routes that answer one object: their bodies are measured against the `single` cap, or their own. */
function singleRoutes(): Record<string, string | { url: string; kind: CapKind }> {
  return {
    'GET /api/health': '/api/health',
    'GET /api/ready': '/api/ready',
    'GET /api/test-todos': '/api/test-todos',
    'GET /api/posts/:id': `/api/posts/${hubPostId}`,
    'GET /api/users/:userId': `/api/users/${viewer.user._id}`,
    'GET /api/users/by-username/:username': `/api/users/by-username/${viewer.user.username}`,
    'GET /api/notifications/unread-count': '/api/notifications/unread-count',
    'GET /api/tags/:tag': '/api/tags/bulk',
    'GET /api/users/:username/series/:slug': `/api/users/${viewer.user.username}/series/bulk-series-1`,
    // Open for commissions (issue 42): at most 6 example works, terms of 2,000 characters.
    'GET /api/users/:username/commissions': `/api/users/${viewer.user.username}/commissions`,
    'GET /api/posts/:postId/series': `/api/posts/${hubPostId}/series`,
    'GET /api/users/:username/collections/:slug': `/api/users/${viewer.user.username}/collections/bulk-collection-1`,
    'GET /api/posts/:postId/collections': `/api/posts/${hubPostId}/collections`,
    // An inquiry (issue 42): its whole request (up to 5,000 characters) and reason, about 38 KB at worst.
    'GET /api/inquiries/:id': `/api/inquiries/${bulkInquiryId}`,
    // A whole draft (issue 41): 20 pictures and 10 process pictures with their alt texts, its words.
    'GET /api/drafts/:id': { url: `/api/drafts/${bulkDraftId}`, kind: 'draft-detail' },
  };
}

/** How many works a feed holds, as its OpenAPI description documents it ("The artist's 30 newest works"). */
function feedEntries(): number {
  const doc = ctx.app.swagger() as { paths: Record<string, { get?: { description?: string } }> };
  const documented = /(\d+) newest works/.exec(doc.paths['/api/users/{username}/feed.atom']?.get?.description ?? '');
  expect(documented, 'the feed documents how many works it holds').not.toBeNull();
  return Number(documented![1]);
}

/** GET routes that answer an Atom feed (not JSON): measured against the `feed` cap. */
function feedRoutes(): Record<string, string> {
  return { 'GET /api/users/:username/feed.atom': `/api/users/${viewer.user.username}/feed.atom` };
}

// ---- the data, set-based ----------------------------------------------------------------------------

const run = (statement: ReturnType<typeof sql>) => ctx.database.db.execute(statement);
const one = async <T>(statement: ReturnType<typeof sql>) => (await queryRows<T>(ctx.database.db, statement))[0]!;

async function seed(): Promise<void> {
  viewer = await signUp(ctx.app);
  const template = await uploadPicture(ctx.app, viewer);
  const { hash } = await one<{ hash: string }>(
    sql`select password_hash as hash from users where id = ${viewer.user._id}::uuid`,
  );
  const bulkId = (n: ReturnType<typeof sql>) => sql`md5('bounded-user-' || (${n}))::uuid`;
  // More sessions than the list shows (issue 24), each with the longest user agent stored.
  await run(sql`
    insert into sessions (user_id, user_agent, address)
    select ${viewer.user._id}::uuid, rpad('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 ' || i, 512, 'x'),
           '203.0.' || (i % 250) || '.' || i % 250
    from generate_series(1, ${SESSIONS_LIST_MAX + 10}) i`);

  // Users with 30-character usernames (the longest allowed), created over the last year.
  await run(sql`
    insert into users (id, username, first_name, last_name, email, password_hash, bio, created_at, updated_at)
    select ${bulkId(sql`i`)}, 'bulk_' || lpad(i::text, 25, '0'), 'Ana', 'Rivera', 'bulk' || i || '@example.com',
           ${hash}, 'Painter number ' || i || '. Oil, ink and patience.',
           now() - i * interval '1 day', now()
    from generate_series(1, ${BULK_USERS}) i`);

  // Everyone follows the viewer; the viewer follows the first half; a ring of follows among them.
  await run(sql`
    insert into follows (follower_id, followee_id, created_at)
    select ${bulkId(sql`i`)}, ${viewer.user._id}::uuid, now() - i * interval '1 minute' from generate_series(1, ${BULK_USERS}) i
    union all
    select ${viewer.user._id}::uuid, ${bulkId(sql`i`)}, now() - i * interval '1 minute' from generate_series(1, ${BULK_USERS / 2}) i
    union all
    select ${bulkId(sql`i`)}, ${bulkId(sql`1 + (i + k) % ${BULK_USERS}`)}, now()
    from generate_series(1, ${BULK_USERS}) i, generate_series(1, 3) k`);

  // 5,000 posts, each with its own picture row; every fifth by the viewer. Pairs share a creation time,
  // so the keyset's id tie-break is exercised.
  await run(sql`
    with picked as (
      select i, gen_random_uuid() as id, gen_random_uuid() as media_id,
             case when i % 5 = 0 then ${viewer.user._id}::uuid else ${bulkId(sql`1 + i % ${BULK_USERS}`)} end as author_id,
             now() - (i / 2) * interval '1 minute' as created_at
      from generate_series(1, ${POSTS}) i
    ), pictures as (
      insert into media (id, owner_id, purpose, original_file, original_mime, original_bytes, width, height,
                         placeholder, alt, variants, created_at)
      select picked.media_id, picked.author_id, 'post', m.original_file, m.original_mime, m.original_bytes,
             m.width, m.height, m.placeholder, 'A study in oil, number ' || picked.i, m.variants, picked.created_at
      from picked, media m where m.id = ${template}::uuid
      returning id
    ), listed as (
      insert into post_media (post_id, media_id, position) select id, media_id, 0 from picked
    )
    insert into posts (id, author_id, content, tags, created_at, updated_at)
    select id, author_id,
           (array['Morning light on the studio wall', 'A quick ink study', 'Colour test for a bigger piece',
                  'Finished at last', 'Work in progress, thoughts welcome'])[1 + i % 5] || ' #painting',
           array['painting'], created_at, created_at
    from picked`);

  // The hub: the viewer's newest post, with 2,000 comments (triples share a time).
  ({ id: hubPostId } = await one<{ id: string }>(
    sql`select id from posts where author_id = ${viewer.user._id}::uuid order by created_at desc, id desc limit 1`,
  ));
  await run(sql`
    insert into comments (post_id, author_id, content, created_at, updated_at)
    select ${hubPostId}::uuid, ${bulkId(sql`1 + j % ${BULK_USERS}`)}, 'Lovely colours, comment ' || j,
           now() - (j / 3) * interval '1 second', now() - (j / 3) * interval '1 second'
    from generate_series(1, ${HUB_COMMENTS}) j`);

  // Full like and dislike lists on the newest and oldest posts (and the hub); the viewer likes and
  // bookmarks them too, so the Liked and Saved tabs are long.
  await run(sql`
    with ranked as (
      select id, row_number() over (order by created_at desc, id desc) as newest,
             row_number() over (order by created_at asc, id asc) as oldest
      from posts
    ), heavy as (select id from ranked where newest <= ${REACTED} or oldest <= ${REACTED})
    insert into post_reactions (post_id, user_id, kind, created_at)
    select heavy.id, ${bulkId(sql`k`)}, case when k <= 25 then 'like' else 'dislike' end, now() - k * interval '1 second'
    from heavy, generate_series(1, 50) k
    union all
    select heavy.id, ${viewer.user._id}::uuid, 'like', now() - random() * interval '30 days' from heavy`);
  await run(sql`
    insert into bookmarks (user_id, post_id, created_at)
    select ${viewer.user._id}::uuid, post_id, created_at from post_reactions
    where user_id = ${viewer.user._id}::uuid`);

  // Votes on the first and last 60 comments of the hub.
  await run(sql`
    with ranked as (
      select id, row_number() over (order by created_at, id) as oldest,
             row_number() over (order by created_at desc, id desc) as newest
      from comments where post_id = ${hubPostId}::uuid
    )
    insert into comment_votes (comment_id, user_id, kind, created_at)
    select ranked.id, ${bulkId(sql`k`)}, case when k <= 25 then 'up' else 'down' end, now() - k * interval '1 second'
    from ranked, generate_series(1, 50) k where oldest <= 60 or newest <= 60`);

  // The viewer's notifications: every follow, like of their posts, and comment on the hub.
  await run(sql`
    insert into notifications (recipient_id, actor_id, kind, post_id, comment_id, created_at)
    select ${viewer.user._id}::uuid, follower_id, 'follow', null::uuid, null::uuid, created_at
    from follows where followee_id = ${viewer.user._id}::uuid
    union all
    select p.author_id, r.user_id, 'like', p.id, null, r.created_at
    from post_reactions r join posts p on p.id = r.post_id
    where r.kind = 'like' and p.author_id = ${viewer.user._id}::uuid and r.user_id <> p.author_id
    union all
    select ${viewer.user._id}::uuid, c.author_id, 'comment', c.post_id, c.id, c.created_at
    from comments c where c.post_id = ${hubPostId}::uuid`);

  // The viewer pins their newest works, as many as one may (those with full like and dislike lists).
  await run(sql`
    insert into post_pins (post_id, user_id, position)
    select id, author_id, (row_number() over (order by created_at desc, id desc)) - 1
    from (select id, author_id, created_at from posts where author_id = ${viewer.user._id}::uuid
          order by created_at desc, id desc limit ${PINS_MAX}) newest`);

  // Series (issue 41): 60 of the viewer's, the first holding every work of theirs in order, each with a chapter.
  await run(sql`
    insert into series (owner_id, slug, title, description, created_at)
    select ${viewer.user._id}::uuid, 'bulk-series-' || i, 'Bulk series ' || i, 'Studies in oil, part ' || i || '.',
           now() - i * interval '1 minute'
    from generate_series(1, 60) i`);
  ({ id: bulkSeriesId } = await one<{ id: string }>(
    sql`select id from series where owner_id = ${viewer.user._id}::uuid and slug = 'bulk-series-1'`,
  ));
  await run(sql`
    insert into series_works (series_id, post_id, position, chapter)
    select ${bulkSeriesId}::uuid, id, (row_number() over (order by created_at, id) * 65536)::int, 'Month ' || (random() * 12)::int
    from posts where author_id = ${viewer.user._id}::uuid`);

  // Collections (issue 41): 60 public ones of the viewer's, the first holding every work of theirs, each noted.
  await run(sql`
    insert into collections (owner_id, slug, title, description, is_public, created_at)
    select ${viewer.user._id}::uuid, 'bulk-collection-' || i, 'Bulk collection ' || i, 'References, part ' || i || '.',
           true, now() - i * interval '1 minute'
    from generate_series(1, 60) i`);
  ({ id: bulkCollectionId } = await one<{ id: string }>(
    sql`select id from collections where owner_id = ${viewer.user._id}::uuid and slug = 'bulk-collection-1'`,
  ));
  await run(sql`
    insert into collection_works (collection_id, post_id, position, note)
    select ${bulkCollectionId}::uuid, id, (row_number() over (order by created_at, id) * 65536)::int, 'For the light ' || id
    from posts where author_id = ${viewer.user._id}::uuid`);

  // Inquiries (issue 42): one from each of 60 bulk users to the viewer, declined with a reason, each with 5
  // reference pictures (a few bytes: only their addresses are listed); the first with 120 messages.
  await run(sql`
    insert into inquiries (artist_id, client_id, body, state, decline_reason, created_at, updated_at)
    select ${viewer.user._id}::uuid, ${bulkId(sql`i`)}, 'A commission, please: request ' || i, 'declined',
           'My queue is full.', now() - i * interval '1 minute', now() - i * interval '1 minute'
    from generate_series(1, 60) i`);
  await run(sql`
    insert into inquiry_references (inquiry_id, width, height, bytes, content_type, data)
    select iq.id, 8, 8, 3, 'image/jpeg', '\\x010203'::bytea
    from inquiries iq, generate_series(1, 5) k where iq.artist_id = ${viewer.user._id}::uuid`);
  ({ id: bulkInquiryId } = await one<{ id: string }>(
    sql`select id from inquiries where artist_id = ${viewer.user._id}::uuid and client_id = ${bulkId(sql`1`)}`,
  ));
  await run(sql`
    insert into inquiry_messages (inquiry_id, author_id, body, created_at)
    select ${bulkInquiryId}::uuid, case when j % 2 = 0 then ${viewer.user._id}::uuid else ${bulkId(sql`1`)} end,
           'An answer, number ' || j, now() - (120 - j / 2) * interval '1 second'
    from generate_series(1, 120) j`);

  // Drafts (issue 41): 60 of the viewer's, each with a picture of its own (a picture is in one draft at most).
  await run(sql`
    with made as (
      insert into drafts (author_id, content, rights, publish_error, updated_at)
      select ${viewer.user._id}::uuid, 'A draft of a study, number ' || i, '{}'::jsonb,
             case when i % 2 = 0 then 'This picture is already used by another post.' end, now() - i * interval '1 minute'
      from generate_series(1, 60) i
      returning id
    ), pictures as (
      insert into media (owner_id, purpose, original_file, original_mime, original_bytes, width, height,
                         placeholder, alt, variants)
      select ${viewer.user._id}::uuid, 'post', m.original_file, m.original_mime, m.original_bytes, m.width, m.height,
             m.placeholder, 'A draft picture', m.variants
      from made, media m where m.id = ${template}::uuid
      returning id
    )
    insert into draft_media (draft_id, media_id, position)
    select d.id, p.id, 0
    from (select id, row_number() over () as n from made) d
    join (select id, row_number() over () as n from pictures) p on p.n = d.n`);

  // The fullest draft (issue 41): 20 pictures and 10 process pictures of its own, and words.
  ({ id: bulkDraftId } = await one<{ id: string }>(sql`
    insert into drafts (author_id, content, rights, updated_at)
    values (${viewer.user._id}::uuid, 'The fullest draft', '{}'::jsonb, now() - interval '2 hours')
    returning id`));
  await run(sql`
    with pictures as (
      insert into media (owner_id, purpose, original_file, original_mime, original_bytes, width, height,
                         placeholder, alt, variants)
      select ${viewer.user._id}::uuid, 'post', m.original_file, m.original_mime, m.original_bytes, m.width, m.height,
             m.placeholder, 'A picture of the fullest draft, ' || k, m.variants
      from media m, generate_series(1, 30) k where m.id = ${template}::uuid
      returning id
    )
    insert into draft_media (draft_id, media_id, position, process)
    select ${bulkDraftId}::uuid, id, case when n <= 20 then n - 1 else n - 21 end, n > 20
    from (select id, row_number() over (order by id) as n from pictures) p`);

  // The hub's history (issue 41): 60 revisions (more than a page), each changing the words, every right and both
  // lists of pictures, each keeping the 20 pictures and 10 process pictures the work showed before it.
  await run(sql`
    with kept as (
      insert into media (owner_id, purpose, original_file, original_mime, original_bytes, width, height,
                         placeholder, alt, variants)
      select ${viewer.user._id}::uuid, 'post', m.original_file, m.original_mime, m.original_bytes, m.width, m.height,
             m.placeholder, 'A picture the work showed before, ' || k, m.variants
      from media m, generate_series(1, 30) k where m.id = ${template}::uuid
      returning id
    ), revisions as (
      insert into post_revisions (post_id, created_at, changed, before, after, picture_count_before, picture_count_after)
      select ${hubPostId}::uuid, now() - i * interval '1 minute',
             array['content', 'pictures', 'processPictures', 'contentWarning', 'commentPolicy', 'licence',
                   'aiGenerated', 'downloadable'],
             jsonb_build_object('content', 'The words before edit ' || i, 'contentWarning', null,
                                'commentPolicy', 'everyone', 'licence', 'all-rights-reserved', 'aiGenerated', false,
                                'downloadable', false, 'processPictures', 10),
             jsonb_build_object('content', 'The words after edit ' || i, 'contentWarning', 'nudity',
                                'commentPolicy', 'following', 'licence', 'cc-by-nc-nd', 'aiGenerated', true,
                                'downloadable', true, 'processPictures', 10),
             20, 20
      from generate_series(1, 60) i
      returning id
    )
    insert into post_revision_media (revision_id, kind, position, media_id, alt)
    select r.id, case when k.n <= 20 then 'picture' else 'process' end,
           case when k.n <= 20 then k.n - 1 else k.n - 21 end, k.id, 'Its alt text then, ' || k.n
    from revisions r, (select id, row_number() over (order by id) as n from kept) k`);

  await recountCounters();
}

/** Every counter from the rows it counts (rows the SQL above wrote bypass the services). */
async function recountCounters(): Promise<void> {
  await run(sql`
    update posts p set
      like_count = (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'like'),
      dislike_count = (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'dislike'),
      comment_count = (select count(*) from comments c where c.post_id = p.id and c.moderation_state is null)`);
  await run(sql`
    update comments c set
      upvote_count = (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'up'),
      downvote_count = (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'down')`);
  await run(sql`
    update users u set
      follower_count = (select count(*) from follows f where f.followee_id = u.id),
      following_count = (select count(*) from follows f where f.follower_id = u.id),
      post_count = (select count(*) from posts p where p.author_id = u.id),
      bookmark_count = (select count(*) from bookmarks b where b.user_id = u.id)`);
}

/** Rows whose counters disagree with the rows they count: all zero. */
async function counterDrift() {
  return one<{ posts: number; comments: number; users: number }>(sql`
    select
      (select count(*) from posts p where
         like_count <> (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'like')
         or dislike_count <> (select count(*) from post_reactions r where r.post_id = p.id and r.kind = 'dislike')
         or comment_count <> (select count(*) from comments c where c.post_id = p.id and c.moderation_state is null))::int as posts,
      (select count(*) from comments c where
         upvote_count <> (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'up')
         or downvote_count <> (select count(*) from comment_votes v where v.comment_id = c.id and v.kind = 'down'))::int
        as comments,
      (select count(*) from users u where
         follower_count <> (select count(*) from follows f where f.followee_id = u.id)
         or following_count <> (select count(*) from follows f where f.follower_id = u.id)
         or post_count <> (select count(*) from posts p where p.author_id = u.id)
         or bookmark_count <> (select count(*) from bookmarks b where b.user_id = u.id))::int as users`);
}

/** Every text at its longest, in the character JSON encodes most expensively (6 bytes each). */
async function makeWorstCase(): Promise<void> {
  const heavy = (length: number) => sql.raw(`repeat(chr(1), ${length})`);
  await run(sql`update posts set content = ${heavy(2000 - ' #painting'.length)} || ' #painting'`);
  await run(sql`update comments set content = ${heavy(1000)}`);
  await run(sql`update media set alt = ${heavy(500)}`);
  await run(sql`update users set first_name = ${heavy(50)}, last_name = ${heavy(50)}, bio = ${heavy(300)},
                link = 'https://example.com/' || repeat('a', 280)`);
  await run(sql`update series set title = ${heavy(100)}, description = ${heavy(2000)}`);
  await run(sql`update series_works set chapter = ${heavy(60)}`);
  await run(sql`update collections set title = ${heavy(100)}, description = ${heavy(2000)}`);
  await run(sql`update collection_works set note = ${heavy(500)}`);
  await run(sql`update inquiries set body = ${heavy(5000)}, decline_reason = ${heavy(1000)}`);
  await run(sql`update inquiry_messages set body = ${heavy(2000)}`);
  await run(sql`update drafts set content = ${heavy(2000)}, publish_error = ${heavy(300)}`);
  await run(sql`update post_revisions set
                  before = before || jsonb_build_object('content', ${heavy(2000)}),
                  after = after || jsonb_build_object('content', ${heavy(2000)})`);
  await run(sql`update post_revision_media set alt = ${heavy(500)}`);
}

// ---- measuring --------------------------------------------------------------------------------------

interface Measure {
  route: string;
  kind: CapKind;
  maxItems: number;
  typical: number;
  worst: number;
}
const measures = new Map<string, Measure>();
const refusals = new Map<string, Set<string>>();
const uncovered: string[] = [];
const walks: string[] = [];

const withLimit = (url: string, limit: string | undefined) =>
  limit === undefined ? url : `${url}${url.includes('?') ? '&' : '?'}limit=${limit}`;

async function get(url: string, auth: boolean): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'GET', url, headers: auth ? { authorization: `Bearer ${viewer.token}` } : {} });
}

/** Asks every list variant with every limit; checks the item counts and the byte caps. */
async function measureAll(phase: 'typical' | 'worst'): Promise<void> {
  for (const [route, variants] of Object.entries(listRoutes())) {
    for (const variant of variants) {
      const measure = measures.get(variant.label) ?? {
        route,
        kind: variant.kind,
        maxItems: 0,
        typical: 0,
        worst: 0,
      };
      measures.set(variant.label, measure);
      // The limits' meaning is checked on typical data; the worst case only needs the largest pages. A list
      // bounded by its own rule takes no limit: it is asked as it is.
      const limits = variant.bounded ? [undefined] : phase === 'typical' ? LIMITS : ([undefined, '50'] as const);
      for (const limit of limits) {
        const url = withLimit(variant.url, limit);
        const response = await get(url, variant.auth ?? false);
        const label = `${phase}: GET ${url}`;
        const valid = limit === undefined || ['1', '20', '50'].includes(limit);
        if (response.statusCode >= 400) {
          expect(valid, `${label} refused a valid limit: ${response.body}`).toBe(false);
          expectCleanRefusal(response, label);
          const message = (response.json() as { errors: string[] }).errors[0]!;
          expect(message, label).toMatch(/limit/);
          refusals.set(String(limit), (refusals.get(String(limit)) ?? new Set()).add(message));
          continue;
        }
        expect(response.statusCode, label).toBe(200);
        const body = response.json() as Record<string, unknown>;
        const arrays = Object.entries(body).filter(([, value]) => Array.isArray(value)) as [string, unknown[]][];
        expect(arrays.length, `${label}: a list in the answer`).toBeGreaterThan(0);
        const wanted =
          variant.bounded ?? (limit === undefined ? PAGE_LIMITS.default : Math.min(Number(limit), PAGE_LIMITS.max));
        for (const [key, items] of arrays) {
          expect(items.length, `${label}: ${key} has ${items.length} items`).toBeLessThanOrEqual(PAGE_LIMITS.max);
          if (key === variant.key) expect(items.length, `${label}: ${key}`).toBeLessThanOrEqual(wanted);
        }
        const items = (body[variant.key] as unknown[] | undefined)?.length ?? 0;
        // The bounded list is measured full.
        if (variant.bounded) expect(items, `${label}: full`).toBe(variant.bounded);
        const bytes = response.rawPayload.length;
        expect(bytes, `${label}: ${bytes} bytes, over the ${variant.kind} cap`).toBeLessThanOrEqual(CAPS[variant.kind]);
        measure.maxItems = Math.max(measure.maxItems, items);
        measure[phase] = Math.max(measure[phase], bytes);
      }
    }
  }
  for (const [route, target] of Object.entries(singleRoutes())) {
    const { url, kind } = typeof target === 'string' ? { url: target, kind: 'single' as const } : target;
    const measure = measures.get(route) ?? { route, kind, maxItems: 1, typical: 0, worst: 0 };
    measures.set(route, measure);
    const response = await get(url, true);
    expect(response.statusCode, `${phase}: ${route} ${response.body.slice(0, 200)}`).toBe(200);
    const bytes = response.rawPayload.length;
    expect(bytes, `${phase}: ${route}: ${bytes} bytes`).toBeLessThanOrEqual(CAPS[kind]);
    measure[phase] = Math.max(measure[phase], bytes);
  }
  for (const [route, url] of Object.entries(feedRoutes())) {
    const measure = measures.get(route) ?? { route, kind: 'feed' as const, maxItems: 0, typical: 0, worst: 0 };
    measures.set(route, measure);
    const response = await get(url, false);
    expect(response.statusCode, `${phase}: ${route} ${response.body.slice(0, 200)}`).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/atom\+xml/);
    const entries = response.body.match(/<entry[ >]/g)?.length ?? 0;
    expect(entries, `${phase}: ${route}: a full feed`).toBe(feedEntries());
    const bytes = response.rawPayload.length;
    expect(bytes, `${phase}: ${route}: ${bytes} bytes`).toBeLessThanOrEqual(CAPS.feed);
    measure.maxItems = Math.max(measure.maxItems, entries);
    measure[phase] = Math.max(measure[phase], bytes);
  }
}

/** Follows nextCursor to the end; every row of `expected` exactly once, in order. */
async function walk(label: string, url: string, key: string, expected: string[]): Promise<void> {
  const pages = await walkPages(ctx.app, (cursor) => (cursor ? `${url}&cursor=${cursor}` : url), key);
  const ids = pages.flat().map((item) => item._id);
  expect(new Set(ids).size, `${label}: duplicates`).toBe(ids.length);
  expect(ids, `${label}: gaps or order`).toEqual(expected);
  expect(pages.every((page) => page.length <= PAGE_LIMITS.max)).toBe(true);
  walks.push(`${label}: ${ids.length} items in ${pages.length} pages, no duplicates, no gaps, in order`);
}

// ---- the tests --------------------------------------------------------------------------------------

const seconds: Record<string, number> = {};
async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    seconds[label] = (performance.now() - started) / 1000;
  }
}

beforeAll(async () => {
  ctx = await createTestApp();
  await timed('seeding', seed);
  await seedModeration();
  // A shared, loaded host seeds this in one to three minutes.
}, 300_000);

/**
 * The viewer is an admin; 60 posts each reported by 12 people (1,000-character notes) with 12 earlier
 * actions on each (500-character reasons, against the post and so its author): more than a queue page shows.
 */
async function seedModeration(): Promise<void> {
  await run(sql`update users set role = 'admin' where id = ${viewer.user._id}::uuid`);
  await run(sql`
    insert into reports (reporter_id, target_type, target_id, reason, note)
    select r.id, 'post', p.id, 'other', repeat('n', 1000)
    from (select id, author_id from posts order by created_at desc limit 60) p
    cross join lateral (select id from users where id <> p.author_id order by id limit 12) r`);
  await run(sql`
    insert into moderation_actions (actor_id, actor_username, action, target_type, target_id, target_user_id, reason)
    select ${viewer.user._id}::uuid, ${viewer.user.username}, 'dismiss', 'post', p.id, p.author_id, repeat('r', 500)
    from (select id, author_id from posts order by created_at desc limit 60) p cross join generate_series(1, 12)`);
}

afterAll(async () => {
  await ctx?.close();
});

describe('bounded responses', () => {
  it('seeds 5,000 posts and 2,000 comments on one post with counters that match their rows', async () => {
    const counts = await one<Record<string, number>>(sql`
      select (select count(*) from posts)::int as posts, (select count(*) from users)::int as users,
             (select count(*) from comments where post_id = ${hubPostId}::uuid)::int as hub_comments,
             (select count(*) from post_reactions)::int as reactions, (select count(*) from follows)::int as follows,
             (select count(*) from bookmarks)::int as bookmarks, (select count(*) from comment_votes)::int as votes,
             (select count(*) from notifications)::int as notifications`);
    expect(counts.posts).toBe(POSTS);
    expect(counts.hub_comments).toBe(HUB_COMMENTS);
    expect(await counterDrift()).toEqual({ posts: 0, comments: 0, users: 0 });
  });

  it('covers every GET list route the app registers', () => {
    const doc = ctx.app.swagger() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string }[];
            responses?: Record<string, { content?: Record<string, { schema?: { properties?: object } }> }>;
          }
        >
      >;
    };
    const covered = new Set([
      ...Object.keys(listRoutes()),
      ...Object.keys(singleRoutes()),
      ...Object.keys(feedRoutes()),
    ]);
    const detected: string[] = [];
    for (const route of ctx.app.apiRoutes.filter((r) => r.method === 'GET' && !r.hidden)) {
      const op = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.get;
      const paged = (op?.parameters ?? []).some((p) => p.in === 'query' && p.name === 'limit');
      const schema = op?.responses?.['200']?.content?.['application/json']?.schema;
      // A list is an array the schema does not bound itself (health's few `problems` are not one).
      const listsSomething = Object.values(
        (schema?.properties ?? {}) as Record<string, { type?: string; maxItems?: number }>,
      ).some((property) => property.type === 'array' && property.maxItems === undefined);
      const name = `GET ${route.url}`;
      if (paged || listsSomething) detected.push(name);
      if (paged || listsSomething)
        expect(Object.keys(listRoutes()), `${name} is a list route: cover it`).toContain(name);
      else if (!covered.has(name)) uncovered.push(name);
    }
    // The detection itself finds every list route known here.
    expect(detected.sort()).toEqual(Object.keys(listRoutes()).sort());
  });

  it('every list answers at most the cap, or a clean 400, with typical content', async () => {
    await timed('typical', () => measureAll('typical'));
  }, 120_000);

  it(
    'walks the longest lists with cursors: no duplicates, no gaps',
    () =>
      timed('walks', async () => {
        const trending = await queryRows<{ id: string }>(
          ctx.database.db,
          sql`select id from posts order by like_count desc, created_at desc, id desc`,
        );
        await walk(
          'GET /api/posts?sort=trending',
          `/api/posts?sort=trending&limit=${PAGE_LIMITS.max}`,
          'posts',
          trending.map((r) => r.id),
        );
        const comments = await queryRows<{ id: string }>(
          ctx.database.db,
          sql`select id from comments where post_id = ${hubPostId}::uuid order by created_at, id`,
        );
        await walk(
          'GET /api/comments/{hub}',
          `/api/comments/${hubPostId}?order=oldest&limit=${PAGE_LIMITS.max}`,
          'comments',
          comments.map((r) => r.id),
        );
      }),
    120_000,
  );

  it('stays under the byte caps with every text at its longest and costliest', async () => {
    await timed('worst case', async () => {
      await makeWorstCase();
      await measureAll('worst');
    });
    expect(await counterDrift()).toEqual({ posts: 0, comments: 0, users: 0 });
  }, 120_000);
});

afterAllTests(async (failed) => {
  if (measures.size === 0) return;
  const size = (bytes: number) => (bytes >= 10 * KB ? `${Math.round(bytes / KB)} KB` : `${bytes} B`);
  const rows = [...measures.entries()].map(
    ([label, m]) => `| \`${label}\` | ${m.maxItems} | ${size(m.typical)} | ${size(m.worst)} | ${size(CAPS[m.kind])} |`,
  );
  const refused = [...refusals.entries()]
    .map(([limit, messages]) => `\`limit=${limit}\` → 400 “${[...messages].join('” / “')}”`)
    .join('; ');
  const markdown = `
\`apps/server/src/security/bounded.test.ts\`: ${POSTS.toLocaleString('en')} posts (each with a picture), ${HUB_COMMENTS.toLocaleString('en')}
comments on one post, ${BULK_USERS} more users who all follow the viewer, full like, dislike and vote lists on the
newest and oldest ${REACTED} posts, and thousands of notifications, written with set-based SQL and every counter
recounted from its rows (checked: no drift). Every GET list route (found from the registered routes: any with
a \`limit\` parameter or a list in its answer; the test fails on one it does not know) is asked with \`limit\`
absent, -1, 0, 1, 20, 50, 51, 1000, 1e9 and abc.

Limits: absent → ${PAGE_LIMITS.default} items at most; 1, 20 and 50 → that many at most; ${refused}.

Bodies are measured twice: with typical content, and with every text at its longest in the character JSON
encodes most expensively (\`\\u0001\`, six bytes: 2,000 per post, 1,000 per comment, 300 per bio, 50 per
name, 500 per picture alt text). **The caps below are the documented upper bounds of a 2xx body** (a page of
${PAGE_LIMITS.max} items, or one object), asserted on every answer.

| Route | Max items seen | Largest body, typical | Largest body, worst case | Cap |
|---|---|---|---|---|
${rows.join('\n')}

Cursor walks: ${walks.join('; ')}.

Faults found: ${failed.length === 0 ? 0 : `${failed.length} (failed: ${failed.join('; ')}); see the test output`}.

Time on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}: ${Object.entries(seconds)
    .map(([label, s]) => `${label} ${s.toFixed(1)} s`)
    .join(', ')}.
${uncovered.length ? `\nGET routes that are not lists and not measured: ${uncovered.map((r) => `\`${r}\``).join(', ')}.\n` : ''}`;
  await writeReliabilitySection('bounded', markdown);
});
