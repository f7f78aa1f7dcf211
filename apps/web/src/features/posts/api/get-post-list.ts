import type { PostPage, Sort } from '@share-arts/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { takeBootData } from '../../../lib/boot-data';
import { postKeys, type PostListSource } from './post-keys';
import { postPagePath } from './post-paths';

/** The Saved tab's route answers `bookmarks` where the others answer `posts`. */
type PageResponse = PostPage | { bookmarks: PostPage['posts']; nextCursor: PostPage['nextCursor'] };

const toPage = (page: PageResponse): PostPage =>
  'bookmarks' in page ? { posts: page.bookmarks, nextCursor: page.nextCursor } : page;

export const getPostPage = async (
  source: PostListSource,
  sort: Sort,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<PostPage> => toPage(await apiClient.get<PageResponse>(postPagePath(source, sort, cursor), { signal }));

/** A paged list of posts, one page per request, following each page's `nextCursor`. */
export const postListQuery = (source: PostListSource, sort: Sort) =>
  infiniteQueryOptions({
    queryKey: postKeys.list(source, sort),
    queryFn: ({ pageParam, signal }) => getPostPage(source, sort, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    // The first page of the list the page opened on may have arrived already (see lib/boot-data.ts).
    initialData: () => {
      const page = takeBootData<PageResponse>('GET', postPagePath(source, sort, null));
      return page && { pages: [toPage(page)], pageParams: [null] };
    },
  });
