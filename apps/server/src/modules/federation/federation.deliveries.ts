import { createHash, randomUUID } from 'node:crypto';
import type { Context, SenderKeyPair } from '@fedify/fedify';
import { Move, type Activity, type Recipient } from '@fedify/vocab';
import type { Db } from '../../db/client.js';
import type { EventBus } from '../../events/bus.js';
import type { AppFederation, FederationRequestData } from './federation.dispatchers.js';
import {
  CommentNote,
  noteIdOf,
  toActorDelete,
  toCommentCreate,
  toCommentUpdate,
  toCreate,
  toDelete,
  toPersonUpdate,
  toUpdate,
} from './federation.objects.js';
import {
  claimActorUpdate,
  claimCommentCreate,
  claimCommentDelete,
  claimCommentUpdate,
  claimCreate,
  claimRecreate,
  claimUpdate,
  claimWithdraw,
  claimWithdrawAllOf,
  forgetDeletedPost,
  hasRemoteFollowers,
  selectActor,
  selectCommentedWorksOf,
  selectFederatedComments,
  selectFederatedPost,
  selectPinnedPostIds,
  selectRemoteRecipients,
  selectFollowedRemotePeople,
  selectRemoteWorkAuthor,
  selectWithdrawnPostIds,
} from './federation.sql.js';
import { withoutRefused } from './federation.safety.js';

/** What an account's deletion asks of the fediverse: read now, while the account is there; sent once it is gone. */
export interface ActorFarewell {
  /** Queues the Delete of the actor (after the deletion committed), signed with the keys read before it. */
  send(): Promise<void>;
}

/**
 * What leaves (issue 39, parts 2 and 3), to the remote followers (a server's shared inbox preferred, one delivery
 * per inbox, retried with back-off on the job queue, signed with the actor's key):
 *
 * - a work anyone signed out sees: `Create(Note)` when published, `Update` when an edit changes its Note, `Delete`
 *   (a Tombstone) when it is deleted or stops being public (removed or hidden by moderation, its artist shows
 *   their works to signed-in people only), and `Create` again, under its next generation's id, when a withdrawn
 *   work is public again (Mastodon refuses a Create of an id it was told was deleted);
 * - a comment on a public work (to its author's and the work's author's followers, and on a work from another
 *   server to that work's author too, mentioned): `Create(Note)` as a reply (`inReplyTo` the work's Note, ours or
 *   theirs), `Update` when edited, `Delete` when it stops being public (deleted, hidden or removed, its work no
 *   longer public);
 * - a profile change (name, bio, avatar, link, AI opt-out, who sees the works, the pins): `Update(Person)`, once
 *   per version of the actor and its pins (Mastodon reads the featured collection again on it);
 * - an account's deletion: `Delete` of the actor (`farewell`, called by the account deletion before it deletes), to
 *   its remote followers and the people on other servers it follows.
 *
 * It listens to the events (`post-published`, `post-changed`, `comment-published`, `post-counts-changed`,
 * `comments-changed`, `profile-changed`), which every process hears: each claims the activity it would send in
 * `federated_posts`, `federated_comments` or `federated_actors` by one statement, and only the process whose
 * statement changed the row queues it. In a process, events are handled one after the other, in the order heard.
 * Deliveries need `PUBLIC_ORIGIN` (an activity made outside a request has no Host to take it from).
 */
