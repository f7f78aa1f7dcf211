/** The API's addresses of collections (packages/contract/src/schemas/collections.ts lists the routes). */
const part = encodeURIComponent;

const withCursor = (path: string, cursor: string | null) =>
  cursor === null ? path : `${path}?${new URLSearchParams({ cursor })}`;

export const collectionPaths = {
  create: () => '/api/collections',
  list: (username: string, cursor: string | null = null) =>
    withCursor(`/api/users/${part(username)}/collections`, cursor),
  bySlug: (username: string, slug: string) => `/api/users/${part(username)}/collections/${part(slug)}`,
  one: (collectionId: string) => `/api/collections/${part(collectionId)}`,
  works: (collectionId: string, cursor: string | null = null) =>
    withCursor(`/api/collections/${part(collectionId)}/works`, cursor),
  work: (collectionId: string, postId: string) => `/api/collections/${part(collectionId)}/works/${part(postId)}`,
  move: (collectionId: string, postId: string) => `/api/collections/${part(collectionId)}/works/${part(postId)}/move`,
  ofPost: (postId: string) => `/api/posts/${part(postId)}/collections`,
};

/** The page of a collection in the app: `/{username}/collections/{slug}` (Saved: `/{username}/collections/saved`). */
export const collectionPagePath = (username: string, slug: string) => `/${part(username)}/collections/${part(slug)}`;
