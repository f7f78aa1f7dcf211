import { createHash } from 'node:crypto';
import type { InboxContext, InboxListenerSetters } from '@fedify/fedify';
import {
  Accept,
  Announce,
  Block,
  Create,
  Delete,
  Flag,
  Follow,
  isActor,
  Like,
  Link,
  Mention,
  Move,
  Note,
  PUBLIC_COLLECTION,
  Reject,
  Undo,
  Update,
  type Actor,
} from '@fedify/vocab';
import { addRemoteComment, editRemoteComment, removeRemoteComments } from '../../actions/comments.js';
import {
  addRemoteFollow,
  addRemoteReaction,
  moveRemoteFollows,
  removeRemoteActors,
  removeRemoteFollow,
  removeRemoteReaction,
  type RemoteReactionKind,
} from '../../actions/federation.js';
import type { Db } from '../../db/client.js';
import { isUuid } from '../../lib/ids.js';
import { freshLoader } from './federation.kv.js';
import { takeFollowAnswer } from './federation.outbound-follows.js';
import { parseNoteKey } from './federation.objects.js';
import { isSuspendedServer, takeBlock, takeFlag, undoBlock } from './federation.safety.js';
import { replyText } from './federation.reply-text.js';
import { asWorkNote, deleteWork, ownStoredWork, updateWork, type RemoteWorksDeps } from './federation.remote-works.js';
import {
  isRemoteWork,
  selectActor,
  selectFollowedShadow,
  selectLocalAlias,
  selectReplyTarget,
  selectBlocksRemote,
  selectWorkBlocksRemote,
  upsertRemoteActor,
  type RemoteActorFields,
} from './federation.sql.js';

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

/** One of our comments' Notes (`/ap/comments/{id}`, on this server's origin): the comment's id; else undefined. */
function localCommentOf<Data>(ctx: InboxContext<Data>, id: URL): string | undefined {
  if (id.origin !== new URL(ctx.origin).origin) return undefined;
  const match = /^\/ap\/comments\/([^/]+)$/.exec(id.pathname);
  const commentId = match ? decoded(match[1]!).toLowerCase() : '';
  return isUuid(commentId) ? commentId : undefined;
}

/**
 * The work a reply answers, when it may take a comment from another server (selectReplyTarget: public, open to
 * everyone's comments): the work itself (its Note of any generation, or its page), one of our comments on it, or a
 * remote comment on it taken earlier (a reply in the thread).
 */
async function replyTargetOf<Data>(ctx: InboxContext<Data>, db: Db, inReplyTo: URL | null) {
  if (!inReplyTo) return undefined;
  const postId = localWorkOf(ctx, inReplyTo);
  if (postId) return selectReplyTarget(db, { postId });
  const commentId = localCommentOf(ctx, inReplyTo);
  if (commentId) return selectReplyTarget(db, { commentId });
  if (inReplyTo.origin === new URL(ctx.origin).origin || inReplyTo.href.length > MAX_TEXT) return undefined;
  return selectReplyTarget(db, { noteIri: inReplyTo.href });
}

/**
 * The Note a `Create` or an `Update` carries (embedded, as Mastodon and Pixelfed send it, or fetched), when it is
 * its actor's own: `attributedTo` the activity's actor and its id on the actor's host (Mastodon's `invalid_origin?`
 * check), so nobody writes words in another's name. Only a `Note`: Mastodon and Pixelfed write replies as Notes
 * (an `Article` or a `Page` is a post of its own, a blog article or a forum thread). Else null.
 */
async function ownNoteOf<Data>(ctx: InboxContext<Data>, activity: Create | Update): Promise<Note | null> {
  if (!activity.actorId) return null;
  let object: unknown = null;
  try {
    const options = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
    // An `Image` (older Pixelfed's post) is read as a Note with that picture (asWorkNote).
    object = await asWorkNote(await activity.getObject(options), options);
  } catch {
    return null;
  }
  if (!(object instanceof Note) || !object.id || object.id.href.length > MAX_TEXT) return null;
  if (object.attributionId?.href !== activity.actorId.href || object.id.host !== activity.actorId.host) return null;
  return object;
}

/** Whether a Note is addressed to the Public (`to`, or `cc` for Mastodon's "unlisted"): not followers-only, not direct. */
const isPublicNote = (note: Note) => [...note.toIds, ...note.ccIds].some((id) => id.href === PUBLIC_COLLECTION.href);

