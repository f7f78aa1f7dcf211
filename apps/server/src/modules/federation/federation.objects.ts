import type { Context } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import {
  Create,
  Delete,
  Endpoints,
  Hashtag,
  Image,
  LanguageString,
  Link,
  Mention,
  Note,
  Person,
  PropertyValue,
  PUBLIC_COLLECTION,
  Tombstone,
  Update,
  type CryptographicKey,
  type Multikey,
} from '@fedify/vocab';
import { APP_NAME, LICENCE_INFO, type Picture, type Post } from '@share-arts/contract';
import { extractHashtags } from '../../lib/hashtags.js';
import { escapeHtml, textHtml, type TextLinks } from '../../lib/text-html.js';
import type { ActorRow, CommentRow } from './federation.sql.js';

/** Mastodon shows this many of a status's attachments; the rest are named by the "+N more" paragraph. */
export const MASTODON_ATTACHMENTS = 4;
/** The longest side a picture sent out may have (issue 39): Pixelfed and Mastodon take up to this. */
const MAX_SIDE = 4096;

const instant = (time: string | Date) => Temporal.Instant.from(new Date(time).toISOString());

/** Where our pages are: a profile at `/<username>`, a work at `/posts/{id}`, a tag at `/tags/{tag}`. */
export const pages = (origin: string) => ({
  profile: (username: string) => new URL(`/${encodeURIComponent(username)}`, origin),
  post: (postId: string) => new URL(`/posts/${postId}`, origin),
  tag: (tag: string) => new URL(`/tags/${encodeURIComponent(tag)}`, origin),
});

/** A URL the app hands out (root-relative for the media folder, absolute for a bucket), absolute. */
const absolute = (url: string, origin: string) => new URL(url, origin);

const nameOf = (row: Pick<ActorRow, 'first_name' | 'last_name' | 'username'>) =>
  `${row.first_name} ${row.last_name}`.trim() || row.username;

/** The media type of an avatar's file by its extension (its variants are JPEG; the default is a PNG). */
const imageTypeOf = (url: string) =>
  /\.png$/i.test(url)
    ? 'image/png'
    : /\.gif$/i.test(url)
      ? 'image/gif'
      : /\.webp$/i.test(url)
        ? 'image/webp'
        : 'image/jpeg';

