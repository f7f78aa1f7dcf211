import type { User, UserResponse } from '@share-arts/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { takeBootData } from '../../../lib/boot-data';
import { useCurrentUser } from '../../../lib/session';
import { userKeys } from './user-keys';

/** The request of a profile by username. */
export const userPath = (username: string) => `/api/users/by-username/${encodeURIComponent(username)}`;

export const getUserByUsername = async (username: string, signal?: AbortSignal): Promise<User> =>
  (await apiClient.get<UserResponse>(userPath(username), { signal })).user;

export const userProfileQuery = (username: string) =>
  queryOptions({
    queryKey: userKeys.profile(username),
    queryFn: ({ signal }) => getUserByUsername(username, signal),
    // A visitor's shared profile carries it in the page (see lib/boot-data.ts).
    initialData: () => takeBootData<UserResponse>('GET', userPath(username))?.user,
  });

/** A profile by username (any letter case). The signed-in user's own is drawn from the session at once. */
export function useUserProfile(username: string) {
  const { data: me } = useCurrentUser();
  const own = me && me.username.toLowerCase() === username.toLowerCase() ? me : undefined;
  return useQuery({ ...userProfileQuery(username), placeholderData: own });
}
