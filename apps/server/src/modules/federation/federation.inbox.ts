import { createHash } from 'node:crypto';
import type { InboxContext, InboxListenerSetters } from '@fedify/fedify';
import { Accept, Announce, Block, Delete, Flag, Follow, isActor, Like, Link, Undo, type Actor } from '@fedify/vocab';
import {
  addRemoteFollow,
  addRemoteReaction,
  removeRemoteActors,
  removeRemoteFollow,
  removeRemoteReaction,
  type RemoteReactionKind,
} from '../../actions/federation.js';
import type { Db } from '../../db/client.js';
import { isUuid } from '../../lib/ids.js';
import { parseNoteKey } from './federation.objects.js';
import { isSuspendedServer, takeBlock, takeFlag, undoBlock } from './federation.safety.js';
import { selectActor, upsertRemoteActor, type RemoteActorFields } from './federation.sql.js';

/** The longest a remote actor's URLs kept here may be; a handle and a name are shown, and kept shorter. */
const MAX_TEXT = 2_000;
const MAX_SHOWN = 200;

const clip = (text: string, max = MAX_TEXT) => (text.length > max ? [...text].slice(0, max).join('') : text);

/**
 * A remote server's text as a line to show (a name, a handle's user part): no control or invisible formatting
 * characters (a bidi override could make a handle read as another's), spaces collapsed, at most MAX_SHOWN
 * characters.
 */
const shownText = (text: string) =>
  clip(
    text
      .replace(/(?!\u200d)[\p{Cc}\p{Cf}\p{Co}]/gu, '')
      .replace(/\s+/g, ' ')
      .trim(),
    MAX_SHOWN,
  );

/** A path segment as written (its %-escapes decoded), or as sent when they are malformed. */
const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The href of a URL or of a Link's href when it is http(s) (else null: it is put in links people click). */
const hrefOf = (value: URL | Link | null | undefined): string | null => {
  const url = value instanceof URL ? value : value instanceof Link ? value.href : null;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? clip(url.href) : null;
};

/** The local account an object id names (`/ap/users/{uuid}`), when it is there and not suspended. */
async function localAccountOf<Data>(ctx: InboxContext<Data>, db: Db, id: URL | null) {
  if (!id) return undefined;
  const parsed = ctx.parseUri(id);
  if (parsed?.type !== 'actor' || !isUuid(parsed.identifier)) return undefined;
  return selectActor(db, parsed.identifier);
}

/**
 * The local work an object id names: its Note (`/ap/posts/{id}`, or `/ap/posts/{id}.{generation}` of any
 * generation, the same work) or its page (`/posts/{id}`), on this server's origin; undefined for anything else.
 * Whether it is public is the caller's to ask.
 */
function localWorkOf<Data>(ctx: InboxContext<Data>, id: URL | null): string | undefined {
  if (!id || id.origin !== new URL(ctx.origin).origin) return undefined;
  const note = /^\/ap\/posts\/([^/]+)$/.exec(id.pathname);
  if (note) return parseNoteKey(decoded(note[1]!))?.postId;
  const page = /^\/posts\/([^/]+)\/?$/.exec(id.pathname);
  const postId = page ? decoded(page[1]!).toLowerCase() : '';
  return isUuid(postId) ? postId : undefined;
}

/**
 * What is kept of a remote actor: its id, `user@host`, its inboxes, name, icon and profile page. What a remote
 * server sends is not trusted: a missing or odd name, username, icon or page leaves that field empty (or the
 * handle's user part taken from the actor's id), never the follow undone; only http(s) URLs are kept.
 */
