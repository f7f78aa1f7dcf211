import type {
  CreateSeriesBody,
  Series,
  SeriesPage,
  SeriesResponse,
  SeriesWorkPage,
  UpdateSeriesBody,
} from '@share-arts/contract';
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { useSignInFirst } from '../../../lib/session';
import { queueToggle } from '../../../lib/toggle-queue';
import { toast } from '../../../ui/toast';
import { applyMove, type SeriesMove } from '../model/series-order';
import { seriesKeys } from './series-keys';
import { seriesPaths } from './series-paths';

type WorksData = InfiniteData<SeriesWorkPage, string | null>;
type ListData = InfiniteData<SeriesPage, string | null>;

/** Puts the server's answer about a series wherever it is cached: its page, and its owner's list. */
export function storeSeries(queryClient: QueryClient, series: Series): void {
  queryClient.setQueryData(seriesKeys.detail(series.owner.username, series.slug), series);
  queryClient.setQueryData<ListData>(seriesKeys.list(series.owner.username), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            series: page.series.map((each) => (each._id === series._id ? series : each)),
          })),
        }
      : data,
  );
}

/** After the works of a series changed: its works, the artist's list (counts, covers), and works' series bars. */
function refreshAround(queryClient: QueryClient, series: Series, postId?: string): void {
  storeSeries(queryClient, series);
  void queryClient.invalidateQueries({ queryKey: seriesKeys.works(series._id) });
  void queryClient.invalidateQueries({ queryKey: seriesKeys.list(series.owner.username) });
  void queryClient.invalidateQueries({
    queryKey: postId ? seriesKeys.ofPost(postId) : seriesKeys.ofPosts(),
  });
}

/** A new series of the signed-in artist. */
export function useCreateSeries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateSeriesBody) =>
      (await apiClient.post<SeriesResponse>(seriesPaths.create(), body)).series,
    onSuccess: (series) => {
      queryClient.setQueryData(seriesKeys.detail(series.owner.username, series.slug), series);
      void queryClient.invalidateQueries({ queryKey: seriesKeys.list(series.owner.username) });
    },
  });
}

/** Title, description or cover of one series (a new title gives it a new slug: its page moves). */
export function useUpdateSeries(series: Series) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateSeriesBody) =>
      (await apiClient.patch<SeriesResponse>(seriesPaths.one(series._id), body)).series,
    onSuccess: (updated) => {
      storeSeries(queryClient, updated);
      // The old address is no page any more; not removed, so the page showing it stays until it has moved.
      if (updated.slug !== series.slug) {
        void queryClient.invalidateQueries({
          queryKey: seriesKeys.detail(series.owner.username, series.slug),
          refetchType: 'none',
        });
      }
      // The bars on works' pages name it by its title and slug.
      void queryClient.invalidateQueries({ queryKey: seriesKeys.ofPosts() });
    },
  });
}

/** Deletes a series (its works stay, as works of the artist). */
export function useDeleteSeries(series: Series) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.delete<void>(seriesPaths.one(series._id)),
    onSuccess: () => {
      // Not removed: the page still showing it goes to the profile next; any later visit reads it again (404).
      void queryClient.invalidateQueries({
        queryKey: seriesKeys.detail(series.owner.username, series.slug),
        refetchType: 'none',
      });
      void queryClient.invalidateQueries({ queryKey: seriesKeys.works(series._id), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: seriesKeys.list(series.owner.username) });
      void queryClient.invalidateQueries({ queryKey: seriesKeys.ofPosts() });
    },
  });
}

export interface AddWork {
  seriesId: string;
  postId: string;
  /** Its chapter; empty or absent: none. */
  chapter?: string;
}

/** Sends one work to the end of one of the artist's series (the composer calls it without a hook, after posting). */
export async function addWorkToSeries(queryClient: QueryClient, { seriesId, postId, chapter }: AddWork) {
  const trimmed = chapter?.trim();
  const { series } = await apiClient.post<SeriesResponse>(seriesPaths.works(seriesId), {
    postId,
    ...(trimmed ? { chapter: trimmed } : {}),
  });
  refreshAround(queryClient, series, postId);
  return series;
}

/** Adds a work to a series (at its end). */
export function useAddWork() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (add: AddWork) => addWorkToSeries(queryClient, add) });
}

