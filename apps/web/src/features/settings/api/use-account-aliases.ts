import type { AccountAliasesBody, AccountAliasesResponse, RemotePerson } from '@share-arts/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** The signed-in artist's accounts on other servers (issue 40, "Moving here from another server"). */
export const accountAliasesKey = ['federation', 'aliases'] as const;

/** GET /api/federation/aliases. */
export function useAccountAliases() {
  return useQuery({
    queryKey: accountAliasesKey,
    queryFn: async ({ signal }) =>
      (await apiClient.get<AccountAliasesResponse>('/api/federation/aliases', { signal })).aliases,
  });
}

/**
 * How an account already named is sent again: the server looks every account of the list up anew, so its handle
 * (found by WebFinger) when it has one, else the address the server gave (its profile, or its actor's id).
 */
export function aliasQuery(alias: RemotePerson): string {
  return alias.handle.includes('@') ? `@${alias.handle}` : alias.url;
}

/** PUT /api/federation/aliases with the whole list: the server's sentence (not found, unreachable…) is the error. */
export function saveAccountAliases(accounts: string[]): Promise<AccountAliasesResponse> {
  const body: AccountAliasesBody = { accounts };
  return apiClient.put<AccountAliasesResponse>('/api/federation/aliases', body);
}

/** A change of the list: the whole new list, and the account removed (its `url`) when it is a removal. */
export interface AliasesChange {
  accounts: string[];
  removing?: string;
}

/** The save's mutation: the list shown becomes the server's answer (a refusal leaves it as it was). */
export function saveAliasesOptions(queryClient: QueryClient) {
  return {
    mutationFn: (change: AliasesChange) => saveAccountAliases(change.accounts),
    onSuccess: ({ aliases }: AccountAliasesResponse) => queryClient.setQueryData(accountAliasesKey, aliases),
  };
}

/** Saves the whole list. */
export function useSaveAccountAliases() {
  return useMutation(saveAliasesOptions(useQueryClient()));
}
