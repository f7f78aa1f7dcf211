import type { Federation, InboxContext } from '@fedify/fedify';
import { Block, Follow, Undo, type Flag } from '@fedify/vocab';
import { MODERATION_LIMITS } from '@share-arts/contract';
import { addRemoteBlock, addRemoteReports, removeRemoteBlock } from '../../actions/federation.js';
import type { Db } from '../../db/client.js';
import { isUuid } from '../../lib/ids.js';
import { domainsCovering } from '../../lib/server-domains.js';
import { parseNoteKey } from './federation.objects.js';
import {
  selectActor,
  selectDeliveryExclusions,
  selectExistingTargets,
  selectMediaRejectedAmong,
  selectSuspendedAmong,
} from './federation.sql.js';

/**
 * Safety across servers (issue 39, docs/federation.md "Blocking a server" and "What else keeps people safe across
 * servers"): the hosts an inbox POST comes from (for the suspended servers' 403 and the rate per server's 429), what
 * is not delivered to a suspended server or to a remote actor who blocks one of our artists or whom one blocks, the
 * inbound `Block` and `Flag`, and an artist's own Block of a remote person sent out.
 */

/** The most objects of a `Flag` looked at (Mastodon names the account and the few posts reported). */
const FLAG_OBJECTS_MAX = 20;

/** The hosts a request to an inbox comes from: its activity's actor and its signature's key (each may be absent). */
export function requestHosts(body: Buffer, headers: Headers): string[] {
  const hosts = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value !== 'string') return;
    try {
      hosts.add(new URL(value).hostname);
    } catch {
      // Not a URL: Fedify refuses the request anyway.
    }
  };
  // draft-cavage's `Signature: keyId="…"`, RFC 9421's `Signature-Input: sig1=(…);keyid="…"`.
  for (const name of ['signature', 'signature-input']) {
    for (const found of (headers.get(name) ?? '').matchAll(/keyid="([^"]{1,2000})"/gi)) add(found[1]);
  }
  try {
    const json: unknown = JSON.parse(body.toString('utf8'));
    if (json && typeof json === 'object' && 'actor' in json) {
      const actor = (json as { actor: unknown }).actor;
      for (const each of Array.isArray(actor) ? actor.slice(0, 5) : [actor]) {
        add(each && typeof each === 'object' && 'id' in each ? (each as { id: unknown }).id : each);
      }
    }
  } catch {
    // Not JSON: Fedify answers it.
  }
  return [...hosts];
}

/** Whether any of these hosts is on a suspended server (a block covers the domain's subdomains). */
export async function isSuspendedServer(db: Db, hosts: (string | URL)[]): Promise<boolean> {
  const domains = hosts.flatMap((host) => domainsCovering(host instanceof URL ? host.hostname : host));
  return selectSuspendedAmong(db, [...new Set(domains)]);
}

/**
 * Whether a moderator chose not to take this host's pictures (`reject_media`, covering subdomains): its works are not
 * taken in (docs/federation.md "Blocking a server": a picture site keeps no work without its pictures).
 */
export async function isMediaRejectedServer(db: Db, host: string | URL): Promise<boolean> {
  return selectMediaRejectedAmong(db, domainsCovering(host instanceof URL ? host.hostname : host));
}

/** The delivery recipients left once those on a suspended server, or blocking one of `userIds`, are taken out. */
export async function withoutRefused<R extends { id: URL | null; inboxId: URL | null; endpoints?: unknown }>(
  db: Db,
  userIds: string[],
  recipients: R[],
): Promise<R[]> {
  if (recipients.length === 0) return recipients;
  const { domains, blockers } = await selectDeliveryExclusions(db, userIds);
  if (domains.length === 0 && blockers.length === 0) return recipients;
  const suspended = new Set(domains);
  const blocking = new Set(blockers);
  const onSuspended = (url: URL | null | undefined) =>
    !!url && domainsCovering(url.hostname).some((domain) => suspended.has(domain));
  return recipients.filter((recipient) => {
    if (recipient.id && blocking.has(recipient.id.href)) return false;
    const shared = (recipient.endpoints as { sharedInbox?: URL | null } | null | undefined)?.sharedInbox;
    return !onSuspended(recipient.id) && !onSuspended(recipient.inboxId) && !onSuspended(shared);
  });
}

/** The local account an actor id of ours names, when it is there and not suspended. */
async function localAccountOf<Data>(ctx: InboxContext<Data>, db: Db, id: URL | null) {
  if (!id) return undefined;
  const parsed = ctx.parseUri(id);
  if (parsed?.type !== 'actor' || !isUuid(parsed.identifier)) return undefined;
  return selectActor(db, parsed.identifier);
}

/**
 * A remote actor's `Block` of one of our artists: kept, and its follow of the artist ends; nothing of the artist is
 * delivered to it any more (withoutRefused), until its `Undo`. A Block of anything else: no effect.
 */
export async function takeBlock<Data>(ctx: InboxContext<Data>, db: Db, block: Block): Promise<void> {
  if (!block.id || !block.actorId || block.actorId.origin === new URL(ctx.origin).origin) return;
  const account = await localAccountOf(ctx, db, block.objectId);
  if (!account) return;
  await addRemoteBlock(db, { userId: account.id, actorIri: block.actorId.href, activityId: block.id.href });
}

