import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { PinnedPosts, Post } from '@share-arts/contract';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/session';
import { toast } from '../../../ui/toast';
import { getPostPage, postListQuery } from './get-post-list';
import type { PostListData } from './post-cache';
import { postKeys, type PostListSource } from './post-keys';

const pinsSource = (username: string): PostListSource => ({ kind: 'pins', username });

/**
 * A profile's pinned works, in the artist's order. Kept as a one-page list under the lists' key, so likes,
 * comments, edits and deletions reach it like every other list.
 */
export const pinnedQuery = (username: string) =>
  infiniteQueryOptions({
    queryKey: postKeys.list(pinsSource(username), 'latest'),
    queryFn: ({ signal }) => getPostPage(pinsSource(username), 'latest', null, signal),
    initialPageParam: null as string | null,
    getNextPageParam: () => undefined,
    // A visitor's shared profile carries them in the page (see lib/boot-data.ts), as a list's first page.
    initialData: postListQuery(pinsSource(username), 'latest').initialData,
  });

/** The pinned works of `username` (undefined while they load, or when they could not be); none without a username. */
export function usePinnedPosts(username: string | undefined): readonly Post[] | undefined {
  return usePinnedQuery(username).pinned;
}

/** usePinnedPosts, and whether the first answer is still awaited (a failed load counts as answered). */
export function usePinnedQuery(username: string | undefined): {
  pinned: readonly Post[] | undefined;
  pending: boolean;
} {
  const { data, isPending, isError } = useInfiniteQuery({
    ...pinnedQuery(username ?? ''),
    enabled: Boolean(username),
  });
  return { pinned: data?.pages[0]?.posts, pending: Boolean(username) && isPending && !isError };
}

const postPinPath = (postId: string) => `/api/posts/${encodeURIComponent(postId)}/pin`;

type PinChange =
  | { action: 'pin'; postId: string; position?: number }
  | { action: 'unpin'; postId: string }
  | { action: 'reorder'; postIds: string[] };

const sendPinChange = (change: PinChange): Promise<PinnedPosts> => {
  switch (change.action) {
    case 'pin':
      return apiClient.post<PinnedPosts>(
        postPinPath(change.postId),
        change.position === undefined ? {} : { position: change.position },
      );
    case 'unpin':
      return apiClient.delete<PinnedPosts>(postPinPath(change.postId));
    case 'reorder':
      return apiClient.put<PinnedPosts>('/api/users/me/pins', { postIds: change.postIds });
  }
};

const DONE: Record<PinChange['action'], MessageDescriptor> = {
  pin: msg`Pinned to your profile`,
  unpin: msg`Unpinned from your profile`,
  reorder: msg`Pinned works reordered`,
};

/**
 * Pin, unpin and reorder the signed-in artist's works. The server answers the whole new list, which
 * replaces the cached one; a refusal (the 7th pin, say) is shown as the server words it.
 */
export function usePinChange() {
  const queryClient = useQueryClient();
  const { data: me } = useCurrentUser();
  const mutation = useMutation({
    mutationFn: sendPinChange,
    onSuccess: (pinned, change) => {
      if (me) {
        const data: PostListData = { pages: [pinned], pageParams: [null] };
        queryClient.setQueryData(pinnedQuery(me.username).queryKey, data);
      }
      toast.success(i18n._(DONE[change.action]));
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  return { change: mutation.mutate, pending: mutation.isPending };
}
