import type { PostInsights, ProfileInsights } from '@share-arts/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** The windows insights are shown over (the server takes these three). */
export type InsightsWindow = 7 | 30 | 90;

export const insightsKeys = {
  all: ['insights'] as const,
  profile: (days: InsightsWindow) => [...insightsKeys.all, 'profile', days] as const,
  post: (postId: string, days: InsightsWindow) => [...insightsKeys.all, 'post', postId, days] as const,
};

/** The signed-in artist's own insights: their profile and works. */
export function useProfileInsights(days: InsightsWindow) {
  return useQuery({
    queryKey: insightsKeys.profile(days),
    queryFn: ({ signal }) => apiClient.get<ProfileInsights>(`/api/insights/profile?days=${days}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** One of the artist's works' insights (a 404 for anyone else's). */
export function usePostInsights(postId: string, days: InsightsWindow) {
  return useQuery({
    queryKey: insightsKeys.post(postId, days),
    queryFn: ({ signal }) =>
      apiClient.get<PostInsights>(`/api/insights/posts/${encodeURIComponent(postId)}?days=${days}`, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
