import type { PostSeriesList, Series, SeriesPage, SeriesResponse, SeriesWorkPage } from '@share-arts/contract';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { takeBootData } from '../../../lib/boot-data';
import { seriesKeys } from './series-keys';
import { seriesPaths } from './series-paths';

/** One series by its page's address (its owner's username in any letter case, and its slug). */
export const seriesQuery = (username: string, slug: string) =>
  queryOptions({
    queryKey: seriesKeys.detail(username, slug),
    queryFn: async ({ signal }) =>
      (await apiClient.get<SeriesResponse>(seriesPaths.bySlug(username, slug), { signal })).series,
    // A visitor's shared series page carries it in the page (see lib/boot-data.ts).
    initialData: () => takeBootData<SeriesResponse>('GET', seriesPaths.bySlug(username, slug))?.series,
  });

export function useSeries(username: string, slug: string) {
  return useQuery(seriesQuery(username, slug));
}

/** A series' works in the owner's order, one keyset page per request. */
export const seriesWorksQuery = (seriesId: string) =>
  infiniteQueryOptions({
    queryKey: seriesKeys.works(seriesId),
    queryFn: ({ pageParam, signal }) =>
      apiClient.get<SeriesWorkPage>(seriesPaths.works(seriesId, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    initialData: () => {
      const page = takeBootData<SeriesWorkPage>('GET', seriesPaths.works(seriesId));
      return page && { pages: [page], pageParams: [null] };
    },
  });

export function useSeriesWorks(seriesId: string) {
  return useInfiniteQuery(seriesWorksQuery(seriesId));
}

/** An artist's series, the newest first, one keyset page per request. */
export const userSeriesQuery = (username: string) =>
  infiniteQueryOptions({
    queryKey: seriesKeys.list(username),
    queryFn: ({ pageParam, signal }) => apiClient.get<SeriesPage>(seriesPaths.list(username, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    // A visitor's shared profile carries its first page (see lib/boot-data.ts).
    initialData: () => {
      const page = takeBootData<SeriesPage>('GET', seriesPaths.list(username));
      return page && { pages: [page], pageParams: [null] };
    },
  });

/** The series of `username` loaded so far (each once), and the query behind them. */
export function useUserSeries(username: string, enabled = true) {
  const query = useInfiniteQuery({ ...userSeriesQuery(username), enabled: enabled && username !== '' });
  const series: Series[] = query.data?.pages.flatMap((page) => page.series) ?? [];
  return { ...query, series };
}

/** The series a work is in, each with the work before and after it. */
export function usePostSeries(postId: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: seriesKeys.ofPost(postId),
    queryFn: async ({ signal }) => (await apiClient.get<PostSeriesList>(seriesPaths.ofPost(postId), { signal })).series,
    // A visitor's shared post page carries it (see lib/boot-data.ts).
    initialData: () => takeBootData<PostSeriesList>('GET', seriesPaths.ofPost(postId))?.series,
  });
}
