import { hash } from 'node:crypto';
import { ERRORS, type Post } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/http-error.js';
import type { PostsService } from '../posts/index.js';
import { element, htmlText, textElement } from './atom.xml.js';
import { selectFeedAuthor, type FeedAuthorRow } from './atom.sql.js';

/** How many of the artist's newest works a feed holds. */
export const FEED_ENTRIES = 30;
const TITLE_WORDS = 10;

/** The feed's own path: stable, under /api so no page or file can take it. */
export const feedPath = (username: string) => `/api/users/${encodeURIComponent(username)}/feed.atom`;

export interface AtomFeed {
  xml: string;
  /** The newest change among the entries (or the account's creation): Last-Modified. */
  updated: Date;
  /** A strong validator of the document's bytes. */
  etag: string;
}

function entryTitle(post: Post): string {
  const words = post.content.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'Untitled work';
  return words.length > TITLE_WORDS ? `${words.slice(0, TITLE_WORDS).join(' ')}…` : words.join(' ');
}

const displayName = (author: FeedAuthorRow) =>
  `${author.first_name} ${author.last_name}`.trim() || `@${author.username}`;

/**
 * An entry's content: its text as paragraphs (line breaks kept) and its pictures at the large (1080 px)
 * variant with their alt text, written as HTML whose every text and attribute is escaped. The feed then
 * escapes that HTML once more as the text of <content type="html">. A warned work's entry names the warning
 * first and links to the post instead of showing its pictures: a reader has no way to cover them.
 */
function entryHtml(post: Post, absolute: (path: string) => string): string {
  const link = htmlText(absolute(`/posts/${post._id}`));
  const paragraphs = post.content
    .trim()
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${paragraph.split('\n').map(htmlText).join('<br>')}</p>`);
  if (post.contentWarning) {
    const count = post.media.length;
    const see = count === 0 ? 'See it' : count === 1 ? 'See the picture' : `See the ${count} pictures`;
    const notice = `<p><strong>Content warning: ${htmlText(post.contentWarning)}.</strong> <a href="${link}">${see} on Share Arts</a>.</p>`;
    return [notice, ...paragraphs].join('');
  }
  const pictures = post.media.map((picture, index) => {
    const alt = picture.alt.trim() || `Picture ${index + 1} of ${post.media.length} by @${post.username}`;
    return `<p><img src="${htmlText(absolute(picture.url))}" alt="${htmlText(alt)}" width="${picture.width}" height="${picture.height}"></p>`;
  });
  return [...paragraphs, ...pictures].join('');
}

/** What a feed says of itself besides its entries (an artist's, or a series': issue 41). */
export interface FeedHead {
  /** A stable id: `urn:uuid:` and the artist's or the series' id. */
  id: string;
  title: string;
  subtitle: string;
  /** The feed's own path and the page it is the feed of (root-relative). */
  selfPath: string;
  pagePath: string;
  authorName: string;
  authorPath: string;
  /** When the feed has no entry: its Last-Modified (the account's or series' creation). */
  emptyUpdated: string;
}

/**
 * Writes an Atom feed of `works` (newest first) with absolute URLs under `origin` (none: root-relative URLs, which
 * a reader resolves against the feed's own address).
 */
export function writeFeed(head: FeedHead, works: Post[], origin: string | undefined): AtomFeed {
  const absolute = (path: string) => (origin && path.startsWith('/') ? `${origin}${path}` : path);
  const times = works.map((post) => Date.parse(post.updatedAt)).filter(Number.isFinite);
  const updated = new Date(times.length > 0 ? Math.max(...times) : Date.parse(head.emptyUpdated));
  // Whole seconds, as Last-Modified and If-Modified-Since carry them.
  updated.setMilliseconds(0);

  const entries = works.map((post) =>
    element(
      'entry',
      {},
      [
        textElement('id', `urn:uuid:${post._id}`),
        textElement('title', entryTitle(post)),
        element('link', { rel: 'alternate', type: 'text/html', href: absolute(`/posts/${post._id}`) }),
        textElement('published', post.createdAt),
        textElement('updated', post.updatedAt),
        textElement('content', entryHtml(post, absolute), { type: 'html' }),
      ].join(''),
    ),
  );
  const author = absolute(head.authorPath);
  const feed = element(
    'feed',
    { xmlns: 'http://www.w3.org/2005/Atom' },
    [
      textElement('id', head.id),
      textElement('title', head.title),
      head.subtitle.trim() ? textElement('subtitle', head.subtitle.trim()) : '',
      element('link', { rel: 'self', type: 'application/atom+xml', href: absolute(head.selfPath) }),
      element('link', { rel: 'alternate', type: 'text/html', href: absolute(head.pagePath) }),
      textElement('updated', updated.toISOString().replace('.000Z', 'Z')),
      element('author', {}, textElement('name', head.authorName) + textElement('uri', author)),
      textElement('generator', 'Share Arts'),
      ...entries,
    ].join(''),
  );
  const xml = `<?xml version="1.0" encoding="utf-8"?>\n${feed}\n`;
  const etag = `"${hash('sha256', xml, 'base64url').slice(0, 27)}"`;
  return { xml, updated, etag };
}

/** The Atom feed of an artist's newest public works (the profile links it from its head). */
export function createAtomService({ db, posts }: { db: Db; posts: PostsService }) {
  return {
    /**
     * The feed of `username` with absolute URLs under `origin` (none: root-relative URLs, which a reader
     * resolves against the feed's own address). 404 for an unknown user.
     */
    async feed(username: string, origin: string | undefined): Promise<AtomFeed> {
      const author = await selectFeedAuthor(db, username);
      if (!author) throw notFound(ERRORS.userNotFound);
      const page = await posts.byUsername(author.username, { limit: FEED_ENTRIES, sort: 'latest' }, null);
      const works = page.posts.map((post) => JSON.parse(post.text) as Post);
      const name = displayName(author);
      return writeFeed(
        {
          id: `urn:uuid:${author.id}`,
          title: `${name} (@${author.username}) on Share Arts`,
          subtitle: author.bio,
          selfPath: feedPath(author.username),
          pagePath: `/${encodeURIComponent(author.username)}`,
          authorName: name,
          authorPath: `/${encodeURIComponent(author.username)}`,
          emptyUpdated: author.created_at,
        },
        works,
        origin,
      );
    },
  };
}

export type AtomService = ReturnType<typeof createAtomService>;