/** A profile's link, shown as Mastodon's profile fields show one: `rel="me"` lets it verify the link back. */
function linkField(link: string): PropertyValue | null {
  const trimmed = link.trim();
  if (!trimmed) return null;
  const isWeb = /^https?:\/\//i.test(trimmed);
  const shown = escapeHtml(trimmed.replace(/^https?:\/\//i, '').replace(/\/$/, ''));
  const value = isWeb
    ? `<a href="${escapeHtml(trimmed)}" rel="me nofollow noopener" target="_blank">${shown}</a>`
    : escapeHtml(trimmed);
  return new PropertyValue({ name: 'Website', value });
}

/** The account as an ActivityPub actor (a Person), with its key pairs (RSA first). */
export function toPerson(
  ctx: Context<unknown>,
  row: ActorRow,
  keys: { cryptographicKey: CryptographicKey; multikey: Multikey }[],
  links: TextLinks,
): Person {
  const at = pages(ctx.origin);
  const field = linkField(row.link);
  return new Person({
    id: ctx.getActorUri(row.id),
    preferredUsername: row.username,
    name: nameOf(row),
    summary: row.bio.trim() ? textHtml(row.bio, links) : null,
    url: new Link({
      href: at.profile(row.username),
      mediaType: 'text/html',
      rel: 'http://webfinger.net/rel/profile-page',
    }),
    icon: row.photo_url
      ? new Image({ url: absolute(row.photo_url, ctx.origin), mediaType: imageTypeOf(row.photo_url) })
      : null,
    attachments: field ? [field] : [],
    inbox: ctx.getInboxUri(row.id),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    outbox: ctx.getOutboxUri(row.id),
    followers: ctx.getFollowersUri(row.id),
    following: ctx.getFollowingUri(row.id),
    featured: ctx.getFeaturedUri(row.id),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
    // Works shown to signed-in people only: not suggested, and nothing of theirs to index.
    discoverable: !row.works_signed_in_only,
    // "Ask AI crawlers not to train on my work" (issue 23) travels with the actor.
    indexable: !row.ai_training_opt_out && !row.works_signed_in_only,
    manuallyApprovesFollowers: false,
    published: instant(row.created_at),
    // The artist's other accounts (Mastodon's "account aliases"): a server moves an old account's followers here
    // only when this names it.
    aliases: row.also_known_as.flatMap((iri) => URL.parse(iri) ?? []),
    // The account it moved to (issue 40, moving away): Mastodon shows the move and its followers' servers follow it.
    successor: row.moved_to_local_id
      ? ctx.getActorUri(row.moved_to_local_id)
      : row.moved_to_iri
        ? (URL.parse(row.moved_to_iri) ?? null)
        : null,
  });
}

/** A picture's file as it goes out: its URL, media type and its own size. */
interface OutgoingFile {
  url: string;
  mediaType: 'image/jpeg' | 'image/png' | 'image/gif';
  width: number;
  height: number;
}

/**
 * The file a picture goes out as (never AVIF or WebP, which Pixelfed refuses, and never the original with its
 * metadata), with its own size: pixel art's lossless PNG or an animation's animated GIF, when the media pipeline
 * wrote one (`federated`, at most 1,080 px); else the widest sRGB still JPEG variant of at most 4,096 px (for a
 * picture uploaded before those renditions were written, its nearest-neighbour JPEG or its still first frame).
 */
export function outgoingFile(picture: Picture): OutgoingFile | undefined {
  const { federated } = picture;
  if (federated && Math.max(federated.width, federated.height) <= MAX_SIDE) {
    return { url: federated.url, mediaType: federated.type, width: federated.width, height: federated.height };
  }
  const jpeg = picture.sources.find((source) => source.type === 'image/jpeg' && !source.media);
  const candidates = (jpeg?.srcset ?? '')
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/))
    .map(([url, width]) => ({ url: url!, width: Number.parseInt(width ?? '', 10) }))
    .filter(({ url, width }) => url && Number.isFinite(width) && width > 0);
  const ratio = picture.width > 0 ? picture.height / picture.width : 1;
  const fits = candidates.filter(({ width }) => Math.max(width, Math.round(width * ratio)) <= MAX_SIDE);
  const chosen = fits.sort((a, b) => b.width - a.width)[0];
  if (!chosen) return undefined;
  return { url: chosen.url, mediaType: 'image/jpeg', width: chosen.width, height: Math.round(chosen.width * ratio) };
}

/** The work's words as HTML, "+N more" for a Mastodon reader when it has more pictures than shown, its licence. */
function contentOf(post: Post, origin: string, links: TextLinks): string {
  const at = pages(origin);
  const parts = [textHtml(post.content, links)];
  const more = post.media.length - MASTODON_ATTACHMENTS;
  if (more > 0) {
    const href = escapeHtml(at.post(post._id).href);
    parts.push(`<p><a href="${href}">+${more} more on ${APP_NAME}</a></p>`);
  }
  const licence = LICENCE_INFO[post.licence];
  parts.push(
    licence.url
      ? `<p>Licence: <a href="${escapeHtml(licence.url)}" rel="license">${escapeHtml(licence.name)}</a></p>`
      : `<p>${escapeHtml(licence.name)}</p>`,
  );
  return parts.join('');
}

/**
 * A work's Note id: `/ap/posts/{id}`, or `/ap/posts/{id}.{generation}` once it was withdrawn (its Delete sent) and
 * is public again: Mastodon keeps a Tombstone of a deleted id and refuses its Create for good.
 */
export function noteIdOf(ctx: Context<unknown>, postId: string, generation: number): URL {
  return ctx.getObjectUri(Note, { id: generation > 0 ? `${postId}.${generation}` : postId });
}

/** The post and the generation a Note id's `{id}` names (none named: the current one); undefined for others. */
export function parseNoteKey(key: string): { postId: string; generation: number | undefined } | undefined {
  const found = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.([1-9][0-9]{0,8}))?$/i.exec(key);
  if (!found) return undefined;
  return { postId: found[1]!.toLowerCase(), generation: found[2] === undefined ? undefined : Number(found[2]) };
}

