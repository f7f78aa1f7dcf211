import type { CommentPage } from '@share-arts/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { takeBootData } from '../../../lib/boot-data';
import { commentPagePath } from '../../../lib/first-requests';
import { commentKeys, type CommentOrder } from './comment-keys';

export const getCommentPage = (postId: string, order: CommentOrder, cursor: string | null, signal?: AbortSignal) =>
  apiClient.get<CommentPage>(commentPagePath(postId, order, cursor), { signal });

/** A post's comments, one page per request, following each page's `nextCursor`. */
export const commentListQuery = (postId: string, order: CommentOrder) =>
  infiniteQueryOptions({
    queryKey: commentKeys.list(postId, order),
    queryFn: ({ pageParam, signal }) => getCommentPage(postId, order, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    // The post page's first comments may have arrived already (see lib/boot-data.ts).
    initialData: () => {
      const page = takeBootData<CommentPage>('GET', commentPagePath(postId, order, null));
      return page && { pages: [page], pageParams: [null] };
    },
  });
