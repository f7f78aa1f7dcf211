import type {
  Collection,
  CollectionResponse,
  CollectionWorkPage,
  CreateCollectionBody,
  PostCollections,
  UpdateCollectionBody,
} from '@share-arts/contract';
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { applyMove, type OrderMove } from '../../../lib/one-move-order';
import { collectionKeys } from './collection-keys';
import { collectionPaths } from './collection-paths';

type WorksData = InfiniteData<CollectionWorkPage, string | null>;

/** Puts the server's answer about a collection where it is cached, and has its owner's list read again. */
export function storeCollection(queryClient: QueryClient, collection: Collection): void {
  queryClient.setQueryData(collectionKeys.detail(collection.owner.username, collection.slug), collection);
  void queryClient.invalidateQueries({ queryKey: collectionKeys.list(collection.owner.username) });
}

/** After the works of a collection changed: its works, its owner's list (counts, covers), the "Save to…" checks. */
function refreshAround(queryClient: QueryClient, collection: Collection, postId?: string): void {
  storeCollection(queryClient, collection);
  void queryClient.invalidateQueries({ queryKey: collectionKeys.works(collection._id) });
  void queryClient.invalidateQueries({ queryKey: postId ? collectionKeys.ofPost(postId) : collectionKeys.ofPosts() });
}

/** A new collection of the signed-in person. */
export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateCollectionBody) =>
      (await apiClient.post<CollectionResponse>(collectionPaths.create(), body)).collection,
    onSuccess: (collection) => storeCollection(queryClient, collection),
  });
}

/** Title, description or visibility of one collection (a new title gives it a new slug: its page moves). */
export function useUpdateCollection(collection: Collection) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateCollectionBody) =>
      (await apiClient.patch<CollectionResponse>(collectionPaths.one(collection._id), body)).collection,
    onSuccess: (updated) => {
      storeCollection(queryClient, updated);
      if (updated.slug !== collection.slug) {
        void queryClient.invalidateQueries({
          queryKey: collectionKeys.detail(collection.owner.username, collection.slug),
          refetchType: 'none',
        });
      }
    },
  });
}

/** Deletes a collection (its works stay where they are). */
export function useDeleteCollection(collection: Collection) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.delete<void>(collectionPaths.one(collection._id)),
    onSuccess: () => {
      void queryClient.invalidateQueries({
        queryKey: collectionKeys.detail(collection.owner.username, collection.slug),
        refetchType: 'none',
      });
      void queryClient.invalidateQueries({ queryKey: collectionKeys.list(collection.owner.username) });
      void queryClient.invalidateQueries({ queryKey: collectionKeys.ofPosts() });
    },
  });
}

/** Puts a work into one of my collections (at its end, with an optional note), or takes it out. */
export function useToggleInCollection(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ collectionId, add, note }: { collectionId: string; add: boolean; note?: string }) => {
      const trimmed = note?.trim();
      const { collection } = add
        ? await apiClient.post<CollectionResponse>(collectionPaths.works(collectionId), {
            postId,
            ...(trimmed ? { note: trimmed } : {}),
          })
        : await apiClient.delete<CollectionResponse>(collectionPaths.work(collectionId, postId));
      return collection;
    },
    onMutate: ({ collectionId, add }) => {
      // The checkbox shows the choice at once.
      queryClient.setQueryData<PostCollections>(collectionKeys.ofPost(postId), (data) =>
        data
          ? {
              ...data,
              collectionIds: add
                ? [...new Set([...data.collectionIds, collectionId])]
                : data.collectionIds.filter((id) => id !== collectionId),
            }
          : data,
      );
    },
    onSuccess: (collection) => refreshAround(queryClient, collection, postId),
    onError: () => void queryClient.invalidateQueries({ queryKey: collectionKeys.ofPost(postId) }),
  });
}

/** Takes a work out of a collection: its owner, or the work's artist (from someone's public collection). */
export function useRemoveFromCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ collectionId, postId }: { collectionId: string; postId: string }) =>
      (await apiClient.delete<CollectionResponse>(collectionPaths.work(collectionId, postId))).collection,
    onSuccess: (collection, { postId }) => refreshAround(queryClient, collection, postId),
  });
}

/** Writes (or clears) the note on a work of a collection. */
export function useSetNote(collection: Collection) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ postId, note }: { postId: string; note: string }) =>
      (await apiClient.patch<CollectionResponse>(collectionPaths.work(collection._id, postId), { note: note.trim() }))
        .collection,
    onSuccess: (updated, { postId }) => refreshAround(queryClient, updated, postId),
  });
}

/** The cached works of a collection with one move applied (what the reorder shows at once). */
function moveInCache(data: WorksData | undefined, move: OrderMove): WorksData | undefined {
  if (!data) return data;
  const flat = data.pages.flatMap((page) => page.works);
  const moved = applyMove(flat, (work) => work.post._id, move);
  let offset = 0;
  const pages = data.pages.map((page) => {
    const works = moved.slice(offset, offset + page.works.length);
    offset += page.works.length;
    return { ...page, works };
  });
  return { ...data, pages };
}

/**
 * Moves works of a collection, one request per move, in the order they were asked for: each is shown at once and
 * sent after the one before it was answered. A refused move reads the works again (the server's order is the truth),
 * drops the moves queued behind it, and `onFailed` says why. `settled` resolves once every move sent so far is answered.
 */
export function useMoveCollectionWorks(collection: Collection, onFailed: (message: string) => void) {
  const queryClient = useQueryClient();
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const refusals = useRef(0);
  const failedRef = useRef(onFailed);
  useEffect(() => {
    failedRef.current = onFailed;
  });
  const move = useCallback(
    (change: OrderMove) => {
      const key = collectionKeys.works(collection._id);
      void queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<WorksData>(key, (data) => moveInCache(data, change));
      const queuedAfter = refusals.current;
      chain.current = chain.current.then(async () => {
        if (queuedAfter !== refusals.current) return;
        try {
          const { collection: updated } = await apiClient.post<CollectionResponse>(
            collectionPaths.move(collection._id, change.postId),
            { after: change.after },
          );
          queryClient.setQueryData(collectionKeys.detail(updated.owner.username, updated.slug), updated);
        } catch (error) {
          refusals.current += 1;
          failedRef.current(errorMessage(error));
          await queryClient.invalidateQueries({ queryKey: key });
        }
      });
    },
    [queryClient, collection._id],
  );
  const settled = useCallback(() => chain.current, []);
  return { move, settled };
}
