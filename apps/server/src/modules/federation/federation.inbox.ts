import { createHash } from 'node:crypto';
import type { InboxContext, InboxListenerSetters } from '@fedify/fedify';
import { Accept, Delete, Follow, isActor, Link, Undo, type Actor } from '@fedify/vocab';
import { addRemoteFollow, removeRemoteActors, removeRemoteFollow } from '../../actions/federation.js';
import type { Db } from '../../db/client.js';
import { isUuid } from '../../lib/ids.js';
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
 * - `Delete` of the actor itself: its follows end and its row goes, with its notifications.
 *
 * Anything else is taken and ignored (later parts: likes, replies, boosts, reports).
 */
export function registerInboxListeners<Data>(
  inbox: InboxListenerSetters<Data>,
  { db, log }: { db: Db; log: { warn(object: object, message: string): void } },
): void {
  inbox
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId) return;
      // A follow from this server's own origin is not a remote one.
      if (follow.actorId.origin === new URL(ctx.origin).origin) return;
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
      } else if (object === null && undo.objectId) {
        await removeRemoteFollow(db, { actorIri: undo.actorId.href, activityId: undo.objectId.href });
      }
    })
    .on(Delete, async (_ctx, deletion) => {
      // Only an actor's Delete of itself: a deleted post of theirs means nothing here yet.
      if (!deletion.actorId || deletion.objectId?.href !== deletion.actorId.href) return;
      await removeRemoteActors(db, [deletion.actorId.href]);
    })
    .onError((_ctx, error) => {
      log.warn({ err: error }, 'federation: an activity taken in failed; the job queue tries it again');
    });
}
