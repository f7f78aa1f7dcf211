import type {
  Collection,
  CollectionPage,
  CollectionResponse,
  CollectionWorkPage,
  PostCollections,
} from '@share-arts/contract';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { takeBootData } from '../../../lib/boot-data';
import { collectionKeys } from './collection-keys';
import { collectionPaths } from './collection-paths';

/** One collection by its page's address (its owner's username in any letter case, and its slug). */
export const collectionQuery = (username: string, slug: string) =>
  queryOptions({
    queryKey: collectionKeys.detail(username, slug),
    queryFn: async ({ signal }) =>
      (await apiClient.get<CollectionResponse>(collectionPaths.bySlug(username, slug), { signal })).collection,
    // A visitor's shared collection page carries it in the page (see lib/boot-data.ts).
    initialData: () => takeBootData<CollectionResponse>('GET', collectionPaths.bySlug(username, slug))?.collection,
  });

export function useCollection(username: string, slug: string) {
  return useQuery(collectionQuery(username, slug));
}

/** A collection's works in the owner's order (Saved: the newest saved first), one keyset page per request. */
export const collectionWorksQuery = (collectionId: string) =>
  infiniteQueryOptions({
    queryKey: collectionKeys.works(collectionId),
    queryFn: ({ pageParam, signal }) =>
      apiClient.get<CollectionWorkPage>(collectionPaths.works(collectionId, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });

export function useCollectionWorks(collectionId: string) {
  return useInfiniteQuery(collectionWorksQuery(collectionId));
}

/** A person's collections (the owner's: Saved first), one keyset page per request. */
export const userCollectionsQuery = (username: string) =>
  infiniteQueryOptions({
    queryKey: collectionKeys.list(username),
    queryFn: ({ pageParam, signal }) =>
      apiClient.get<CollectionPage>(collectionPaths.list(username, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });

/** The collections of `username` loaded so far (each once), and the query behind them. */
export function useUserCollections(username: string, enabled = true) {
  const query = useInfiniteQuery({ ...userCollectionsQuery(username), enabled: enabled && username !== '' });
  const seen = new Set<string>();
  const collections: Collection[] = (query.data?.pages.flatMap((page) => page.collections) ?? []).filter(
    (collection) => !seen.has(collection._id) && Boolean(seen.add(collection._id)),
  );
  return { ...query, collections };
}

/** Whether a work is in my Saved, and which of my collections hold it (the "Save to…" dialog's checks). */
export function usePostCollections(postId: string) {
  return useQuery({
    queryKey: collectionKeys.ofPost(postId),
    queryFn: ({ signal }) => apiClient.get<PostCollections>(collectionPaths.ofPost(postId), { signal }),
  });
}
