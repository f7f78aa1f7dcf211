import type { Federation } from '@fedify/fedify';
import { Like, Undo } from '@fedify/vocab';
import type { Db } from '../../db/client.js';
import type { RemoteLikeChange } from '../posts/index.js';
import { withoutRefused } from './federation.safety.js';
import { selectRemoteWorkAuthor } from './federation.sql.js';

/**
 * A like of a work from another server (issue 39, following out), or its undoing (the heart's "unlike"), sent to
 * the work's author's own inbox as a `Like` of its Note, or the `Undo` of that Like (embedded, which Mastodon's
 * `undo_like` and Pixelfed's inbox match by its object and actor), signed by the liker's key, through the delivery
 * queue; the posts module's `remoteLikeChanged` port. The Like's id is the liker's actor with the work and the
 * like's time (`#likes/{postId}/{ms}`): a new like is a new id (a server that remembers the ids it has seen would
 * drop a second Like under an old one), and its Undo names the same. Nothing goes to a suspended server or to someone
 * who blocks the liker. The like is counted here already: one that cannot be queued is logged.
 */
export function remoteLikeSender<Data>(
  federation: Federation<Data>,
  db: Db,
  origin: string | undefined,
  contextData: Data,
  log: { warn(object: object, message: string): void },
) {
  return async ({ userId, postId, noteIri, likeKey, liked }: RemoteLikeChange): Promise<void> => {
    if (!origin) return;
    try {
      const author = await selectRemoteWorkAuthor(db, postId);
      if (!author) return;
      const recipient = { id: new URL(author.iri), inboxId: new URL(author.inbox), endpoints: null };
      const [to] = await withoutRefused(db, [userId], [recipient]);
      if (!to) return;
      const ctx = federation.createContext(new URL(origin), contextData);
      const actor = ctx.getActorUri(userId);
      const like = new Like({
        id: new URL(`${actor.href}#likes/${postId}/${likeKey}`),
        actor,
        object: new URL(noteIri),
      });
      const activity = liked ? like : new Undo({ id: new URL(`${like.id!.href}/undo`), actor, object: like });
      await ctx.sendActivity({ identifier: userId }, to, activity);
    } catch (error) {
      log.warn({ err: error, userId, postId, liked }, 'federation: a Like (or its Undo) could not be queued');
    }
  };
}
