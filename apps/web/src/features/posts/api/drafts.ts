import type {
  DraftPage,
  DraftResponse,
  DraftSummary,
  PublishedDraftResponse,
  SaveDraftBody,
  ScheduleDraftBody,
} from '@share-arts/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** Drafts and scheduled posts (issue 41): the composer's work in progress, kept on the server. */
export const draftKeys = {
  all: ['drafts'] as const,
  list: () => [...draftKeys.all, 'list'] as const,
};

const path = (id: string) => `/api/drafts/${encodeURIComponent(id)}`;

export const draftsApi = {
  create: async (body: SaveDraftBody) => (await apiClient.post<DraftResponse>('/api/drafts', body)).draft,
  save: async (id: string, body: SaveDraftBody) => (await apiClient.put<DraftResponse>(path(id), body)).draft,
  get: async (id: string) => (await apiClient.get<DraftResponse>(path(id))).draft,
  discard: (id: string) => apiClient.delete<void>(path(id)),
  schedule: async (id: string, body: ScheduleDraftBody) =>
    (await apiClient.post<DraftResponse>(`${path(id)}/schedule`, body)).draft,
  unschedule: async (id: string) => (await apiClient.delete<DraftResponse>(`${path(id)}/schedule`)).draft,
  publish: async (id: string) => (await apiClient.post<PublishedDraftResponse>(`${path(id)}/publish`)).post,
};

/** The artist's drafts, the last changed first, one keyset page per request. */
export const draftsQuery = () =>
  infiniteQueryOptions({
    queryKey: draftKeys.list(),
    queryFn: ({ pageParam, signal }) =>
      apiClient.get<DraftPage>(`/api/drafts${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`, {
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });

export function useDrafts() {
  const query = useInfiniteQuery(draftsQuery());
  const drafts: DraftSummary[] = query.data?.pages.flatMap((page) => page.drafts) ?? [];
  return { ...query, drafts };
}