/** A text's `#tags` as `Hashtag`s and its mentions of local accounts as `Mention`s. */
function tagsOf(ctx: Context<unknown>, text: string, mentioned: { id: string; username: string }[]) {
  const at = pages(ctx.origin);
  const host = new URL(ctx.origin).host;
  const hashtags = extractHashtags(text).map((tag) => new Hashtag({ href: at.tag(tag), name: `#${tag}` }));
  const mentions = mentioned.map(
    (account) => new Mention({ href: ctx.getActorUri(account.id), name: `@${account.username}@${host}` }),
  );
  return [...hashtags, ...mentions];
}

/**
 * A work's words as a Note's content: with the language its author said (issue 43), the same HTML as `contentMap`
 * under that language beside `content` (Mastodon and Pixelfed take the language from contentMap's key; a reader
 * that knows no contentMap reads `content`); without one, `content` alone.
 */
function contentsOf(html: string, language: string | null): (string | LanguageString)[] {
  return language ? [html, new LanguageString(html, language)] : [html];
}

/**
 * A work as a Note: to Public and cc the author's followers, its words as HTML with its tags and mentions as
 * links and as `Hashtag`/`Mention` tags (and their language as `contentMap`, when said), a content warning as
 * `summary` with `sensitive: true` (always both: Pixelfed keeps the warning only when `sensitive` is true), and
 * every picture an `Image` with its alt text as `name` (all of them: Pixelfed shows up to 20, Mastodon the first 4).
 */