/** Takes a work out of a series (the work itself stays). */
export function useRemoveWork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ seriesId, postId }: { seriesId: string; postId: string }) =>
      (await apiClient.delete<SeriesResponse>(seriesPaths.work(seriesId, postId))).series,
    onSuccess: (series, { postId }) => refreshAround(queryClient, series, postId),
  });
}

/** Names or clears the chapter a work opens or belongs to in a series. */
export function useSetChapter(series: Series) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ postId, chapter }: { postId: string; chapter: string }) =>
      (
        await apiClient.patch<SeriesResponse>(seriesPaths.work(series._id, postId), {
          chapter: chapter.trim() || null,
        })
      ).series,
    onSuccess: (updated, { postId }) => refreshAround(queryClient, updated, postId),
  });
}

/** The cached works of a series with one move applied (what the reorder shows at once). */
function moveInCache(data: WorksData | undefined, move: SeriesMove): WorksData | undefined {
  if (!data) return data;
  const flat = data.pages.flatMap((page) => page.works);
  const moved = applyMove(flat, (work) => work.post._id, move);
  // The pages keep their lengths, so each page's cursor still follows about where it did.
  let offset = 0;
  const pages = data.pages.map((page) => {
    const works = moved.slice(offset, offset + page.works.length);
    offset += page.works.length;
    return { ...page, works };
  });
  return { ...data, pages };
}

/**
 * Moves works of a series, one request per move, in the order they were asked for: each is shown at once
 * and sent after the one before it has been answered. When one is refused, the works are read again from
 * the server (its order is the truth), the moves queued behind it are dropped (they were made on the order
 * that was refused), and `onFailed` says why. `settled` resolves once every move sent so far is answered.
 */
export function useMoveWorks(series: Series, onFailed: (message: string) => void) {
  const queryClient = useQueryClient();
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  // Counts refusals: a move queued before the last one is not sent.
  const refusals = useRef(0);
  const failedRef = useRef(onFailed);
  useEffect(() => {
    failedRef.current = onFailed;
  });
  const move = useCallback(
    (change: SeriesMove) => {
      const key = seriesKeys.works(series._id);
      void queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<WorksData>(key, (data) => moveInCache(data, change));
      const queuedAfter = refusals.current;
      chain.current = chain.current.then(async () => {
        if (queuedAfter !== refusals.current) return;
        try {
          const { series: updated } = await apiClient.post<SeriesResponse>(
            seriesPaths.move(series._id, change.postId),
            { after: change.after },
          );
          storeSeries(queryClient, updated);
          void queryClient.invalidateQueries({ queryKey: seriesKeys.ofPosts() });
        } catch (error) {
          refusals.current += 1;
          failedRef.current(errorMessage(error));
          await queryClient.invalidateQueries({ queryKey: key });
        }
      });
    },
    [queryClient, series._id],
  );
  const settled = useCallback(() => chain.current, []);
  return { move, settled };
}

/** Follow / Following a series: shown at once, rapid taps merged into as few requests as the outcome needs. */
export function useToggleFollowSeries(): (series: Series) => void {
  const queryClient = useQueryClient();
  const signInFirst = useSignInFirst();
  return useCallback(
    (series: Series) => {
      if (!signInFirst()) return;
      const key = seriesKeys.detail(series.owner.username, series.slug);
      // The cache holds what is shown (a tap still on its way included); the queue knows what the server holds.
      const current = queryClient.getQueryData<Series>(key) ?? series;
      const desired = !current.viewer.follows;
      const shown = (follows: boolean) =>
        queryClient.setQueryData<Series>(
          key,
          (current) => current && { ...current, viewer: { ...current.viewer, follows } },
        );
      shown(desired);
      queueToggle<boolean, SeriesResponse>({
        key: `follow-series:${series._id}`,
        confirmed: current.viewer.follows,
        desired,
        send: (target) =>
          target
            ? apiClient.post<SeriesResponse>(seriesPaths.follow(series._id))
            : apiClient.delete<SeriesResponse>(seriesPaths.follow(series._id)),
        onSettled: (outcome) => {
          if (outcome.ok) {
            if (outcome.result) storeSeries(queryClient, outcome.result.series);
            return;
          }
          shown(outcome.value);
          toast.error(errorMessage(outcome.error));
        },
      });
    },
    [queryClient, signInFirst],
  );
}
