/**
 * The head of a shared page as markup: title, description, canonical URL, Open Graph and Twitter tags, the
 * preload of the page's main picture and the page's first API answer. Every value is escaped here, in one
 * place: post text, alt text and names are written by users and must never leave their attribute.
 */
import type { Locale } from '../../lib/i18n.js';

export interface PageImage {
  url: string;
  width?: number;
  height?: number;
  alt: string;
}

/** One `<link rel="preload" as="image">`: a picture's source as `<picture>` would pick it. */
export interface ImagePreload {
  srcset: string;
  sizes: string;
  type: string;
  /** Where the browser would take this source (and no earlier one); absent: everywhere. */
  media?: string;
}

export interface PageHead {
  title: string;
  description: string;
  /** Absolute URLs need the public origin; without one the tags that need them are left out. */
  canonical?: string;
  ogType: 'website' | 'article' | 'profile';
  image?: PageImage;
  preloads?: ImagePreload[];
  /** `<meta name="robots">`: "noai, noimageai" when the page's artist asks AI crawlers not to train on it. */
  robots?: string;
  /** The URL of the work's licence text (`<link rel="license">`). */
  license?: string;
  /** Structured data (schema.org) as `<script type="application/ld+json">`. */
  jsonLd?: Record<string, unknown>;
  /**
   * Whose page this is (a signed-in viewer's Home drawn on the server): the payload of the session's token, as
   * `<meta name="viewer">`, which the head script compares with the stored token's before it shows the markup.
   */
  viewer?: string;
  /** A feed of the page (`<link rel="alternate">`): a series' Atom feed (issue 41). */
  alternate?: { type: string; title: string; href: string };
  /** JSON the app reads instead of asking again: `<script type="application/json" id=…>`. */
  data?: { id: string; json: string };
  /**
   * A page of what lives on another server (a remote person or work, issue 39): no Open Graph or Twitter card, which
   * would present it as this site's; its canonical link and `robots` point search engines at its home.
   */
  foreign?: boolean;
  /** The language of the site's words in it (issue 43): `og:locale` for a language other than English. */
  locale?: Locale;
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe inside a double-quoted attribute or an element's text. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ATTRIBUTE_ESCAPES[c]!);

/**
 * JSON safe inside `<script type="application/json">`: no `<` can close the element or open a comment, and
 * the line separators some parsers choke on are escaped; JSON.parse of the element's text gives it back.
 */
export const escapeScriptJson = (json: string): string =>
  json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** `<tag a="b" …>` with every value escaped; attributes with an undefined value are left out. */
function element(tag: string, attributes: Record<string, string | number | undefined>): string {
  const parts = Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${name}="${escapeHtml(String(value))}"`);
  return `<${tag} ${parts.join(' ')}>`;
}

const meta = (key: 'name' | 'property', name: string, content: string | number | undefined) =>
  content === undefined ? '' : element('meta', { [key]: name, content });

/**
 * `og:locale` of our languages (issue 43). Open Graph wants `language_TERRITORY` and takes `en_US` when there is
 * none, so English says nothing (its heads stay as they were); the others are named as Facebook, the reader of the
 * tag, lists them: `ar_AR` is its one Arabic. A language without an entry leaves the tag out rather than guess.
 */
const OPEN_GRAPH_LOCALES: Partial<Record<Locale, string>> = {
  es: 'es_ES',
  'pt-BR': 'pt_BR',
  ja: 'ja_JP',
  ar: 'ar_AR',
};

/** The Open Graph and Twitter tags: how a chat or a social site shows a link to the page. */
const cardTags = (head: PageHead) => [
  meta('property', 'og:site_name', 'Share Arts'),
  meta('property', 'og:locale', head.locale ? OPEN_GRAPH_LOCALES[head.locale] : undefined),
  meta('property', 'og:type', head.ogType),
  meta('property', 'og:title', head.title),
  meta('property', 'og:description', head.description),
  meta('property', 'og:url', head.canonical),
  meta('property', 'og:image', head.image?.url),
  meta('property', 'og:image:width', head.image?.width),
  meta('property', 'og:image:height', head.image?.height),
  meta('property', 'og:image:alt', head.image?.alt),
  meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
  meta('name', 'twitter:title', head.title),
  meta('name', 'twitter:description', head.description),
  meta('name', 'twitter:image', head.image?.url),
  meta('name', 'twitter:image:alt', head.image?.alt),
];

/** The tags, one per line, in the order a reader expects: title and description first. */
export function renderHead(head: PageHead): string {
  const lines = [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('name', 'description', head.description),
    head.canonical ? element('link', { rel: 'canonical', href: head.canonical }) : '',
    meta('name', 'robots', head.robots),
    meta('name', 'viewer', head.viewer),
    head.license ? element('link', { rel: 'license', href: head.license }) : '',
    head.alternate ? element('link', { rel: 'alternate', ...head.alternate }) : '',
    ...(head.foreign ? [] : cardTags(head)),
    ...(head.preloads ?? []).map((preload) =>
      element('link', {
        rel: 'preload',
        as: 'image',
        type: preload.type,
        imagesrcset: preload.srcset,
        imagesizes: preload.sizes,
        media: preload.media,
        fetchpriority: 'high',
      }),
    ),
    head.data
      ? `${element('script', { type: 'application/json', id: head.data.id })}${escapeScriptJson(head.data.json)}</script>`
      : '',
    head.jsonLd
      ? `${element('script', { type: 'application/ld+json' })}${escapeScriptJson(JSON.stringify(head.jsonLd))}</script>`
      : '',
  ];
  return lines.filter(Boolean).join('\n    ');
}