/** A reply's words as a comment keeps them (replyText), and the page it names (else its id). */
async function replyOf<Data>(ctx: InboxContext<Data>, note: Note): Promise<{ content: string; noteUrl: string }> {
  const noteUrl = hrefOf(note.url) ?? note.id!.href;
  let attachments = 0;
  try {
    for await (const _ of note.getAttachments({
      documentLoader: ctx.documentLoader,
      contextLoader: ctx.contextLoader,
      suppressError: true,
    })) {
      if (++attachments >= 20) break;
    }
  } catch {
    // Attachments that cannot be read are not named.
  }
  const content = replyText(
    {
      html: String(note.content ?? ''),
      summary: note.summary === null ? null : String(note.summary),
      attachments,
      url: noteUrl,
    },
    new URL(ctx.origin).host,
  );
  return { content, noteUrl };
}

/**
 * A reply from another server (a `Create` of a public `Note` answering one of our works, one of our comments, or a
 * remote comment taken earlier): a comment on that work by the remote actor, fetched and kept as a follower is,
 * counted and notified as a local comment (actions/comments.ts). The same Note again is one comment. A reply to
 * anything else, a Note of someone else's or to followers only or direct: no effect.
 */
async function takeReply<Data>(ctx: InboxContext<Data>, db: Db, create: Create, note: Note): Promise<void> {
  const postId = await replyTargetOf(ctx, db, note.replyTargetId);
  if (!postId) return;
  const actor = await create.getActor({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader });
  if (!actor || !isActor(actor) || actor.id?.href !== create.actorId?.href) return;
  const fields = await remoteActorFields(actor, ctx);
  if (!fields) return;
  // A reply in the thread of a work from another server (following out): taken, as Mastodon takes replies in a thread
  // it has, when it concerns someone here (its actor is followed here, or it is addressed to or mentions one of ours).
  if ((await isRemoteWork(db, postId)) && !(await concernsSomeoneHere(ctx, db, create, note))) return;
  const remoteActorId = await upsertRemoteActor(db, fields);
  // Someone the work's artist blocks: nothing is kept (as a blocked person here cannot comment), nor notified.
  if (await selectWorkBlocksRemote(db, postId, remoteActorId)) return;
  await addRemoteComment(db, { postId, remoteActorId, noteIri: note.id!.href, ...(await replyOf(ctx, note)) });
}

/**
 * Whether a reply concerns someone here: its actor is a person someone here follows (their server accepted), or it is
 * addressed to (`to`, `cc`) or mentions (a `Mention` tag) one of our accounts.
 */
async function concernsSomeoneHere<Data>(ctx: InboxContext<Data>, db: Db, create: Create, note: Note) {
  if (await selectFollowedShadow(db, create.actorId!.href)) return true;
  const named: URL[] = [...note.toIds, ...note.ccIds];
  try {
    for await (const tag of note.getTags({
      documentLoader: ctx.documentLoader,
      contextLoader: ctx.contextLoader,
      suppressError: true,
    })) {
      if (tag instanceof Mention && tag.href) named.push(tag.href);
      if (named.length >= 60) break;
    }
  } catch {
    // Tags that cannot be read name nobody.
  }
  const origin = new URL(ctx.origin).origin;
  for (const id of named.slice(0, 60)) {
    if (id.origin === origin && (await localAccountOf(ctx, db, id))) return true;
  }
  return false;
}

/** What a remote person's works need here (following out): the job that takes a Note in, and the works' helpers. */
export interface InboxRemoteWorks {
  deps: RemoteWorksDeps;
  queueWork(job: { noteIri: string; actorIri: string }): Promise<void>;
  removeFiles: RemoteWorksDeps['media']['removeFiles'];
  /**
   * A verified Move of `fromIri` to `to` (the new actor, or an account here that names the old one): the follows of
   * the old account by our accounts become follows of the new one (federation.account-move.ts).
   */
  moved(fromIri: string, to: { actor: Actor } | { userId: string }): Promise<void>;
}

/**
 * A `Create` of a public `Note` (not a reply) by someone whose shadow account a person here follows (accepted by
 * their server): queued for the job `federation.remote-work`, which fetches it and its pictures (following out).
 * From anyone else: nothing (a server cannot push works on people who did not ask for them).
 */
