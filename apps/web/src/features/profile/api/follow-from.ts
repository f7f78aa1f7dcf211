import type { FollowFromResponse } from '@share-arts/contract';
import { apiClient } from '../../../lib/api-client';

/** Where the visitor typed their account last, so the dialog offers it again (as Mastodon's does). */
const REMEMBERED = 'share-arts:fediverse-account';

export function rememberedAccount(): string {
  try {
    return localStorage.getItem(REMEMBERED) ?? '';
  } catch {
    return '';
  }
}

/**
 * Asks the server for the visitor's own server's page for following `username` (GET
 * /api/users/{username}/follow-from), remembers the account typed, and answers the page's URL.
 */
export async function followFromUrl(username: string, account: string): Promise<string> {
  const answer = await apiClient.get<FollowFromResponse>(
    `/api/users/${encodeURIComponent(username)}/follow-from?account=${encodeURIComponent(account.trim())}`,
  );
  try {
    localStorage.setItem(REMEMBERED, account.trim());
  } catch {
    // Private mode: nothing is remembered.
  }
  return answer.url;
}