async function remoteActorFields<Data>(actor: Actor, ctx: InboxContext<Data>): Promise<RemoteActorFields | null> {
  if (!actor.id || !actor.inboxId) return null;
  // A handle's user part has no @ and no spaces (`user@host` must read as one handle, not two).
  const userPart = (text: string) => shownText(text).replace(/[@\s]/g, '');
  const username =
    userPart(String(actor.preferredUsername ?? '')) ||
    userPart(decoded(actor.id.pathname.split('/').filter(Boolean).pop() ?? '')) ||
    'unknown';
  let icon: string | null = null;
  try {
    const image = await actor.getIcon({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader });
    icon = Array.isArray(image?.url) ? null : hrefOf(image?.url);
  } catch {
    // An icon that cannot be read leaves the follower without one.
  }
  return {
    iri: actor.id.href,
    handle: `${username}@${actor.id.host}`,
    inbox: actor.inboxId.href,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    name: shownText(String(actor.name ?? '')),
    iconUrl: icon,
    profileUrl: hrefOf(actor.url),
  };
}

/**
 * A `Like` or an `Announce` (a boost) of one of our works (issue 39, what arrives): only of a work anyone signed out
 * sees (`publicWork`; a work shown to signed-in people only, missing, or another server's: no effect), by the remote
 * actor itself (fetched and kept as a follower is); kept once per actor and work (actions/federation.ts: a like
 * counts in the post's like count, and either notifies the artist live).
 */
async function takeReaction<Data>(
  ctx: InboxContext<Data>,
  activity: Like | Announce,
  kind: RemoteReactionKind,
  { db, publicWork }: { db: Db; publicWork: PublicWork },
): Promise<void> {
  if (!activity.id || !activity.actorId) return;
  if (activity.actorId.origin === new URL(ctx.origin).origin) return;
  const postId = localWorkOf(ctx, activity.objectId);
  if (!postId || !(await publicWork(postId))) return;
  const actor = await activity.getActor({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader });
  if (!actor || !isActor(actor) || actor.id?.href !== activity.actorId.href) return;
  const fields = await remoteActorFields(actor, ctx);
  if (!fields) return;
  const remoteActorId = await upsertRemoteActor(db, fields);
  await addRemoteReaction(db, { postId, remoteActorId, kind, activityId: activity.id.href });
}

/** A work as anyone signed out sees it, or null (the federation's publicWork). */
type PublicWork = (postId: string) => Promise<object | null>;

/**
 * The Accept of a Follow: its id is made from the Follow's, so a try run again sends the same activity. The
 * Follow is embedded by its ids only (as Mastodon sends it), not with the remote actor fetched into it: what
 * that server wrote is not sent back (a NUL in its name, which the job queue's JSON cannot hold, kept the
 * Accept from being queued at all).
 */
function acceptOf<Data>(ctx: InboxContext<Data>, userId: string, follow: Follow): Accept {
  const id = new URL(ctx.getActorUri(userId));
  id.hash = `accepts/${createHash('sha256').update(follow.id!.href).digest('hex').slice(0, 32)}`;
  const object = new Follow({ id: follow.id, actor: follow.actorId, object: follow.objectId });
  return new Accept({ id, actor: ctx.getActorUri(userId), object });
}

/**
 * What the inboxes take in (issue 39, part 2), after Fedify verified the request's HTTP signature and that
 * its key belongs to the activity's actor, and queued it (the job queue runs these, and retries one that
 * throws):
 *
 * - `Follow` of a local account that is there and not suspended: the remote actor is kept (`remote_actors`),
 *   the follow added (`remote_follows`, the account's remote follower count and, for a new follow, the artist's
 *   "started following you" notification with it) and an `Accept` sent back through the queue. A follow of
 *   anything else is taken (202) and has no effect.
 * - `Undo` of a `Follow` (embedded, as Mastodon sends it, or named by its id): the follow ends, and its
 *   notification is withdrawn while unread.
 * - `Like` and `Announce` (a boost) of a public work (takeReaction): kept once per actor and work, a like counted
 *   in the post's like count; the artist is notified ("liked your post", "boosted your post"). Their `Undo`
 *   (embedded, or named by its id) removes them, and the notification while unread.
 * - `Delete` of the actor itself: its follows, likes and boosts end and its row goes, with its notifications.
 *
 * - `Block` of an artist by a remote actor: its follow ends and nothing of the artist is delivered to it, until its
 *   `Undo`; `Flag` (a remote server's report): a report in the moderation queue naming the server
 *   (federation.safety.ts). A suspended server's activities never get here (the adapter answers 403).
 *
 * Anything else is taken and ignored (later parts: replies).
 */
