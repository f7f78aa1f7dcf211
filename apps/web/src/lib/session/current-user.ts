import type { User, VerifyResponse } from '@share-arts/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiClient } from '../api-client';
import { takeBootData } from '../boot-data';
import { clearToken, getToken, setToken } from '../token-storage';
import { sessionKeys } from './session-keys';

const VERIFY_PATH = '/api/auth/verify';

/** Verifies the stored token; a rejected token signs the visitor out quietly. */
async function verifyStoredToken(): Promise<User | null> {
  const encodedToken = getToken();
  if (!encodedToken) return null;
  try {
    const { user } = await apiClient.post<VerifyResponse>(VERIFY_PATH, { encodedToken });
    return user;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) {
      clearToken();
      return null;
    }
    throw error;
  }
}

export const currentUserQuery = () =>
  queryOptions({
    queryKey: sessionKeys.currentUser(),
    queryFn: verifyStoredToken,
    // Without a token there is nothing to verify: signed out from the first render. With one, the boot
    // script may have had it verified already (see lib/boot-data.ts).
    initialData: () => (getToken() ? takeBootData<VerifyResponse>('POST', VERIFY_PATH)?.user : null),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

/** The signed-in user, or null for a visitor. */
export function useCurrentUser() {
  return useQuery(currentUserQuery());
}

/** Stores the token and the user after a login or signup. */
/** True after a logout (until the next sign-in): the guard then has no page to remember. */
let endedByLogout = false;
export const sessionEndedByLogout = (): boolean => endedByLogout;

export function startSession(queryClient: QueryClient, token: string, user: User): void {
  endedByLogout = false;
  setToken(token);
  // What a visitor read was read without a token (no viewer flags, no works shown to signed-in people
  // only): drop it, so the page they come back to asks again as them.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.all[0] });
  queryClient.setQueryData(sessionKeys.currentUser(), user);
}

/** Forgets the token and every cached server response. */
export function endSession(queryClient: QueryClient): void {
  endedByLogout = true;
  forgetSession(queryClient);
}

/**
 * The server stopped accepting the token (it expired, or the account is gone): signs out quietly, as a
 * rejected token does at start, and the guard remembers the page for the next login.
 */
export function expireSession(queryClient: QueryClient): void {
  endedByLogout = false;
  forgetSession(queryClient);
}

function forgetSession(queryClient: QueryClient): void {
  // What the service worker kept of this account's answers goes with the session (issue 44).
  const token = getToken();
  if (token)
    void import('../pwa/account-cache').then(
      ({ forgetAccountCache }) => forgetAccountCache(token),
      () => {},
    );
  // This device's push subscription goes too (the server deletes its row with the session), issue 44.
  void import('../pwa/push-device').then(
    ({ forgetThisDevice }) => forgetThisDevice(),
    () => {},
  );
  clearToken();
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.all[0] });
  queryClient.setQueryData(sessionKeys.currentUser(), null);
}

export function setCurrentUser(queryClient: QueryClient, user: User): void {
  endedByLogout = false;
  queryClient.setQueryData(sessionKeys.currentUser(), user);
}
