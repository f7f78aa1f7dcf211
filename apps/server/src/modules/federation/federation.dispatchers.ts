import {
  createFederation,
  type Context,
  type Federation,
  type FederationQueueOptions,
  type KvStore,
} from '@fedify/fedify';
import { Note, type Person } from '@fedify/vocab';
import { PAGE_LIMITS, type Post } from '@share-arts/contract';
import { removeRemoteActors } from '../../actions/federation.js';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { extractMentions } from '../../lib/mentions.js';
import type { PostsService } from '../posts/index.js';
import type { TextLinks } from '../../lib/text-html.js';
import { registerInboxListeners, type InboxRemoteWorks } from './federation.inbox.js';
import { createInstanceKeys, INSTANCE_ACTOR, toInstanceActor } from './federation.instance.js';
import type { ActorKeys } from './federation.keys.js';
import {
  CommentNote,
  noteIdOf,
  pages,
  parseNoteKey,
  toCommentNote,
  toCreate,
  toNote,
  toPerson,
} from './federation.objects.js';
import {
  countFollows,
  countPublicWorks,
  isRemoteWork,
  selectActor,
  selectActorByUsername,
  selectFollowPage,
  selectGeneration,
  selectGenerations,
  selectMentioned,
  selectNodeUsage,
  selectPinnedPostIds,
  selectPublicComment,
  type CommentRow,
} from './federation.sql.js';

/** What the Fastify adapter hands each request: the dispatchers note what it reads back. */
export interface FederationRequestData {
  /** The username a WebFinger `acct:` resolved to, as the account writes it (the subject names it so). */
  handle?: string;
}

/** Our paths (the actor's id is the account's uuid, which a change of username does not change). */
export const AP_PATHS = {
  actor: '/ap/users/{identifier}',
  inbox: '/ap/users/{identifier}/inbox',
  sharedInbox: '/ap/inbox',
  outbox: '/ap/users/{identifier}/outbox',
  followers: '/ap/users/{identifier}/followers',
  following: '/ap/users/{identifier}/following',
  featured: '/ap/users/{identifier}/featured',
  post: '/ap/posts/{id}',
  comment: '/ap/comments/{id}',
  nodeInfo: '/nodeinfo/2.1',
} as const;

/** Works and accounts per collection page. */
const PAGE = PAGE_LIMITS.default;

/**
 * What the deliveries use of the federation: a work as a Note (under its current generation's id unless one is
 * given), a work as anyone signed out sees it, an account as its actor, a public comment and its Note.
 */
export interface AppFederation {
  federation: Federation<FederationRequestData>;
  noteOf(ctx: Context<unknown>, post: Post, generation?: number): Promise<Note>;
  publicWork(postId: string): Promise<Post | null>;
  personOf(ctx: Context<unknown>, userId: string): Promise<Person | null>;
  publicComment(commentId: string): Promise<CommentRow | undefined>;
  commentNoteOf(ctx: Context<unknown>, comment: CommentRow): Promise<Note>;
}

/**
 * The Fedify federation of this server (issue 39): WebFinger, NodeInfo, each account as a Person, its works as
 * Notes in its outbox and featured collection, its followers (local accounts and remote actors) and following;
 * the inboxes' listeners (federation.inbox.ts) and the queues activities go through (the job queue's).
 */
