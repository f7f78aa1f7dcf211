import {
  TAG_LIMITS,
  TAG_ROUTES,
  type MentionSuggestions,
  type TagSuggestions,
  type UserSummary,
} from '@share-arts/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from './api-client';
import type { CaretTrigger } from './caret-trigger';

/** One suggestion for what is typed after `#` or `@`. */
export type TextSuggestion =
  | { kind: 'tag'; key: string; word: string; postCount: number }
  | { kind: 'mention'; key: string; word: string; user: UserSummary };

const LIMIT = TAG_LIMITS.suggestDefault;

export const textSuggestionKeys = {
  all: ['text-suggestions'] as const,
  of: (kind: CaretTrigger['kind'], prefix: string) => [...textSuggestionKeys.all, kind, prefix.toLowerCase()] as const,
};

async function fetchSuggestions(
  kind: CaretTrigger['kind'],
  prefix: string,
  signal: AbortSignal,
): Promise<TextSuggestion[]> {
  const params = new URLSearchParams({ prefix, limit: String(LIMIT) });
  if (kind === 'tag') {
    const { tags } = await apiClient.get<TagSuggestions>(`${TAG_ROUTES.suggest}?${params}`, { signal });
    return tags.map((tag) => ({ kind: 'tag', key: `#${tag.tag}`, word: tag.tag, postCount: tag.postCount }));
  }
  const { users } = await apiClient.get<MentionSuggestions>(`${TAG_ROUTES.mentionable}?${params}`, { signal });
  return users.map((user) => ({ kind: 'mention', key: `@${user._id}`, word: user.username, user }));
}

/**
 * Tags (the most used first) or people (those the viewer follows first) for what is typed after `#` or `@`;
 * nothing while `trigger` is null. The previous answer stays on screen while the next one loads.
 */
export function useTextSuggestions(trigger: Pick<CaretTrigger, 'kind' | 'query'> | null) {
  const kind = trigger?.kind ?? 'tag';
  const prefix = trigger?.query ?? '';
  return useQuery({
    queryKey: textSuggestionKeys.of(kind, prefix),
    queryFn: ({ signal }) => fetchSuggestions(kind, prefix, signal),
    enabled: trigger !== null,
    placeholderData: (previous, previousQuery) =>
      // Only a previous answer of the same kind: people must not stand in for tags.
      previousQuery?.queryKey[1] === kind ? keepPreviousData(previous) : undefined,
    staleTime: 30_000,
  });
}
