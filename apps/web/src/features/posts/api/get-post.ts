import type { Post, PostResponse } from '@share-arts/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { takeBootData } from '../../../lib/boot-data';
import { postPath } from '../../../lib/first-requests';
import { findCachedPost } from './post-cache';
import { postKeys } from './post-keys';

export const getPost = async (postId: string, signal?: AbortSignal): Promise<Post> =>
  (await apiClient.get<PostResponse>(postPath(postId), { signal })).post;

export const postQuery = (postId: string) =>
  queryOptions({
    queryKey: postKeys.detail(postId),
    queryFn: ({ signal }) => getPost(postId, signal),
    initialData: () => takeBootData<PostResponse>('GET', postPath(postId))?.post,
  });

/** One post; a copy already in a cached list is shown at once while the fresh one loads. */
export function usePost(postId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    ...postQuery(postId),
    placeholderData: () => findCachedPost(queryClient, postId),
  });
}