export function startDeliveries({
  app,
  db,
  bus,
  origin,
  log,
}: {
  app: AppFederation;
  db: Db;
  bus: EventBus;
  origin: string | undefined;
  log: { warn(object: object, message: string): void };
}): {
  idle(): Promise<void>;
  farewell(userId: string): Promise<ActorFarewell | undefined>;
  movedAway(userId: string, target: URL): Promise<void>;
} {
  const { federation, noteOf, publicWork, personOf, publicComment, commentNoteOf } = app;
  let chain: Promise<void> = Promise.resolve();

  const hashOf = (json: unknown) => createHash('sha256').update(JSON.stringify(json)).digest('hex');

  /**
   * Whether the account can sign (it is there and not suspended: a suspended actor has no keys to the fediverse). A
   * Delete of a suspended author's Note is not claimed: the Note is theirs again when the suspension ends.
   */
  const canSign = async (userId: string) => (await selectActor(db, userId)) !== undefined;

  /**
   * The remote followers of these accounts, once each, as Fedify's recipients; none on a suspended server, nor one
   * who blocks one of the accounts (federation.safety.ts).
   */
  async function recipientsOf(userIds: string[]): Promise<Recipient[]> {
    const recipients = (await selectRemoteRecipients(db, userIds)).map((row) => ({
      id: new URL(row.iri),
      inboxId: new URL(row.inbox),
      endpoints: row.shared_inbox ? { sharedInbox: new URL(row.shared_inbox) } : null,
    }));
    return withoutRefused(db, userIds, recipients);
  }

  /** Queues `activity` from `sender` (an actor, or keys read earlier) to the remote followers of `audience`. */
  async function send(
    ctx: Context<FederationRequestData>,
    sender: string | SenderKeyPair[],
    audience: string[],
    activity: Activity,
    recipients?: Recipient[],
  ) {
    const to = recipients ?? (await recipientsOf(audience));
    if (to.length === 0) return;
    await ctx.sendActivity(typeof sender === 'string' ? { identifier: sender } : sender, to, activity, {
      preferSharedInbox: true,
      excludeBaseUris: [new URL(ctx.origin)],
    });
  }

  async function published(ctx: Context<FederationRequestData>, postId: string, authorId: string) {
    if (!(await hasRemoteFollowers(db, [authorId]))) return;
    const post = await publicWork(postId);
    if (!post) return;
    const note = await noteOf(ctx, post, 0);
    if (!(await claimCreate(db, postId, post.userId, hashOf(await note.toJsonLd())))) return;
    await send(ctx, post.userId, [post.userId], toCreate(ctx, note, post));
  }

  /**
   * A work sent once changed: no longer public, its Delete (and its comments'); public again after that, its Create
   * under the next generation; edited, its Update.
   */
  async function changed(ctx: Context<FederationRequestData>, postId: string) {
    const row = await selectFederatedPost(db, postId);
    // A work never sent may have comments that were (their authors have remote followers).
    if (!row) return commentsChanged(ctx, postId, false);
    const post = await publicWork(postId);
    if (!post) {
      const withdrawn = row.withdrawn || !(await canSign(row.author_id)) ? undefined : await claimWithdraw(db, postId);
      if (withdrawn) {
        const noteId = noteIdOf(ctx, postId, withdrawn.generation);
        await send(ctx, withdrawn.author_id, [withdrawn.author_id], toDelete(ctx, noteId, withdrawn.author_id));
      }
      await forgetDeletedPost(db, postId);
      await commentsChanged(ctx, postId, false);
      return;
    }
    if (row.withdrawn) {
      const note = await noteOf(ctx, post, row.generation + 1);
      if (!(await claimRecreate(db, postId, row.generation, hashOf(await note.toJsonLd())))) return;
      await send(ctx, post.userId, [post.userId], toCreate(ctx, note, post));
      return;
    }
    const note = await noteOf(ctx, post, row.generation);
    const hash = hashOf(await note.toJsonLd());
    if (!(await claimUpdate(db, postId, hash))) return;
    await send(ctx, post.userId, [post.userId], toUpdate(ctx, note, post, hash));
  }

  /**
   * Who hears of a comment: the remote followers of its author and of its work's author, and, on a work from another
   * server (issue 39, following out), that work's author there, at their own inbox (a reply names them).
   */
  async function commentRecipients(authorId: string, postAuthorId: string, postId: string): Promise<Recipient[]> {
    const followers = await recipientsOf([authorId, postAuthorId]);
    const remote = await selectRemoteWorkAuthor(db, postId);
    if (!remote) return followers;
    const author = { id: new URL(remote.iri), inboxId: new URL(remote.inbox), endpoints: null };
    const [shown] = await withoutRefused(db, [authorId], [author]);
    return shown ? [...followers, shown] : followers;
  }

  /**
   * A new comment: a reply to its work's Note when it and the work are public and someone remote would see it (always
   * the author of a work from another server).
   */
  async function commentPublished(ctx: Context<FederationRequestData>, commentId: string) {
    const comment = await publicComment(commentId);
    if (!comment) return;
    const audience = [comment.author_id, comment.post_author_id];
    if (!comment.post_note_iri && !(await hasRemoteFollowers(db, audience))) return;
    const note = await commentNoteOf(ctx, comment);
    if (!(await claimCommentCreate(db, comment, hashOf(await note.toJsonLd())))) return;
    const recipients = await commentRecipients(comment.author_id, comment.post_author_id, comment.post_id);
    await send(ctx, comment.author_id, audience, toCommentCreate(ctx, note, comment), recipients);
  }

  /**
   * The comments of a work that were sent: those no longer public (deleted, hidden, removed, their work no longer
   * public) are deleted; with `edits`, those still public whose Note changed are updated.
   */
  async function commentsChanged(ctx: Context<FederationRequestData>, postId: string, edits: boolean) {
    for (const row of await selectFederatedComments(db, postId)) {
      if (!row.shown) {
        if (!(await canSign(row.author_id)) || !(await claimCommentDelete(db, row.comment_id))) continue;
        const noteId = ctx.getObjectUri(CommentNote, { id: row.comment_id });
        const recipients = await commentRecipients(row.author_id, row.post_author_id, postId);
        await send(ctx, row.author_id, [], toDelete(ctx, noteId, row.author_id), recipients);
        continue;
      }
      if (!edits) continue;
      const comment = await publicComment(row.comment_id);
      if (!comment) continue;
      const note = await commentNoteOf(ctx, comment);
      const hash = hashOf(await note.toJsonLd());
      if (!(await claimCommentUpdate(db, comment.id, hash))) continue;
      const recipients = await commentRecipients(comment.author_id, comment.post_author_id, postId);
      await send(ctx, comment.author_id, [], toCommentUpdate(ctx, note, comment, hash), recipients);
    }
  }

  /**
   * A profile change: the works of an artist who now shows them to signed-in people only are withdrawn (those public
   * again sent again), and the actor with its pins goes out as Update(Person) when that version was not sent yet.
   */
  async function profileChanged(ctx: Context<FederationRequestData>, userId: string) {
    const actor = await selectActor(db, userId);
    if (!actor) return;
    if (actor.works_signed_in_only) {
      for (const work of await claimWithdrawAllOf(db, userId)) {
        await send(ctx, userId, [userId], toDelete(ctx, noteIdOf(ctx, work.post_id, work.generation), userId));
      }
      // The comments sent on their works (works sent or not) are no longer public either.
      for (const postId of await selectCommentedWorksOf(db, userId)) await commentsChanged(ctx, postId, false);
    } else {
      for (const postId of await selectWithdrawnPostIds(db, userId)) await changed(ctx, postId);
    }
    if (!(await hasRemoteFollowers(db, [userId]))) return;
    const person = await personOf(ctx, userId);
    if (!person) return;
    const hash = hashOf({ person: await person.toJsonLd(), featured: await selectPinnedPostIds(db, userId) });
    if (!(await claimActorUpdate(db, userId, hash))) return;
    await send(ctx, userId, [userId], toPersonUpdate(ctx, person, userId, hash));
  }

  bus.subscribe((event) => {
    if (!origin) return;
    let handle: ((ctx: Context<FederationRequestData>) => Promise<void>) | undefined;
    switch (event.type) {
      case 'post-published':
        // An imported work (issue 40) is history, not news: in the outbox, never sent as a Create. A work from
        // another server (following out) is its author's there, never ours to send.
        if (!event.imported && !event.remote) handle = (ctx) => published(ctx, event.postId, event.authorId);
        break;
      case 'post-changed':
        handle = (ctx) => changed(ctx, event.postId);
        break;
      case 'comment-published':
        handle = (ctx) => commentPublished(ctx, event.commentId);
        break;
      // A comment deleted or moderated (its post's count changed), or edited (not a vote).
      case 'post-counts-changed':
        if (!event.reactions) handle = (ctx) => commentsChanged(ctx, event.postId, false);
        break;
      case 'comments-changed':
        if (!event.voterId) handle = (ctx) => commentsChanged(ctx, event.postId, true);
        break;
      case 'profile-changed':
        handle = (ctx) => profileChanged(ctx, event.userId);
        break;
    }
    if (!handle) return;
    const run = handle;
    chain = chain.then(async () => {
      try {
        await run(federation.createContext(new URL(origin), {}));
      } catch (error) {
        log.warn({ err: error, event }, 'federation: an activity could not be queued for delivery');
      }
    });
  });

  /**
   * The Delete of an account's actor, to every server that follows it: what it needs (its keys, its followers'
   * inboxes) is read now, before the deletion takes the rows; `send` queues it once the deletion committed (a
   * deletion that fails sends nothing). The deliveries carry the keys (Fedify puts them in each job), so they sign
   * however late they run.
   */
  async function farewell(userId: string): Promise<ActorFarewell | undefined> {
    if (!origin) return undefined;
    try {
      // Its remote followers, and the people on other servers it follows (following out): their servers keep it as a
      // follower until they hear it is gone (Mastodon sends an account's Delete to every server that knows it).
      const followed = (await selectFollowedRemotePeople(db, userId)).map((row) => ({
        id: new URL(row.iri),
        inboxId: new URL(row.inbox),
        endpoints: row.shared_inbox ? { sharedInbox: new URL(row.shared_inbox) } : null,
      }));
      const recipients = [...(await recipientsOf([userId])), ...(await withoutRefused(db, [userId], followed))];
      if (recipients.length === 0) return undefined;
      const ctx = federation.createContext(new URL(origin), {});
      // Signed as Fedify signs for the actor: RSA under the key's id, Ed25519 (the integrity proof) under its Multikey's.
      const keys: SenderKeyPair[] = (await ctx.getActorKeyPairs(userId)).map((pair) => {
        const { privateKey } = pair as unknown as Pick<SenderKeyPair, 'privateKey'>;
        const ed25519 = privateKey.algorithm.name === 'Ed25519';
        return { privateKey, keyId: ed25519 ? (pair.multikey.id ?? pair.keyId) : pair.keyId };
      });
      if (keys.length === 0) return undefined;
      const activity = toActorDelete(ctx, userId);
      return {
        async send() {
          try {
            await send(ctx, keys, [], activity, recipients);
          } catch (error) {
            log.warn({ err: error, userId }, "federation: an account's Delete could not be queued");
          }
        },
      };
    } catch (error) {
      log.warn({ err: error, userId }, "federation: an account's Delete could not be prepared");
      return undefined;
    }
  }

  /**
   * One of our accounts moved away (issue 40): its `Move` (actor and object the account, target the new one) to the
   * servers of its remote followers, each of which then follows the new account for its people (Mastodon's
   * `activity/move.rb`, which checks that the new account names this one, not this one's `movedTo`). Queued after
   * the activities of the events heard before it.
   */
  function movedAway(userId: string, target: URL): Promise<void> {
    if (!origin) return Promise.resolve();
    chain = chain.then(async () => {
      try {
        const ctx = federation.createContext(new URL(origin), {});
        const actor = ctx.getActorUri(userId);
        const id = new URL(actor);
        id.hash = `moves/${randomUUID()}`;
        const move = new Move({ id, actor, object: actor, target, to: ctx.getFollowersUri(userId) });
        await send(ctx, userId, [userId], move);
      } catch (error) {
        log.warn({ err: error, userId }, "federation: an account's Move could not be queued");
      }
    });
    return chain;
  }

  return {
    /** Settles once the events heard so far are handled (the module's close waits for it). */
    idle: () => chain,
    farewell,
    movedAway,
  };
}
