import { randomUUID } from 'node:crypto';
import type { Federation, InboxContext } from '@fedify/fedify';
import { Follow, Undo, type Accept, type Reject } from '@fedify/vocab';
import { acceptRemoteFollow, rejectRemoteFollow } from '../../actions/following-out.js';
import type { Db } from '../../db/client.js';
import { isUuid } from '../../lib/ids.js';
import { withoutRefused } from './federation.safety.js';
import { selectShadowPerson } from './federation.sql.js';

/**
 * Following people on other servers (issue 39, following out; docs/federation.md "Following people on other
 * servers"): an artist's follow of a remote person's shadow account is sent to that person's server as a `Follow`
 * (its id kept with the follow, `follows.activity_id`), an unfollow as the `Undo` of that same Follow; their
 * server's `Accept` marks the follow accepted, its `Reject` ends it. The users module asks through its ports
 * (`remoteFollowId`, `remoteFollowChanged`), which the federation module's wiring connects to these.
 */

/** A follow of someone on another server, or its end (the users module's `RemoteFollowChange`). */
export interface RemoteFollowChange {
  followerId: string;
  followeeId: string;
  activityId: string;
  following: boolean;
}

/**
 * The id of a new Follow by the account: `…/ap/users/{uuid}#follows/{random}`, on its actor as Mastodon makes
 * its own (`#follows/{id}`), new for each follow (a server that remembers the ids it has seen, Fedify's among them,
 * would drop a second Follow under an id it already took). Undefined without PUBLIC_ORIGIN: nothing can be sent.
 */
export function remoteFollowIdMaker<Data>(federation: Federation<Data>, origin: string | undefined, contextData: Data) {
  return (followerId: string): string | undefined => {
    if (!origin) return undefined;
    const actor = federation.createContext(new URL(origin), contextData).getActorUri(followerId);
    return `${actor.href}#follows/${randomUUID()}`;
  };
}

/**
 * Sends the `Follow` (with its id, the follower as actor, the person as object: what Mastodon's `follow.rb` reads)
 * or its `Undo` (the Follow embedded, which Mastodon's `undo_follow` matches), signed by the follower's key, to the
 * person's own inbox, through the delivery queue. Nothing goes to a suspended server or to someone who blocks the
 * follower (withoutRefused). The follow is written already: a delivery that cannot be queued is logged, and the
 * follow stays requested until it is undone.
 */
export function remoteFollowSender<Data>(
  federation: Federation<Data>,
  db: Db,
  origin: string | undefined,
  contextData: Data,
  log: { warn(object: object, message: string): void },
) {
  return async ({ followerId, followeeId, activityId, following }: RemoteFollowChange): Promise<void> => {
    if (!origin) return;
    try {
      const person = await selectShadowPerson(db, followeeId);
      if (!person) return;
      const recipient = { id: new URL(person.iri), inboxId: new URL(person.inbox), endpoints: null };
      const [to] = await withoutRefused(db, [followerId], [recipient]);
      if (!to) return;
      const ctx = federation.createContext(new URL(origin), contextData);
      const actor = ctx.getActorUri(followerId);
      const follow = new Follow({ id: new URL(activityId), actor, object: recipient.id });
      const activity = following ? follow : new Undo({ id: new URL(`${activityId}/undo`), actor, object: follow });
      await ctx.sendActivity({ identifier: followerId }, to, activity);
    } catch (error) {
      log.warn(
        { err: error, followerId, followeeId, following },
        'federation: a Follow (or its Undo) of someone on another server could not be queued',
      );
    }
  };
}

/**
 * Their server's answer to one of our Follows (an `Accept` or a `Reject`), after Fedify verified that its signature
 * is its actor's: only follows of that actor's own shadow account change (actions/following-out.ts). The Follow is
 * named by its id (embedded, as Mastodon and Pixelfed send it, or alone); one embedded without an id is matched by
 * its actor, which must be one of our accounts, and its object, which must be the answering actor. Never fetched:
 * our own Follow's id names nothing a GET answers.
 */
export async function takeFollowAnswer<Data>(
  ctx: InboxContext<Data>,
  db: Db,
  answer: Accept | Reject,
  accepted: boolean,
): Promise<void> {
  const actorIri = answer.actorId;
  if (!actorIri || actorIri.origin === new URL(ctx.origin).origin) return;
  const ours = (id: URL | null) => id?.origin === new URL(ctx.origin).origin;
  let match: { activityId: string } | { followerId: string } | undefined;
  if (answer.objectId) {
    // Only an id of ours names one of our Follows.
    if (ours(answer.objectId)) match = { activityId: answer.objectId.href };
  } else {
    let follow: unknown = null;
    try {
      // No id: the object is embedded (or absent), so nothing is fetched.
      follow = await answer.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader });
    } catch {
      return;
    }
    if (!(follow instanceof Follow) || follow.objectId?.href !== actorIri.href || !ours(follow.actorId)) return;
    const parsed = ctx.parseUri(follow.actorId);
    if (parsed?.type === 'actor' && isUuid(parsed.identifier)) match = { followerId: parsed.identifier.toLowerCase() };
  }
  if (!match) return;
  const named = { actorIri: actorIri.href, ...match };
  await (accepted ? acceptRemoteFollow(db, named) : rejectRemoteFollow(db, named));
}
