/** Query keys of collections: a person's list, one by its address, its works, and which of mine hold a work. */
export const collectionKeys = {
  all: ['collections'] as const,
  lists: () => [...collectionKeys.all, 'list'] as const,
  list: (username: string) => [...collectionKeys.lists(), username.toLowerCase()] as const,
  details: () => [...collectionKeys.all, 'detail'] as const,
  detail: (username: string, slug: string) => [...collectionKeys.details(), username.toLowerCase(), slug] as const,
  works: (collectionId: string) => [...collectionKeys.all, 'works', collectionId] as const,
  ofPosts: () => [...collectionKeys.all, 'of-post'] as const,
  ofPost: (postId: string) => [...collectionKeys.ofPosts(), postId] as const,
};
