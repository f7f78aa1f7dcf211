import {
  APP_NAME,
  pageBoxRatio,
  postPageSizes,
  RESERVED_USERNAMES,
  TAG_PATTERN,
  USERNAME_PATTERN,
  LIMITS,
  LICENCE_INFO,
  type Picture,
  type Post,
  type User,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/http-error.js';
import { format, SOURCE_LOCALE, type Locale } from '../../lib/i18n.js';
import { jsonBody } from '../../lib/json-text.js';
import type { CollectionsService } from '../collections/index.js';
import type { PostsService } from '../posts/index.js';
import { seriesFeedPath, type SeriesService } from '../series/index.js';
import type { UsersService } from '../users/index.js';
import type { ImagePreload, PageHead, PageImage } from './pages.html.js';
import { PAGE_MESSAGES } from './pages.messages.js';
import {
  selectAiTrainingOptOut,
  selectNewestPostId,
  selectPostHiddenFromVisitors,
  selectRemoteProfilePage,
  selectRemoteWorkPage,
  selectTagSummary,
} from './pages.sql.js';
import { isUuid } from '../../lib/ids.js';

/** A shared page's head, and its status: 404 for an unknown post, person or tag (the app shows not found). */
export interface SharedPage {
  status: 200 | 404;
  head: PageHead;
}

/**
 * The id of the inline JSON holding a shared page's first API answers by path (`{"/api/posts/…": answer}`),
 * which the boot script hands to the app for a visitor: a post page's post, and when the server renders the
 * page, everything its first render drew.
 */
export const PAGE_DATA_ID = 'page-data';

const DESCRIPTION_MAX = 200;
const TITLE_TEXT_MAX = 70;

/** `<meta name="robots">` of a page whose artist asks AI crawlers not to train on their work (issue 23). */
export const NO_AI = 'noai, noimageai';

/**
 * `<meta name="robots">` of a remote person's or work's page (issue 39, following out): not ours to be indexed (its
 * canonical link names its home), nor to be trained on.
 */
export const FOREIGN = 'noindex, noai, noimageai';

/** A remote person's handle as a profile's address (`name@host`, issue 39): no username here holds '@'. */
const HANDLE = /^[^@\s/]+@[^@\s/]+$/u;

/**
 * The site's words in `locale` (PAGE_MESSAGES, issue 43), with the site's name as `{app}`: what a page says of the
 * artists' words around them, which are values.
 */
type Say = (message: string, values?: Record<string, unknown>) => string;
const sayIn =
  (locale: Locale): Say =>
  (message, values = {}) =>
    format(locale, message, { app: APP_NAME, ...values });

/**
 * The site's own head, in `locale`. Generic pages (and a tag's, which shows many artists' works) always ask AI
 * crawlers not to train.
 */
function genericHead(locale: Locale): PageHead {
  return {
    title: APP_NAME,
    description: sayIn(locale)(PAGE_MESSAGES.siteDescription),
    ogType: 'website',
    robots: NO_AI,
    locale,
  };
}
const notFoundPage = (locale: Locale): SharedPage => ({
  status: 404,
  head: { ...genericHead(locale), title: sayIn(locale)(PAGE_MESSAGES.notFoundTitle) },
});

/** Text on one line, cut at a word near `max` characters with an ellipsis. */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const nameOf = (person: { firstName: string; lastName: string; username: string }) =>
  `${person.firstName} ${person.lastName}`.trim() || person.username;

const USERNAME = new RegExp(USERNAME_PATTERN);
const TAG = new RegExp(TAG_PATTERN, 'u');

/**
 * The picture as a preview shows it: its `url` (a JPEG, 1080 px wide or the largest below), with that file's
 * size read from the JPEG source's srcset.
 */
function previewImage(picture: Picture, absolute: (path: string) => string): PageImage {
  const jpeg = picture.sources.find((source) => source.type === 'image/jpeg' && !source.media);
  const entry = jpeg?.srcset
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/))
    .find(([url]) => url === picture.url);
  const width = entry?.[1] ? Number.parseInt(entry[1], 10) : undefined;
  const height = width && picture.width > 0 ? Math.round((width * picture.height) / picture.width) : undefined;
  return { url: absolute(picture.url), width, height, alt: picture.alt };
}

/**
 * The preloads that fetch what the post page's `<picture>` will pick (its sources in order, the browser taking
 * the first whose media and type fit): per media condition, its first source (AVIF before JPEG), for the
 * screens that meet it and none of the earlier ones. Same srcset and sizes as the page, so nothing is fetched
 * twice.
 */