/** The `Undo` of a Block (embedded, or only its id: `object` null): the block is lifted. */
export async function undoBlock<Data>(ctx: InboxContext<Data>, db: Db, undo: Undo, object: Block | null) {
  if (!undo.actorId) return 0;
  if (object) {
    if (object.actorId?.href !== undo.actorId.href) return 0;
    const account = await localAccountOf(ctx, db, object.objectId);
    return removeRemoteBlock(db, {
      actorIri: undo.actorId.href,
      ...(account ? { userId: account.id } : { activityId: object.id?.href }),
    });
  }
  return undo.objectId ? removeRemoteBlock(db, { actorIri: undo.actorId.href, activityId: undo.objectId.href }) : 0;
}

/** An artist's block of someone on another server, or its lifting (the safety module's `remoteBlockChanged`). */
export interface RemoteBlockChange {
  userId: string;
  actor: { iri: string; inbox: string };
  blockId: string;
  blocked: boolean;
  /** The artist's follow of them that the block ended (following out): the id of its Follow, undone first. */
  endedFollowId?: string;
}

/**
 * Sends an artist's `Block` of someone on another server, or its `Undo` (the Block embedded with its id, actor and
 * object, which Mastodon's `undo_block` reads), signed by the artist's key, to that person's own inbox (not their
 * server's shared inbox: the Block is for them), through the delivery queue. Mastodon, receiving the Block, ends their
 * follow of the artist and hides the artist from them. Deliveries need PUBLIC_ORIGIN: without it nothing is sent.
 */
export function remoteBlockSender<Data>(federation: Federation<Data>, origin: string | undefined, contextData: Data) {
  return async ({ userId, actor, blockId, blocked, endedFollowId }: RemoteBlockChange): Promise<void> => {
    if (!origin) return;
    const ctx = federation.createContext(new URL(origin), contextData);
    const artist = ctx.getActorUri(userId);
    const recipient = { id: new URL(actor.iri), inboxId: new URL(actor.inbox) };
    if (endedFollowId) {
      // The artist's follow of them ends with the block (Mastodon's block unfollows): its Undo, queued before the Block.
      const follow = new Follow({ id: new URL(endedFollowId), actor: artist, object: recipient.id });
      const undo = new Undo({ id: new URL(`${endedFollowId}/undo`), actor: artist, object: follow });
      await ctx.sendActivity({ identifier: userId }, recipient, undo);
    }
    const block = new Block({
      id: new URL(`${artist.href}#blocks/${blockId}`),
      actor: artist,
      object: new URL(actor.iri),
    });
    const activity = blocked
      ? block
      : new Undo({ id: new URL(`${artist.href}#blocks/${blockId}/undo`), actor: artist, object: block });
    await ctx.sendActivity({ identifier: userId }, recipient, activity);
  };
}

/** A remote server's words as a report's note: no markup, no control characters, at most the note's length. */
function noteOf(content: unknown): string {
  const text = String(content ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(
      /&(lt|gt|amp|quot|#39);/g,
      (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'" })[name]!,
    )
    .replace(/(?![\n\u200d])[\p{Cc}\p{Cf}\p{Co}]/gu, '')
    .replace(/[^\S\n]+/g, ' ')
    .trim();
  return [...text].slice(0, MODERATION_LIMITS.noteMax).join('');
}

/**
 * A `Flag` (a report by a remote server's moderators): each object that is one of our accounts, works (`/ap/posts/…`)
 * or comments (`/ap/comments/…`), and is there, becomes an open report in the moderation queue naming the server (its
 * actor's domain), the Flag's `content` as its note; at most one open report per server and target. Objects that are
 * not ours, or not there: no effect.
 */
export async function takeFlag<Data>(ctx: InboxContext<Data>, db: Db, flag: Flag): Promise<void> {
  if (!flag.actorId || flag.actorId.origin === new URL(ctx.origin).origin) return;
  const origin = new URL(ctx.origin).origin;
  const users = new Set<string>();
  const posts = new Set<string>();
  const comments = new Set<string>();
  for (const id of flag.objectIds.slice(0, FLAG_OBJECTS_MAX)) {
    if (id.origin !== origin) continue;
    const parsed = ctx.parseUri(id);
    if (parsed?.type === 'actor' && isUuid(parsed.identifier)) {
      users.add(parsed.identifier.toLowerCase());
      continue;
    }
    const note = /^\/ap\/posts\/([^/]+)$/.exec(id.pathname);
    const postId = note ? parseNoteKey(decodeURIComponentSafe(note[1]!))?.postId : undefined;
    if (postId) posts.add(postId);
    const comment = /^\/ap\/comments\/([^/]+)$/.exec(id.pathname)?.[1];
    if (comment && isUuid(comment)) comments.add(comment.toLowerCase());
  }
  const targets: { type: 'post' | 'comment' | 'user'; id: string }[] = [];
  for (const userId of users) if (await selectActor(db, userId)) targets.push({ type: 'user', id: userId });
  if (posts.size + comments.size > 0) targets.push(...(await selectExistingTargets(db, [...posts], [...comments])));
  if (targets.length === 0) return;
  await addRemoteReports(db, { domain: flag.actorId.hostname, note: noteOf(flag.content), targets });
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
