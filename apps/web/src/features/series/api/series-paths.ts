/** The API's addresses of series (packages/contract/src/schemas/series.ts lists the routes). */
const part = encodeURIComponent;

const withCursor = (path: string, cursor: string | null) =>
  cursor === null ? path : `${path}?${new URLSearchParams({ cursor })}`;

export const seriesPaths = {
  create: () => '/api/series',
  list: (username: string, cursor: string | null = null) => withCursor(`/api/users/${part(username)}/series`, cursor),
  bySlug: (username: string, slug: string) => `/api/users/${part(username)}/series/${part(slug)}`,
  feed: (username: string, slug: string) => `/api/users/${part(username)}/series/${part(slug)}/feed.atom`,
  one: (seriesId: string) => `/api/series/${part(seriesId)}`,
  works: (seriesId: string, cursor: string | null = null) => withCursor(`/api/series/${part(seriesId)}/works`, cursor),
  work: (seriesId: string, postId: string) => `/api/series/${part(seriesId)}/works/${part(postId)}`,
  move: (seriesId: string, postId: string) => `/api/series/${part(seriesId)}/works/${part(postId)}/move`,
  follow: (seriesId: string) => `/api/series/${part(seriesId)}/follow`,
  ofPost: (postId: string) => `/api/posts/${part(postId)}/series`,
};

/** The page of a series in the app: `/{username}/series/{slug}`. */
export const seriesPagePath = (username: string, slug: string) => `/${part(username)}/series/${part(slug)}`;