async function takeWorkOf<Data>(
  ctx: InboxContext<Data>,
  db: Db,
  create: Create,
  note: Note,
  works: InboxRemoteWorks,
): Promise<void> {
  if (note.replyTargetId) return;
  const shadow = await selectFollowedShadow(db, create.actorId!.href);
  if (!shadow) return;
  await works.queueWork({ noteIri: note.id!.href, actorIri: create.actorId!.href });
}

/**
 * A `Move` (Mastodon's account migration, its `activity/move.rb`): the Move's actor is the old account and its object
 * that same account; the `target` is fetched afresh (signed, past the cache of the inbox's fetches: freshLoader) and
 * must be an actor whose `alsoKnownAs` names the old one, on a server that is not suspended. Then the new actor is
 * kept as a follower is and the old actor's follows of our artists become its own (actions/federation.ts), and our
 * accounts' follows of the old actor become follows of the new one (works.moved). A target here is one of our
 * accounts that names the old actor among its other accounts (`also_known_as`: someone moving to Share Arts): our
 * accounts' follows of the old actor become follows of it. Anything else: no effect.
 */
async function takeMove<Data>(ctx: InboxContext<Data>, db: Db, move: Move, works: InboxRemoteWorks): Promise<void> {
  const from = move.actorId;
  if (!from || from.origin === new URL(ctx.origin).origin) return;
  if (move.objectId?.href !== from.href || !move.targetId || move.targetId.href === from.href) return;
  if (move.targetId.origin === new URL(ctx.origin).origin) {
    const parsed = ctx.parseUri(move.targetId);
    if (parsed?.type !== 'actor' || !isUuid(parsed.identifier)) return;
    const userId = parsed.identifier.toLowerCase();
    if (await selectLocalAlias(db, userId, from.href)) await works.moved(from.href, { userId });
    return;
  }
  if (await isSuspendedServer(db, [move.targetId])) return;
  let target: unknown;
  try {
    target = await ctx.lookupObject(move.targetId.href, { documentLoader: freshLoader(ctx.documentLoader) });
  } catch {
    return; // A target that cannot be read moves nothing.
  }
  if (!isActor(target) || target.id?.href !== move.targetId.href) return;
  if (!target.aliasIds.some((alias) => alias.href === from.href)) return;
  const fields = await remoteActorFields(target, ctx);
  if (!fields) return;
  await moveRemoteFollows(db, { fromIri: from.href, toActorId: await upsertRemoteActor(db, fields) });
  await works.moved(from.href, { actor: target });
}

/** A work as anyone signed out sees it, or null (the federation's publicWork). */
type PublicWork = (postId: string) => Promise<object | null>;

/**
 * The Accept of a Follow (or its Reject, when the artist blocks the follower: Mastodon's `follow.rb` answers so): its
 * id is made from the Follow's, so a try run again sends the same activity. The Follow is embedded by its ids only
 * (as Mastodon sends it), not with the remote actor fetched into it: what that server wrote is not sent back (a NUL
 * in its name, which the job queue's JSON cannot hold, kept the Accept from being queued at all).
 */
