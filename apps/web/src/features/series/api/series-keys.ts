/** Query keys of series: an artist's list, one series by its address, its works, and a work's series. */
export const seriesKeys = {
  all: ['series'] as const,
  lists: () => [...seriesKeys.all, 'list'] as const,
  list: (username: string) => [...seriesKeys.lists(), username.toLowerCase()] as const,
  details: () => [...seriesKeys.all, 'detail'] as const,
  detail: (username: string, slug: string) => [...seriesKeys.details(), username.toLowerCase(), slug] as const,
  works: (seriesId: string) => [...seriesKeys.all, 'works', seriesId] as const,
  ofPosts: () => [...seriesKeys.all, 'of-post'] as const,
  ofPost: (postId: string) => [...seriesKeys.ofPosts(), postId] as const,
};