export function toNote(
  ctx: Context<unknown>,
  post: Post,
  mentioned: { id: string; username: string }[],
  links: TextLinks,
  generation = 0,
): Note {
  const at = pages(ctx.origin);
  const attachments = post.media.flatMap((picture) => {
    const file = outgoingFile(picture);
    if (!file) return [];
    return [
      new Image({
        url: absolute(file.url, ctx.origin),
        mediaType: file.mediaType,
        name: picture.alt.trim() || null,
        width: file.width,
        height: file.height,
      }),
    ];
  });
  return new Note({
    id: noteIdOf(ctx, post._id, generation),
    attribution: ctx.getActorUri(post.userId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(post.userId),
    published: instant(post.createdAt),
    // When an edit last changed it (issue 41: Mastodon shows "edited" from it); before migration 0045, the last write.
    updated: post.editedAt
      ? instant(post.editedAt)
      : post.updatedAt !== post.createdAt
        ? instant(post.updatedAt)
        : null,
    url: at.post(post._id),
    contents: contentsOf(contentOf(post, ctx.origin, links), post.language),
    sensitive: post.contentWarning !== null,
    summary: post.contentWarning,
    tags: tagsOf(ctx, post.content, mentioned),
    attachments,
  });
}

/** An activity's id: the object's id with `fragment` (`…#create`, `…#delete`, `…#update-…`). */
function activityId(objectId: URL | null, fragment: string): URL {
  const id = new URL(objectId!);
  id.hash = fragment;
  return id;
}

/** An Update's fragment: the version's hash and when it was sent (a version seen again is a new Update). */
const updateFragment = (hash: string) => `update-${hash.slice(0, 16)}-${Date.now().toString(36)}`;

/** The Create of a work, as its author's outbox lists it: `…/ap/posts/{id}#create`. */
export function toCreate(ctx: Context<unknown>, note: Note, post: Post): Create {
  return new Create({
    id: activityId(note.id, 'create'),
    actor: ctx.getActorUri(post.userId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(post.userId),
    published: instant(post.createdAt),
    object: note,
  });
}

/** The Update of an edited work (issue 39, part 2): `…/ap/posts/{id}#update-<the Note's hash>-<time>`. */
export function toUpdate(ctx: Context<unknown>, note: Note, post: Post, noteHash: string): Update {
  return new Update({
    id: activityId(note.id, updateFragment(noteHash)),
    actor: ctx.getActorUri(post.userId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(post.userId),
    updated: instant(post.updatedAt),
    object: note,
  });
}

/**
 * The Delete of a Note no longer public (a work deleted, removed or hidden by moderation, or shown to signed-in
 * people only; a comment deleted or no longer shown): a Tombstone of its id, `…#delete`, from its author.
 */
export function toDelete(ctx: Context<unknown>, noteId: URL, authorId: string): Delete {
  return new Delete({
    id: activityId(noteId, 'delete'),
    actor: ctx.getActorUri(authorId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(authorId),
    object: new Tombstone({ id: noteId }),
  });
}

/**
 * The route of a comment's Note, `/ap/comments/{id}` (issue 39). Fedify keys an object dispatcher by its class,
 * and a work's Note has the Note route: this class only names the other one (what it serves is a plain Note).
 */
export class CommentNote extends Note {
  static override get typeId(): URL {
    return new URL('urn:share-arts:comment-note');
  }
}

/**
 * A comment on a public work as a reply: a Note `inReplyTo` the work's Note, to Public and cc the commenter's
 * followers and the work's author (Mastodon's addressing of a public reply), its words as HTML with their tags and
 * mentions, `url` the work's comments.
 */
export function toCommentNote(
  ctx: Context<unknown>,
  comment: CommentRow,
  replyTo: URL,
  mentioned: { id: string; username: string }[],
  links: TextLinks,
): Note {
  const cc: URL[] = [ctx.getFollowersUri(comment.author_id)];
  // A work from another server (issue 39): its author there is addressed and mentioned (a `Mention` tag is what makes
  // Mastodon notify them of the reply), as Mastodon addresses a reply to someone else's status.
  const remoteAuthor = comment.post_author_iri ? new URL(comment.post_author_iri) : null;
  if (remoteAuthor) cc.push(remoteAuthor);
  else if (comment.post_author_id !== comment.author_id) cc.push(ctx.getActorUri(comment.post_author_id));
  const url = pages(ctx.origin).post(comment.post_id);
  url.hash = 'comments';
  const tags = tagsOf(ctx, comment.content, mentioned);
  if (remoteAuthor)
    tags.push(new Mention({ href: remoteAuthor, name: `@${comment.post_author_handle ?? remoteAuthor.host}` }));
  return new Note({
    id: ctx.getObjectUri(CommentNote, { id: comment.id }),
    attribution: ctx.getActorUri(comment.author_id),
    replyTarget: replyTo,
    to: PUBLIC_COLLECTION,
    ccs: cc,
    published: instant(comment.created_at),
    updated: comment.edited ? instant(comment.updated_at) : null,
    url,
    content: textHtml(comment.content, links),
    tags,
  });
}

/** The Create of a comment's Note: `…/ap/comments/{id}#create`, addressed as the Note is. */
export function toCommentCreate(ctx: Context<unknown>, note: Note, comment: CommentRow): Create {
  return new Create({
    id: activityId(note.id, 'create'),
    actor: ctx.getActorUri(comment.author_id),
    to: PUBLIC_COLLECTION,
    ccs: [...note.ccIds],
    published: instant(comment.created_at),
    object: note,
  });
}

/** The Update of an edited comment's Note. */
export function toCommentUpdate(ctx: Context<unknown>, note: Note, comment: CommentRow, noteHash: string): Update {
  return new Update({
    id: activityId(note.id, updateFragment(noteHash)),
    actor: ctx.getActorUri(comment.author_id),
    to: PUBLIC_COLLECTION,
    ccs: [...note.ccIds],
    updated: instant(comment.updated_at),
    object: note,
  });
}

/**
 * The Update of an actor whose profile changed (`…/ap/users/{uuid}#update-…`), the Person embedded: Mastodon takes
 * the new name, bio, avatar, fields, `discoverable` and `indexable` from it, and reads the featured collection again.
 */
export function toPersonUpdate(ctx: Context<unknown>, person: Person, userId: string, personHash: string): Update {
  return new Update({
    id: activityId(ctx.getActorUri(userId), updateFragment(personHash)),
    actor: ctx.getActorUri(userId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(userId),
    object: person,
  });
}

/** The Delete of an account's actor (`…/ap/users/{uuid}#delete`): its object is the actor's id itself. */
export function toActorDelete(ctx: Context<unknown>, userId: string): Delete {
  return new Delete({
    id: activityId(ctx.getActorUri(userId), 'delete'),
    actor: ctx.getActorUri(userId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(userId),
    object: ctx.getActorUri(userId),
  });
}
