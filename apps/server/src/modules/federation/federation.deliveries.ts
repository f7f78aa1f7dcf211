import { createHash } from 'node:crypto';
import type { Context } from '@fedify/fedify';
import type { Activity, Recipient } from '@fedify/vocab';
import type { Db } from '../../db/client.js';
import type { EventBus } from '../../events/bus.js';
import type { AppFederation, FederationRequestData } from './federation.dispatchers.js';
import { toCreate, toDelete, toUpdate } from './federation.objects.js';
import {
  claimCreate,
  claimDelete,
  claimUpdate,
  hasRemoteFollowers,
  selectFederatedPost,
  selectRemoteRecipients,
} from './federation.sql.js';

/**
 * What leaves (issue 39, part 2): a work anyone signed out sees goes to its author's remote followers as a
 * `Create(Note)` when it is published, an `Update` when an edit changes its Note, a `Delete` (a Tombstone) when
 * it is deleted or no longer public (removed or hidden by moderation). Each is queued through Fedify on the
 * job queue (one delivery per inbox, a server's shared inbox preferred, retried with back-off), signed with the
 * author's key.
 *
 * It listens to the posts module's events (`post-published`, `post-changed`), which every process hears: each
 * claims the activity it would send in `federated_posts` by one statement (the work's Create recorded, its Note's
 * hash changed, its row deleted), and only the process whose statement changed the row queues it. In a process,
 * events are handled one after the other, in the order heard. A work published while its author had no remote
 * follower is not recorded (nothing to update or delete later); deliveries need `PUBLIC_ORIGIN` (an activity
 * made outside a request has no Host to take it from).
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
}): { idle(): Promise<void> } {
  const { federation, noteOf, publicWork } = app;
  let chain: Promise<void> = Promise.resolve();

  const hashOf = (json: unknown) => createHash('sha256').update(JSON.stringify(json)).digest('hex');

  async function send(ctx: Context<FederationRequestData>, authorId: string, activity: Activity) {
    const recipients: Recipient[] = (await selectRemoteRecipients(db, authorId)).map((row) => ({
      id: new URL(row.iri),
      inboxId: new URL(row.inbox),
      endpoints: row.shared_inbox ? { sharedInbox: new URL(row.shared_inbox) } : null,
    }));
    if (recipients.length === 0) return;
    await ctx.sendActivity({ identifier: authorId }, recipients, activity, {
      preferSharedInbox: true,
      excludeBaseUris: [new URL(ctx.origin)],
    });
  }

  async function published(ctx: Context<FederationRequestData>, postId: string, authorId: string) {
    if (!(await hasRemoteFollowers(db, authorId))) return;
    const post = await publicWork(postId);
    if (!post) return;
    const note = await noteOf(ctx, post);
    if (!(await claimCreate(db, postId, post.userId, hashOf(await note.toJsonLd())))) return;
    await send(ctx, post.userId, toCreate(ctx, note, post));
  }

  async function changed(ctx: Context<FederationRequestData>, postId: string) {
    if (!(await selectFederatedPost(db, postId))) return;
    const post = await publicWork(postId);
    if (!post) {
      const authorId = await claimDelete(db, postId);
      if (authorId) await send(ctx, authorId, toDelete(ctx, postId, authorId));
      return;
    }
    const note = await noteOf(ctx, post);
    const hash = hashOf(await note.toJsonLd());
    if (!(await claimUpdate(db, postId, hash))) return;
    await send(ctx, post.userId, toUpdate(ctx, note, post, hash));
  }

  bus.subscribe((event) => {
    if (event.type !== 'post-published' && event.type !== 'post-changed') return;
    if (!origin) return;
    chain = chain.then(async () => {
      const ctx = federation.createContext(new URL(origin), {});
      try {
        if (event.type === 'post-published') await published(ctx, event.postId, event.authorId);
        else await changed(ctx, event.postId);
      } catch (error) {
        log.warn({ err: error, event }, 'federation: a work could not be queued for delivery');
      }
    });
  });

  return {
    /** Settles once the events heard so far are handled (the module's close waits for it). */
    idle: () => chain,
  };
}
