/**
 * The site's own words in the heads of the pages drawn on the server (issue 43): titles, descriptions and link
 * previews, as ICU messages, written in the page's language (lib/i18n.ts pageLocale) from
 * apps/server/locales/<code>.po. The artists' words in them (names, titles, a post's text, a bio, a tag, a content
 * warning) are values, never translated. `{app}` is the site's name, which stays as it is. A count's whole sentence is
 * inside its plural, so a language can agree every word with the number.
 */
export const PAGE_MESSAGES = {
  /** The site's description (TAGLINE's words), for a page that is no one's. */
  siteDescription: '{app}: connect to community and get inspired today.',
  notFoundTitle: 'Not found · {app}',
  workTitle: '{name} on {app}: “{text}”',
  workTitleWithoutText: '{name} on {app}',
  workDescription: 'A work by {name} on {app}.',
  /** Another server's work: `{byline}` is its artist's name and handle, `Mira (@mira@example.com)`. */
  remoteWorkTitle: '{byline}: “{text}”',
  remoteWorkDescription: 'A work by {byline}.',
  /** Before a warned work's text in its preview (the warning is the artist's words). */
  contentWarning: 'Content warning: {warning}.',
  /** The copyright notice of a work whose licence is "All rights reserved", in its structured data. */
  copyrightNotice: '© {name}. All rights reserved.',
  profileDescription: '{count, plural, one {# work by {name} on {app}.} other {# works by {name} on {app}.}}',
  /** First in the preview of an artist open for commissions (issue 42), before their bio. */
  openForCommissions: 'Open for commissions.',
  /** `{tag}` is the tag with its `#`. */
  tagDescription: '{count, plural, one {# work tagged {tag} on {app}.} other {# works tagged {tag} on {app}.}}',
  seriesTitle: '{title} by {name} · {app}',
  seriesDescription:
    '{count, plural, one {A series of # work by {name} on {app}.} other {A series of # works by {name} on {app}.}}',
  /** The name of a series' Atom feed, as a feed reader lists it. */
  seriesFeedTitle: '{title} (Atom)',
  collectionTitle: '{title}, a collection by {name} · {app}',
  collectionDescription:
    '{count, plural, one {A collection of # work gathered by {name} on {app}.} other {A collection of # works gathered by {name} on {app}.}}',
} as const;