export function registerInboxListeners<Data>(
  inbox: InboxListenerSetters<Data>,
  { db, log, publicWork }: { db: Db; log: { warn(object: object, message: string): void }; publicWork: PublicWork },
): void {
  inbox
    .on(Like, (ctx, like) => takeReaction(ctx, like, 'like', { db, publicWork }))
    .on(Announce, (ctx, announce) => takeReaction(ctx, announce, 'boost', { db, publicWork }))
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId) return;
      // A follow from this server's own origin is not a remote one.
      if (follow.actorId.origin === new URL(ctx.origin).origin) return;
      // A server suspended since the Follow was queued (its inbox POSTs are refused at once: the adapter).
      if (await isSuspendedServer(db, [follow.actorId])) return;
      const account = await localAccountOf(ctx, db, follow.objectId);
      if (!account) return;
      const actor = await follow.getActor({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader });
      if (!actor || !isActor(actor) || actor.id?.href !== follow.actorId.href) return;
      const fields = await remoteActorFields(actor, ctx);
      if (!fields) return;
      const remoteActorId = await upsertRemoteActor(db, fields);
      await addRemoteFollow(db, { userId: account.id, remoteActorId, activityId: follow.id.href });
      await ctx.sendActivity({ identifier: account.id }, actor, acceptOf(ctx, account.id, follow));
    })
    .on(Undo, async (ctx, undo) => {
      if (!undo.actorId) return;
      let object: unknown = null;
      try {
        object = await undo.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader });
      } catch {
        // Only the Follow's id, which cannot be fetched: it is matched by that id below.
      }
      if (object instanceof Follow) {
        if (object.actorId?.href !== undo.actorId.href) return;
        const account = await localAccountOf(ctx, db, object.objectId);
        if (!account && !object.id) return;
        await removeRemoteFollow(db, {
          actorIri: undo.actorId.href,
          ...(account ? { userId: account.id } : { activityId: object.id!.href }),
        });
      } else if (object instanceof Like || object instanceof Announce) {
        // A like or a boost: only the Undo's actor's own, of the work it names (else by the activity's id).
        if (object.actorId?.href !== undo.actorId.href) return;
        const postId = localWorkOf(ctx, object.objectId);
        await removeRemoteReaction(db, {
          actorIri: undo.actorId.href,
          kind: object instanceof Like ? 'like' : 'boost',
          ...(postId ? { postId } : object.id ? { activityId: object.id.href } : {}),
        });
      } else if (object instanceof Block) {
        await undoBlock(ctx, db, undo, object);
      } else if (object === null && undo.objectId) {
        await undoBlock(ctx, db, undo, null);
        await removeRemoteFollow(db, { actorIri: undo.actorId.href, activityId: undo.objectId.href });
        await removeRemoteReaction(db, { actorIri: undo.actorId.href, activityId: undo.objectId.href });
      }
    })
    // Safety across servers (federation.safety.ts): a remote actor's Block of an artist, a remote server's report.
    .on(Block, (ctx, block) => takeBlock(ctx, db, block))
    .on(Flag, (ctx, flag) => takeFlag(ctx, db, flag))
    .on(Delete, async (_ctx, deletion) => {
      // Only an actor's Delete of itself: a deleted post of theirs means nothing here yet.
      if (!deletion.actorId || deletion.objectId?.href !== deletion.actorId.href) return;
      await removeRemoteActors(db, [deletion.actorId.href]);
    })
    .onError((_ctx, error) => {
      log.warn({ err: error }, 'federation: an activity taken in failed; the job queue tries it again');
    });
}