function answerOf<Data>(ctx: InboxContext<Data>, userId: string, follow: Follow, rejected = false): Accept | Reject {
  const id = new URL(ctx.getActorUri(userId));
  const hash = createHash('sha256').update(follow.id!.href).digest('hex').slice(0, 32);
  id.hash = `${rejected ? 'rejects' : 'accepts'}/${hash}`;
  const object = new Follow({ id: follow.id, actor: follow.actorId, object: follow.objectId });
  return new (rejected ? Reject : Accept)({ id, actor: ctx.getActorUri(userId), object });
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
 * - `Create` of a public `Note` replying to one of our public works, or to a comment on one (takeReply): a comment
 *   on the work by the remote actor, counted and notified as a local comment. `Update` of that Note by its own actor
 *   changes its words; `Delete` of it (a Tombstone or its id) by its own actor removes it.
 * - `Delete` of the actor itself: its follows, likes, boosts and comments end and its row goes, with its
 *   notifications, and its shadow account (following out) with its works and their pictures' files.
 * - Following out: `Create` of a public `Note` that answers none of ours, by someone a person here follows (their
 *   server accepted): queued for the job `federation.remote-work` (federation.remote-works.ts), which stores it as a
 *   post of their shadow account when it has pictures. `Update` of such a work by its own actor changes its words,
 *   warning, alt texts (and pictures, fetched again when they changed); its `Delete` (a Tombstone or its id) removes
 *   it with its pictures.
 *
 * - `Block` of an artist by a remote actor: its follow ends and nothing of the artist is delivered to it, until its
 *   `Undo`; `Flag` (a remote server's report): a report in the moderation queue naming the server
 *   (federation.safety.ts). A suspended server's activities never get here (the adapter answers 403), nor a
 *   server's past its rate (429). Someone an artist blocks: their Follow is answered by a Reject and kept nowhere,
 *   their Like and Announce of the artist's works keep nothing (actions/federation.ts).
 * - `Move` of an account to another (takeMove): the new account, fetched afresh, must name the old one; the old one's
 *   follows of our artists become the new one's.
 * - `Accept` or `Reject` of one of our Follows of someone on another server, by that person (takeFollowAnswer): the
 *   follow is accepted, or ends.
 *
 * Anything else is taken and ignored.
 */
export function registerInboxListeners<Data>(
  inbox: InboxListenerSetters<Data>,
  {
    db,
    log,
    publicWork,
    works,
  }: {
    db: Db;
    log: { warn(object: object, message: string): void };
    publicWork: PublicWork;
    works: InboxRemoteWorks;
  },
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
      // Someone the artist blocks (federation.safety.ts): nothing is kept, and their server hears a Reject.
      if (await selectBlocksRemote(db, account.id, remoteActorId)) {
        await ctx.sendActivity({ identifier: account.id }, actor, answerOf(ctx, account.id, follow, true));
        return;
      }
      await addRemoteFollow(db, { userId: account.id, remoteActorId, activityId: follow.id.href });
      await ctx.sendActivity({ identifier: account.id }, actor, answerOf(ctx, account.id, follow));
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
    .on(Create, async (ctx, create) => {
      if (!create.actorId || create.actorId.origin === new URL(ctx.origin).origin) return;
      if (await isSuspendedServer(db, [create.actorId])) return;
      const note = await ownNoteOf(ctx, create);
      if (!note || !isPublicNote(note)) return;
      // A reply to one of ours stays a comment; anything else may be a followed person's work.
      if (note.replyTargetId && (await replyTargetOf(ctx, db, note.replyTargetId))) {
        await takeReply(ctx, db, create, note);
        return;
      }
      await takeWorkOf(ctx, db, create, note, works);
    })
    .on(Move, (ctx, move) => takeMove(ctx, db, move, works))
    // Following out: their server's answer to one of our Follows (federation.outbound-follows.ts).
    .on(Accept, (ctx, accept) => takeFollowAnswer(ctx, db, accept, true))
    .on(Reject, (ctx, reject) => takeFollowAnswer(ctx, db, reject, false))
    .on(Update, async (ctx, update) => {
      // A reply's edit: only of a comment of the Note's own actor (editRemoteComment matches both).
      const note = await ownNoteOf(ctx, update);
      if (!note) return;
      // A followed person's work (following out): only its own actor's (the actor that wrote it) changes it.
      const work = await ownStoredWork(db, note.id!.href, update.actorId!.href);
      if (work) {
        if (!(await isSuspendedServer(db, [update.actorId!]))) await updateWork(works.deps, work, note);
        return;
      }
      const { content } = await replyOf(ctx, note);
      await editRemoteComment(db, { actorIri: update.actorId!.href, noteIri: note.id!.href, content });
    })
    .on(Delete, async (_ctx, deletion) => {
      if (!deletion.actorId || !deletion.objectId) return;
      if (deletion.objectId.href === deletion.actorId.href) {
        const { files } = await removeRemoteActors(db, [deletion.actorId.href]);
        // Their shadow account's pictures, once its rows are gone.
        await works.removeFiles(files.map((file) => ({ originalFile: file.original_file, variants: file.variants })));
        return;
      }
      // A work of theirs (following out): only its own actor deletes it, with its pictures.
      const work = await ownStoredWork(db, deletion.objectId.href, deletion.actorId.href);
      if (work) {
        await deleteWork(works.deps, work);
        return;
      }
      // A Note of theirs (a Tombstone, or its id): the comment it was, if it was this actor's own.
      await removeRemoteComments(db, { actorIris: [deletion.actorId.href], noteIri: deletion.objectId.href });
    })
    .onError((_ctx, error) => {
      log.warn({ err: error }, 'federation: an activity taken in failed; the job queue tries it again');
    });
}
