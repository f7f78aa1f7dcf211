import type { Sort } from '@share-arts/contract';

/** Where a list of posts comes from. Every list shares the `['posts', 'list']` prefix, so one update reaches all. */
export type PostListSource =
  | { kind: 'feed' }
  /** `filter`: narrowed to artists open for commissions (issue 42), the query's parameters. */
  | { kind: 'explore'; filter?: Readonly<Record<string, string>> }
  | { kind: 'user'; username: string }
  | { kind: 'liked' }
  | { kind: 'saved' }
  /** A profile's pinned works: one page, in the artist's order. */
  | { kind: 'pins'; username: string }
  | { kind: 'search'; q: string }
  | { kind: 'tag'; tag: string; filter?: Readonly<Record<string, string>> };

/** Query keys of posts: paged lists and single posts. */
export const postKeys = {
  all: ['posts'] as const,
  lists: () => [...postKeys.all, 'list'] as const,
  listsOf: (kind: PostListSource['kind']) => [...postKeys.lists(), kind] as const,
  list: (source: PostListSource, sort: Sort) => [...postKeys.listsOf(source.kind), { ...source, sort }] as const,
  details: () => [...postKeys.all, 'detail'] as const,
  detail: (postId: string) => [...postKeys.details(), postId] as const,
  /** Mutation key of every write that changes a post's comment count (the comments feature's add, edit, delete). */
  commentWrites: (postId: string) => [...postKeys.all, 'comment-writes', postId] as const,
};

/** RFC 7240: the client does not need the first page of posts back after a write. */
export const PREFER_MINIMAL = { prefer: 'return=minimal' } as const;
