import { t } from '@lingui/core/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../ui/toast';
import type { MutedWord } from './safety-types';
import { safetyKeys } from './safety-keys';

/** GET /api/users/me/muted-words. */
export function useMutedWords() {
  return useQuery({
    queryKey: safetyKeys.mutedWords(),
    queryFn: async ({ signal }) =>
      (await apiClient.get<{ words: MutedWord[] }>('/api/users/me/muted-words', { signal })).words,
  });
}

/** Posts change in every list once a word is muted or unmuted: they are read again. */
const refreshPosts = (queryClient: ReturnType<typeof useQueryClient>) =>
  void queryClient.invalidateQueries({ queryKey: ['posts'] });

/** POST /api/users/me/muted-words { word }; the server's message (a duplicate, too many) is the error. */
export function useAddMutedWord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (word: string) => apiClient.post<MutedWord>('/api/users/me/muted-words', { word }),
    onSuccess: (added) => {
      queryClient.setQueryData<MutedWord[]>(safetyKeys.mutedWords(), (words) => [
        added,
        ...(words ?? []).filter((entry) => entry.word !== added.word),
      ]);
      refreshPosts(queryClient);
    },
  });
}

/** DELETE /api/users/me/muted-words/{word}. */
export function useRemoveMutedWord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (word: string) => apiClient.delete(`/api/users/me/muted-words/${encodeURIComponent(word)}`),
    onSuccess: (_result, word) => {
      queryClient.setQueryData<MutedWord[]>(safetyKeys.mutedWords(), (words) =>
        (words ?? []).filter((entry) => entry.word !== word),
      );
      refreshPosts(queryClient);
      toast.success(t`“${word}” is no longer muted.`);
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
}
