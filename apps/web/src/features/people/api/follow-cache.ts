import type { User, UserCard, UserPage } from '@share-arts/contract';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { userKeys } from './user-keys';

/** The server's answer to a follow or an unfollow: both people, with their new counts. */
export interface FollowResponse {
  user?: User;
  followUser?: User;
}

/**
 * A follow toggle that went idle: `follows` is what the server holds as far as the queue knows; `response`
 * is absent when no request was needed; `failed` when the server refused (the cached state was stale).
 */
export interface FollowSettled {
  userId: string;
  follows: boolean;
  response?: FollowResponse;
  failed?: boolean;
}

type Person = User | UserCard;

function withFollow<T extends Person>(person: T, follows: boolean, fresh?: User): T {
  if (fresh) return { ...person, viewer: fresh.viewer, followerCount: fresh.followerCount };
  if (person.viewer.follows === follows) return person;
  const delta = follows ? 1 : -1;
  return {
    ...person,
    viewer: { ...person.viewer, follows },
    followerCount: Math.max(0, person.followerCount + delta),
  };
}

function patchPage(page: UserPage, userId: string, follows: boolean, fresh?: User): UserPage {
  if (!page.users.some((user) => user._id === userId)) return page;
  return { ...page, users: page.users.map((user) => (user._id === userId ? withFollow(user, follows, fresh) : user)) };
}

/** Puts a profile the server sent (after a follow, or an edit of your own) into the profile cache. */
export function setCachedProfile(queryClient: QueryClient, user: User): void {
  queryClient.setQueryData(userKeys.profile(user.username), user);
}

/** Every cached copy of the user — profile, suggestions, search results — now shows `follows`. */
export function applyFollow(queryClient: QueryClient, { userId, follows, response, failed }: FollowSettled): void {
  if (failed) {
    // The server knew better than our copies: fetch them again.
    void queryClient.invalidateQueries({ queryKey: userKeys.all });
    return;
  }
  const fresh = response?.followUser?._id === userId ? response.followUser : undefined;
  if (fresh) setCachedProfile(queryClient, fresh);
  else {
    queryClient.setQueriesData<User>({ queryKey: userKeys.profiles() }, (user) =>
      user && user._id === userId ? withFollow(user, follows) : user,
    );
  }
  // My own profile's "following" count.
  if (response?.user && response.user._id !== userId) setCachedProfile(queryClient, response.user);

  queryClient.setQueriesData<UserPage | InfiniteData<UserPage>>({ queryKey: userKeys.lists() }, (data) => {
    if (!data) return data;
    if ('pages' in data) {
      const pages = data.pages.map((page) => patchPage(page, userId, follows, fresh));
      return pages.every((page, index) => page === data.pages[index]) ? data : { ...data, pages };
    }
    return patchPage(data, userId, follows, fresh);
  });
}

/**
 * The server of someone on another server answered the viewer's follow (issue 39, the live `follow` frame): accepted,
 * every cached copy of them stops saying "Requested"; refused, the follow is gone (counted down, as an unfollow).
 */
export function applyFollowAnswer(
  queryClient: QueryClient,
  { userId, accepted }: { userId: string; accepted: boolean },
) {
  const answered = <T extends Person>(person: T): T => {
    if (person._id !== userId || !person.viewer.follows) return person;
    const changed = accepted ? person : withFollow(person, false);
    return { ...changed, viewer: { ...changed.viewer, requested: false } };
  };
  queryClient.setQueriesData<User>({ queryKey: userKeys.profiles() }, (user) => user && answered(user));
  const patch = (page: UserPage) =>
    page.users.some((user) => user._id === userId) ? { ...page, users: page.users.map(answered) } : page;
  queryClient.setQueriesData<UserPage | InfiniteData<UserPage>>({ queryKey: userKeys.lists() }, (data) => {
    if (!data) return data;
    return 'pages' in data ? { ...data, pages: data.pages.map(patch) } : patch(data);
  });
}