export function createAppFederation({
  db,
  kv,
  queue,
  allowPrivateAddress,
  posts,
  keys,
  version,
  log,
  works,
}: {
  /** Following out: what a followed person's works need (federation.inbox.ts). */
  works: InboxRemoteWorks;
  db: Db;
  kv: KvStore;
  queue: FederationQueueOptions;
  /** Tests only: remote documents and inboxes on loopback. */
  allowPrivateAddress: boolean;
  posts: PostsService;
  keys: ActorKeys;
  version: string;
  log: { warn(object: object, message: string): void; debug(object: object, message: string): void };
}): AppFederation {
  const federation = createFederation<FederationRequestData>({
    kv,
    queue,
    // Started by the module's wiring (federation.startQueue), once the listeners are registered.
    manuallyStartQueue: true,
    allowPrivateAddress,
    // An inbox that is gone (410) or not there (404) is not tried again; a 410 also ends the follows of its
    // actors (below). Everything else is retried by the job queue.
    permanentFailureStatusCodes: [404, 410],
  });

  /** The links of a text: tags to their pages, mentions to the profiles of the accounts that are there. */
  const linksOf = (ctx: Context<unknown>, accounts: { username: string }[]): TextLinks => {
    const at = pages(ctx.origin);
    const byName = new Map(accounts.map((account) => [account.username.toLowerCase(), account.username]));
    return {
      tag: (tag) => at.tag(tag).href,
      profile: (username) => {
        const found = byName.get(username);
        return found ? at.profile(found).href : undefined;
      },
    };
  };

  /** An actor that is there: an account by its uuid, not suspended. */
  const actorOf = (identifier: string) =>
    isUuid(identifier) ? selectActor(db, identifier) : Promise.resolve(undefined);

  /** A work as a Note, its mentions resolved to the local accounts they name, its id of `generation` (the current). */
  async function noteOf(ctx: Context<unknown>, post: Post, generation?: number) {
    const mentioned = await selectMentioned(db, extractMentions(post.content));
    return toNote(ctx, post, mentioned, linksOf(ctx, mentioned), generation ?? (await selectGeneration(db, post._id)));
  }

  /** An account that is there as its actor (a Person with its keys); null when none or suspended. */
  async function personOf(ctx: Context<unknown>, identifier: string): Promise<Person | null> {
    const row = await actorOf(identifier);
    if (!row) return null;
    const pairs = await ctx.getActorKeyPairs(identifier);
    const mentioned = await selectMentioned(db, extractMentions(row.bio));
    return toPerson(ctx, row, pairs, linksOf(ctx, mentioned));
  }

  /** A comment as anyone signed out sees it (on a public work); undefined when they do not. */
  const publicComment = (commentId: string) =>
    isUuid(commentId) ? selectPublicComment(db, commentId) : Promise.resolve(undefined);

  /**
   * A public comment as a reply to its work's Note (under the work's current id), or to a work from another server's
   * own Note (issue 39, following out).
   */
  async function commentNoteOf(ctx: Context<unknown>, comment: CommentRow) {
    const mentioned = await selectMentioned(db, extractMentions(comment.content));
    const replyTo = comment.post_note_iri
      ? new URL(comment.post_note_iri)
      : noteIdOf(ctx, comment.post_id, await selectGeneration(db, comment.post_id));
    return toCommentNote(ctx, comment, replyTo, mentioned, linksOf(ctx, mentioned));
  }

  /**
   * One of our works as anyone signed out sees it; null when they do not (removed, hidden, signed-in only,
   * suspended), and for another server's work (issue 39, following out), which is never served as our Note, sent
   * as our Create, nor liked or boosted through us.
   */
  async function publicWork(postId: string): Promise<Post | null> {
    try {
      const post = JSON.parse((await posts.getPost(postId, null)).text) as Post;
      return (await isRemoteWork(db, post._id)) ? null : post;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return null;
      throw error;
    }
  }

  // The accounts' actors, and the instance actor (federation.instance.ts), whose key signs the inboxes' fetches.
  const instanceKeys = createInstanceKeys(db);
  federation
    .setActorDispatcher(AP_PATHS.actor, async (ctx, identifier) =>
      identifier === INSTANCE_ACTOR
        ? toInstanceActor(ctx, await ctx.getActorKeyPairs(identifier))
        : personOf(ctx, identifier),
    )
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      if (identifier === INSTANCE_ACTOR) return instanceKeys.of();
      return (await actorOf(identifier)) ? keys.of(identifier) : [];
    })
    // WebFinger's `acct:name@host`, any letter case; the subject then names the account as it writes itself.
    .mapHandle(async (ctx, username) => {
      const row = await selectActorByUsername(db, username);
      if (!row) return null;
      ctx.data.handle = row.username;
      return row.id;
    });

  // Each account's inbox and the shared one; Fedify verifies every POST's HTTP signature (401 without a valid
  // one, before any listener runs) and queues what it takes in (202). What an activity's handling fetches (its
  // sender's key and actor, a Move's target) is fetched signed: by the account's key at its own inbox (Fedify's
  // rule), by the instance actor's at the shared one, so a server in Mastodon's secure mode answers.
  const inbox = federation.setInboxListeners(AP_PATHS.inbox, AP_PATHS.sharedInbox);
  inbox.setSharedKeyDispatcher(() => ({ identifier: INSTANCE_ACTOR }));
  registerInboxListeners(inbox, {
    db,
    log,
    publicWork,
    works,
  });
  federation.setOutboxPermanentFailureHandler(async (_ctx, { statusCode, actorIds, inbox }) => {
    if (statusCode !== 410) return;
    const { ended, files } = await removeRemoteActors(
      db,
      actorIds.map((id) => id.href),
    );
    // Their shadow accounts' pictures (following out), once the rows are gone.
    await works.removeFiles(files.map((file) => ({ originalFile: file.original_file, variants: file.variants })));
    log.debug({ inbox: inbox.href, ended }, 'federation: an inbox is gone (410); its actors no longer follow');
  });

  federation
    .setOutboxDispatcher(AP_PATHS.outbox, async (ctx, identifier, cursor) => {
      const row = await actorOf(identifier);
      if (!row || cursor === null) return null;
      const page = await posts.byUsername(
        row.username,
        { limit: PAGE, sort: 'latest', ...(cursor ? { cursor } : {}) },
        null,
      );
      const works = page.posts.map((json) => JSON.parse(json.text) as Post);
      const generations = await selectGenerations(
        db,
        works.map((post) => post._id),
      );
      const items = await Promise.all(
        works.map(async (post) => toCreate(ctx, await noteOf(ctx, post, generations.get(post._id)), post)),
      );
      return { items, nextCursor: page.nextCursor };
    })
    .setCounter(async (_ctx, identifier) => {
      const row = await actorOf(identifier);
      return row ? countPublicWorks(db, row.id) : null;
    })
    .setFirstCursor(async (_ctx, identifier) => ((await actorOf(identifier)) ? '' : null));

  /**
   * The followers or following of an actor, newest follow first: local accounts' actor ids, and on the
   * followers side remote actors' ids (their inboxes are not listed: deliveries read them from the database).
   */
  function follows(side: 'followers' | 'following') {
    return async (ctx: Context<unknown>, identifier: string, cursor: string | null) => {
      const row = await actorOf(identifier);
      if (!row || cursor === null) return null;
      const page = await selectFollowPage(db, row.id, side, cursor || undefined, PAGE);
      return {
        ids: page.items.map((item) =>
          'local' in item
            ? { id: ctx.getActorUri(item.local), inboxId: ctx.getInboxUri(item.local) }
            : { id: new URL(item.remote), inboxId: null },
        ),
        nextCursor: page.nextCursor,
      };
    };
  }
  const followers = follows('followers');
  federation
    .setFollowersDispatcher(AP_PATHS.followers, async (ctx, identifier, cursor) => {
      const page = await followers(ctx, identifier, cursor);
      return page && { items: page.ids, nextCursor: page.nextCursor };
    })
    .setCounter(async (_ctx, identifier) => {
      const row = await actorOf(identifier);
      return row ? countFollows(db, row.id, 'followers') : null;
    })
    .setFirstCursor(async (_ctx, identifier) => ((await actorOf(identifier)) ? '' : null));
  const following = follows('following');
  federation
    .setFollowingDispatcher(AP_PATHS.following, async (ctx, identifier, cursor) => {
      const page = await following(ctx, identifier, cursor);
      return page && { items: page.ids.map((recipient) => recipient.id), nextCursor: page.nextCursor };
    })
    .setCounter(async (_ctx, identifier) => {
      const row = await actorOf(identifier);
      return row ? countFollows(db, row.id, 'following') : null;
    })
    .setFirstCursor(async (_ctx, identifier) => ((await actorOf(identifier)) ? '' : null));

  // The pinned works, in the artist's order (at most 6: one page), those anyone signed out sees.
  federation.setFeaturedDispatcher(AP_PATHS.featured, async (ctx, identifier) => {
    const row = await actorOf(identifier);
    if (!row) return null;
    const works = (await Promise.all((await selectPinnedPostIds(db, row.id)).map(publicWork))).filter(
      (post) => post !== null,
    );
    const generations = await selectGenerations(
      db,
      works.map((post) => post._id),
    );
    const items = await Promise.all(works.map((post) => noteOf(ctx, post, generations.get(post._id))));
    return { items };
  });

  // A work by itself: the same Note, for a public work only (anything else is a 404 that falls through). Its id
  // names the current generation; an id of another generation (withdrawn, its Delete sent) is not there.
  federation.setObjectDispatcher(Note, AP_PATHS.post, async (ctx, { id }) => {
    const key = parseNoteKey(id);
    const post = key && (await publicWork(key.postId));
    if (!key || !post) return null;
    const generation = await selectGeneration(db, post._id);
    if (key.generation !== undefined && key.generation !== generation) return null;
    return noteOf(ctx, post, generation);
  });

  // A comment by itself (issue 39): its Note as a reply, while it and its work are public.
  federation.setObjectDispatcher(CommentNote, AP_PATHS.comment, async (ctx, { id }) => {
    const comment = await publicComment(id);
    return comment ? commentNoteOf(ctx, comment) : null;
  });

  federation.setNodeInfoDispatcher(AP_PATHS.nodeInfo, async () => {
    const usage = await selectNodeUsage(db);
    return {
      software: { name: 'share-arts', version },
      protocols: ['activitypub'],
      openRegistrations: true,
      usage: {
        users: { total: usage.total, activeMonth: usage.active_month, activeHalfyear: usage.active_halfyear },
        localPosts: usage.local_posts,
        localComments: usage.local_comments,
      },
    };
  });

  return { federation, noteOf, publicWork, personOf, publicComment, commentNoteOf };
}
