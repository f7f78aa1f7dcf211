import type { Import, ImportItemsResponse, ImportOptions, ImportResponse, ImportsResponse } from '@share-arts/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { apiClient } from '../../../lib/api-client';
import { sessionKeys } from '../../../lib/session/session-keys';
import { uploadForm } from '../../../lib/upload';
import { importKeys } from './import-keys';

/** While an import runs and the live socket is away, its progress is read this often all the same. */
const POLL_MS = 5000;

const isRunning = (item: Import | undefined) => item?.state === 'queued' || item?.state === 'running';

/**
 * The account's newest import, as the server keeps it: a tab closed and opened again finds its preview, its progress
 * or its result here (the live socket's `import` frames read it again as it moves).
 */
export function useLatestImport() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: importKeys.list(),
    queryFn: async () => (await apiClient.get<ImportsResponse>('/api/imports')).imports[0] ?? null,
    refetchInterval: (query) => (isRunning(query.state.data ?? undefined) ? POLL_MS : false),
  });
  // The archive's bio and photo were applied while this page watched (its `profile` came): the session's user, whose
  // photo the header shows and whose bio Settings' form holds, is read again.
  const item = query.data ?? undefined;
  const watched = useRef<{ id: string; applied: boolean } | null>(null);
  const applied = Boolean(item?.profile && (item.profile.bio || item.profile.photo));
  useEffect(() => {
    if (!item) return;
    const before = watched.current;
    watched.current = { id: item._id, applied };
    if (applied && before?.id === item._id && !before.applied) {
      void queryClient.invalidateQueries({ queryKey: sessionKeys.currentUser() });
    }
  }, [item, applied, queryClient]);
  return query;
}

/** What became of the posts of a finished import, imported or skipped: the first page (100) of each. */
export function useImportItems(id: string, outcome: 'imported' | 'skipped') {
  return useQuery({
    queryKey: [...importKeys.items(id), outcome],
    queryFn: () => apiClient.get<ImportItemsResponse>(`/api/imports/${id}/items?outcome=${outcome}`),
  });
}

/** Sends an archive (XHR, for the upload's progress) and answers its preview. */
export function useUploadArchive() {
  const queryClient = useQueryClient();
  const [sent, setSent] = useState(0);
  const mutation = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      setSent(0);
      return uploadForm<ImportResponse>('/api/imports', form, { onProgress: setSent });
    },
    onSuccess: ({ import: created }) => queryClient.setQueryData(importKeys.list(), created),
  });
  return { ...mutation, sent };
}

/** Starts a previewed import with the artist's choices. */
export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, options }: { id: string; options: ImportOptions }) =>
      apiClient.post<ImportResponse>(`/api/imports/${id}/start`, options),
    onSuccess: ({ import: started }) => queryClient.setQueryData(importKeys.list(), started),
  });
}
