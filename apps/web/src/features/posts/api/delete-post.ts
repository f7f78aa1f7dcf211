import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { removeCachedPost } from './post-cache';
import { postKeys, PREFER_MINIMAL } from './post-keys';

export const deletePost = (postId: string) =>
  apiClient.delete<unknown>(`/api/posts/${encodeURIComponent(postId)}`, { headers: PREFER_MINIMAL });

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (_data, postId) => {
      removeCachedPost(queryClient, postId);
      // Counts and later pages shift; refetch the lists the next time they are shown.
      void queryClient.invalidateQueries({ queryKey: postKeys.lists(), refetchType: 'none' });
    },
  });
}
