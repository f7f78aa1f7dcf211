import type { Context } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import {
  Create,
  Delete,
  Endpoints,
  Hashtag,
  Image,
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
import { escapeHtml, textHtml, type TextLinks } from './federation.html.js';
import type { ActorRow } from './federation.sql.js';

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
  });
}

/**
 * The file a picture goes out as: the widest sRGB still JPEG variant of at most 4,096 px (never AVIF or WebP,
 * which Pixelfed refuses, and never the original with its metadata), with its own size. The media pipeline
 * writes no PNG or GIF: pixel art goes as its nearest-neighbour JPEG, an animation as its still first frame.
 */
export function outgoingFile(picture: Picture): { url: string; width: number; height: number } | undefined {
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
  return { url: chosen.url, width: chosen.width, height: Math.round(chosen.width * ratio) };
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
 * A work as a Note: to Public and cc the author's followers, its words as HTML with its tags and mentions as
 * links and as `Hashtag`/`Mention` tags, a content warning as `summary` with `sensitive: true` (always both:
 * Pixelfed keeps the warning only when `sensitive` is true), and every picture an `Image` with its alt text
 * as `name` (all of them: Pixelfed shows up to 20, Mastodon the first 4).
 */
export function toNote(
  ctx: Context<unknown>,
  post: Post,
  mentioned: { id: string; username: string }[],
  links: TextLinks,
): Note {
  const at = pages(ctx.origin);
  const host = new URL(ctx.origin).host;
  const hashtags = extractHashtags(post.content).map((tag) => new Hashtag({ href: at.tag(tag), name: `#${tag}` }));
  const mentions = mentioned.map(
    (account) => new Mention({ href: ctx.getActorUri(account.id), name: `@${account.username}@${host}` }),
  );
  const attachments = post.media.flatMap((picture) => {
    const file = outgoingFile(picture);
    if (!file) return [];
    return [
      new Image({
        url: absolute(file.url, ctx.origin),
        mediaType: 'image/jpeg',
        name: picture.alt.trim() || null,
        width: file.width,
        height: file.height,
      }),
    ];
  });
  return new Note({
    id: ctx.getObjectUri(Note, { id: post._id }),
    attribution: ctx.getActorUri(post.userId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(post.userId),
    published: instant(post.createdAt),
    updated: post.updatedAt !== post.createdAt ? instant(post.updatedAt) : null,
    url: at.post(post._id),
    content: contentOf(post, ctx.origin, links),
    sensitive: post.contentWarning !== null,
    summary: post.contentWarning,
    tags: [...hashtags, ...mentions],
    attachments,
  });
}

/** The Create of a work, as its author's outbox lists it: `…/ap/posts/{id}#create`. */
export function toCreate(ctx: Context<unknown>, note: Note, post: Post): Create {
  const id = new URL(ctx.getObjectUri(Note, { id: post._id }));
  id.hash = 'create';
  return new Create({
    id,
    actor: ctx.getActorUri(post.userId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(post.userId),
    published: instant(post.createdAt),
    object: note,
  });
}

/** The Update of an edited work (issue 39, part 2): `…/ap/posts/{id}#update-<the Note's hash>`, one per version. */
export function toUpdate(ctx: Context<unknown>, note: Note, post: Post, noteHash: string): Update {
  const id = new URL(ctx.getObjectUri(Note, { id: post._id }));
  id.hash = `update-${noteHash.slice(0, 16)}`;
  return new Update({
    id,
    actor: ctx.getActorUri(post.userId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(post.userId),
    updated: instant(post.updatedAt),
    object: note,
  });
}

/**
 * The Delete of a work no longer public (deleted, removed or hidden by moderation): its Note as a Tombstone,
 * `…/ap/posts/{id}#delete`.
 */
export function toDelete(ctx: Context<unknown>, postId: string, authorId: string): Delete {
  const noteId = ctx.getObjectUri(Note, { id: postId });
  const id = new URL(noteId);
  id.hash = 'delete';
  return new Delete({
    id,
    actor: ctx.getActorUri(authorId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(authorId),
    object: new Tombstone({ id: noteId }),
  });
}