export function picturePreloads(picture: Picture, sizes: string): ImagePreload[] {
  const preloads: ImagePreload[] = [];
  const earlier: string[] = [];
  for (const source of picture.sources) {
    const media = source.media ?? '';
    if (earlier.includes(media) || (preloads.length > 0 && earlier.includes(''))) continue;
    const conditions = [...(media ? [media] : []), ...earlier.filter(Boolean).map((other) => `(not ${other})`)];
    preloads.push({
      srcset: source.srcset,
      sizes,
      type: source.type,
      ...(conditions.length ? { media: conditions.join(' and ') } : {}),
    });
    earlier.push(media);
  }
  return preloads;
}

/** The heads of the pages a link is shared to: a post, a profile, a tag. */
export function createPagesService({
  db,
  posts,
  users,
  series,
  collections,
}: {
  db: Db;
  posts: PostsService;
  users: UsersService;
  series: SeriesService;
  collections: CollectionsService;
}) {
  /** null when the thing is not there (a 404 of the service), any other error thrown on. */
  const orNull = async <T>(read: Promise<T>): Promise<T | null> => {
    try {
      return await read;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return null;
      throw error;
    }
  };

  const readPost = async (postId: string) => {
    const json = await orNull(posts.getPost(postId, null));
    return json ? { json, post: JSON.parse(json.text) as Post } : null;
  };

  /** The post's picture for a preview; none when the post carries a content warning (issue 38, item 10). */
  const firstPicture = async (postId: string | null) => {
    const post = postId ? (await readPost(postId))?.post : undefined;
    return post && !post.contentWarning ? (post.picture ?? null) : null;
  };

  async function postPage(postId: string, absolute: (path: string) => string, locale: Locale): Promise<SharedPage> {
    const say = sayIn(locale);
    const found = await readPost(postId);
    if (!found) {
      // Shown to signed-in people only: the link works for them, and its preview names the site alone.
      const hidden = isUuid(postId) && (await selectPostHiddenFromVisitors(db, postId));
      return hidden
        ? { status: 200, head: { ...genericHead(locale), canonical: absolute(`/posts/${postId.toLowerCase()}`) } }
        : notFoundPage(locale);
    }
    const { post, json } = found;
    // The app's request of the post (lib/first-requests.ts postPath), by the address's own id.
    const data = `{${JSON.stringify(`/api/posts/${encodeURIComponent(postId)}`)}:${jsonBody({ post: json })}}`;
    const name = post.name || post.username;
    const text = excerpt(post.content, TITLE_TEXT_MAX);
    // Another server's work (only a shadow account's username holds '@'): shown here, but not presented as ours.
    const home = post.username.includes('@') ? await selectRemoteWorkPage(db, post._id) : undefined;
    if (home) {
      const byline = `${name} (@${post.username})`;
      return {
        status: 200,
        head: {
          title: text ? say(PAGE_MESSAGES.remoteWorkTitle, { byline, text }) : byline,
          description: excerpt(post.content, DESCRIPTION_MAX) || say(PAGE_MESSAGES.remoteWorkDescription, { byline }),
          canonical: home,
          ogType: 'article',
          robots: FOREIGN,
          foreign: true,
          data: { id: PAGE_DATA_ID, json: data },
          locale,
        },
      };
    }
    const pictures = post.media.length ? post.media : post.picture ? [post.picture] : [];
    // A warned work's preview (a chat's card, a search result) names the warning and shows no picture: the
    // page itself covers it until the reader chooses to see it.
    const warning = post.contentWarning ? say(PAGE_MESSAGES.contentWarning, { warning: post.contentWarning }) : '';
    const description =
      excerpt(post.content, DESCRIPTION_MAX - warning.length - 1) || say(PAGE_MESSAGES.workDescription, { name });
    const head: PageHead = {
      title: text ? say(PAGE_MESSAGES.workTitle, { name, text }) : say(PAGE_MESSAGES.workTitleWithoutText, { name }),
      description: warning ? `${warning} ${description}` : description,
      canonical: absolute(`/posts/${post._id}`),
      ogType: 'article',
      data: { id: PAGE_DATA_ID, json: data },
      locale,
    };
    if (post.picture) {
      if (!warning) head.image = previewImage(post.picture, absolute);
      head.preloads = picturePreloads(post.picture, postPageSizes(pageBoxRatio(pictures)));
    }
    if (await selectAiTrainingOptOut(db, post.userId)) head.robots = NO_AI;
    const licence = LICENCE_INFO[post.licence];
    if (licence.url) head.license = licence.url;
    head.jsonLd = workJsonLd(post, head, licence, absolute, say);
    return { status: 200, head };
  }

  /**
   * The post as schema.org structured data: a CreativeWork (an ImageObject when it has a picture) with its
   * creator, date, licence (a CC licence's URL; all rights reserved has none, so a copyright notice instead)
   * and, for a CC licence, where its terms are (acquireLicensePage).
   */
  function workJsonLd(
    post: Post,
    head: PageHead,
    licence: { name: string; url: string | null },
    absolute: (path: string) => string,
    say: Say,
  ): Record<string, unknown> {
    const name = post.name || post.username;
    const picture = post.contentWarning ? null : post.picture;
    return {
      '@context': 'https://schema.org',
      '@type': picture ? 'ImageObject' : 'CreativeWork',
      name: head.title,
      ...(head.canonical ? { url: head.canonical } : {}),
      ...(picture ? { contentUrl: absolute(picture.url) } : {}),
      ...(post.contentWarning ? { contentRating: post.contentWarning } : {}),
      ...(post.content ? { description: excerpt(post.content, DESCRIPTION_MAX) } : {}),
      creator: { '@type': 'Person', name, url: absolute(`/${post.username}`) },
      creditText: name,
      dateCreated: post.createdAt,
      ...(licence.url
        ? { license: licence.url, acquireLicensePage: licence.url }
        : { copyrightNotice: say(PAGE_MESSAGES.copyrightNotice, { name }) }),
    };
  }

  async function profilePage(
    username: string,
    absolute: (path: string) => string,
    locale: Locale,
  ): Promise<SharedPage> {
    const say = sayIn(locale);
    const user: User | null = await orNull(users.getByUsername(username, null));
    if (!user) return notFoundPage(locale);
    // A remote person's shadow account (issue 39): their page here points at their home.
    const home = user.username.includes('@') ? await selectRemoteProfilePage(db, user._id) : undefined;
    if (home) {
      const byline = `${nameOf(user)} (@${user.username})`;
      return {
        status: 200,
        head: {
          title: byline,
          description: excerpt(user.bio, DESCRIPTION_MAX) || byline,
          canonical: home,
          ogType: 'profile',
          robots: FOREIGN,
          foreign: true,
          locale,
        },
      };
    }
    if (user.worksSignedInOnly) {
      return { status: 200, head: { ...genericHead(locale), canonical: absolute(`/${user.username}`) } };
    }
    const optOut = await selectAiTrainingOptOut(db, user._id);
    const name = nameOf(user);
    const picture = await firstPicture(await selectNewestPostId(db, user._id));
    // "Open for commissions" first when they are (issue 42): the link preview says it before the bio.
    const open = user.openForCommissions ? `${say(PAGE_MESSAGES.openForCommissions)} ` : '';
    return {
      status: 200,
      head: {
        title: `${name} (@${user.username}) · ${APP_NAME}`,
        description: `${open}${
          excerpt(user.bio, DESCRIPTION_MAX - open.length) ||
          say(PAGE_MESSAGES.profileDescription, { count: user.postCount, name })
        }`,
        canonical: absolute(`/${user.username}`),
        ogType: 'profile',
        image: picture ? previewImage(picture, absolute) : { url: absolute(user.userPhoto), alt: name },
        ...(optOut ? { robots: NO_AI } : {}),
        locale,
      },
    };
  }

  async function tagPage(tag: string, absolute: (path: string) => string, locale: Locale): Promise<SharedPage> {
    const { count, newestId } = await selectTagSummary(db, tag);
    if (count === 0) return notFoundPage(locale);
    const picture = await firstPicture(newestId);
    return {
      status: 200,
      head: {
        title: `#${tag} · ${APP_NAME}`,
        description: sayIn(locale)(PAGE_MESSAGES.tagDescription, { count, tag: `#${tag}` }),
        canonical: absolute(`/tags/${encodeURIComponent(tag)}`),
        ogType: 'website',
        robots: NO_AI,
        ...(picture ? { image: previewImage(picture, absolute) } : {}),
        locale,
      },
    };
  }

  /**
   * A series' page (issue 41): its title and description, its cover as the preview (none for a warned work: the
   * series API never offers one as cover) and its Atom feed. Signed-in only artists' series are not there for a
   * visitor: the site's generic head, as their profile has.
   */
  async function seriesPage(
    username: string,
    slug: string,
    absolute: (path: string) => string,
    locale: Locale,
  ): Promise<SharedPage> {
    const say = sayIn(locale);
    const found = await orNull(series.bySlug(username, slug, null));
    if (!found) {
      const user: User | null = await orNull(users.getByUsername(username, null));
      return user?.worksSignedInOnly ? { status: 200, head: genericHead(locale) } : notFoundPage(locale);
    }
    const owner = found.owner;
    const name = nameOf(owner);
    return {
      status: 200,
      head: {
        title: say(PAGE_MESSAGES.seriesTitle, { title: found.title, name }),
        description:
          excerpt(found.description, DESCRIPTION_MAX) ||
          say(PAGE_MESSAGES.seriesDescription, { count: found.workCount, name }),
        canonical: absolute(`/${owner.username}/series/${found.slug}`),
        ogType: 'website',
        ...(found.cover ? { image: previewImage(found.cover, absolute) } : {}),
        alternate: {
          type: 'application/atom+xml',
          title: say(PAGE_MESSAGES.seriesFeedTitle, { title: found.title }),
          href: absolute(seriesFeedPath(owner.username, found.slug)),
        },
        ...((await selectAiTrainingOptOut(db, owner._id)) ? { robots: NO_AI } : {}),
        locale,
      },
    };
  }

  /**
   * A public collection's page (issue 41): its title and description, its cover as the preview (never a warned
   * work). A private collection, or Saved, is not there for a visitor: the page 404s, as for none at all; a signed-in
   * only person's collections are not there either (the site's generic head, as their profile has).
   */
  async function collectionPage(
    username: string,
    slug: string,
    absolute: (path: string) => string,
    locale: Locale,
  ): Promise<SharedPage> {
    const say = sayIn(locale);
    const found = await orNull(collections.bySlug(username, slug, null));
    if (!found) {
      const user: User | null = await orNull(users.getByUsername(username, null));
      return user?.worksSignedInOnly ? { status: 200, head: genericHead(locale) } : notFoundPage(locale);
    }
    const owner = found.owner;
    const name = nameOf(owner);
    return {
      status: 200,
      head: {
        title: say(PAGE_MESSAGES.collectionTitle, { title: found.title, name }),
        description:
          excerpt(found.description, DESCRIPTION_MAX) ||
          say(PAGE_MESSAGES.collectionDescription, { count: found.workCount, name }),
        canonical: absolute(`/${owner.username}/collections/${found.slug}`),
        ogType: 'website',
        ...(found.cover ? { image: previewImage(found.cover, absolute) } : {}),
        locale,
      },
    };
  }

  return {
    /**
     * The head of a signed-in viewer's Home drawn on the server: the site's in the page's language, whose it is (the
     * session token's payload: not secret, the signature is), and the page's answers.
     */
    homeHead: (token: string, data: string, locale: Locale = SOURCE_LOCALE): PageHead => ({
      ...genericHead(locale),
      viewer: token.split('.')[1] ?? '',
      data: { id: PAGE_DATA_ID, json: data },
    }),

    /**
     * The head of the page at `pathname` when it is a post, a profile, a tag or a series page; undefined for any other
     * path (the app's other pages, reserved words, files), which keeps its usual answer. `origin` makes the
     * URLs absolute (`https://example.com`); `locale` is the language of the site's words in it (issue 43).
     */
    async render(pathname: string, origin: string, locale: Locale = SOURCE_LOCALE): Promise<SharedPage | undefined> {
      let segments: string[];
      try {
        segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
      } catch {
        return undefined;
      }
      const absolute = (path: string) => (/^https?:\/\//.test(path) ? path : `${origin}${path}`);
      const [first, second, third] = segments;
      if (segments.length === 2 && first === 'posts') return postPage(second!, absolute, locale);
      if (segments.length === 3 && second === 'series' && first && third) {
        const username =
          USERNAME.test(first) && !(RESERVED_USERNAMES as readonly string[]).includes(first.toLowerCase());
        return username ? seriesPage(first, third, absolute, locale) : undefined;
      }
      if (segments.length === 3 && second === 'collections' && first && third) {
        const username =
          USERNAME.test(first) && !(RESERVED_USERNAMES as readonly string[]).includes(first.toLowerCase());
        return username ? collectionPage(first, third, absolute, locale) : undefined;
      }
      if (segments.length === 2 && first === 'tags') {
        const tag = second!.toLowerCase();
        return TAG.test(tag) ? tagPage(tag, absolute, locale) : notFoundPage(locale);
      }
      if (segments.length !== 1 || !first) return undefined;
      if (HANDLE.test(first)) return profilePage(first, absolute, locale);
      if ((RESERVED_USERNAMES as readonly string[]).includes(first.toLowerCase())) return undefined;
      if (!USERNAME.test(first) || first.length < LIMITS.usernameMin || first.length > LIMITS.usernameMax) {
        return undefined;
      }
      return profilePage(first, absolute, locale);
    },
  };
}

export type PagesService = ReturnType<typeof createPagesService>;
