import type { User, UserPage } from '@share-arts/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyFollowAnswer } from './follow-cache';
import { userKeys } from './user-keys';

// The live `follow` frame (issue 39): someone's server answered the viewer's follow of them.
const person = (id: string, requested = true) =>
  ({
    _id: id,
    username: `${id}@remote.example`,
    followerCount: 3,
    viewer: { follows: true, requested },
  }) as unknown as User;

function setup() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(userKeys.profile('bob@remote.example'), person('bob'));
  const list = userKeys.search('b');
  queryClient.setQueryData<UserPage>(list, { users: [person('bob'), person('other')], nextCursor: null } as UserPage);
  return { queryClient, list };
}

describe('a follow answered by their server', () => {
  it('accepted: every copy of them stops saying Requested, and nobody else changes', () => {
    const { queryClient, list } = setup();
    applyFollowAnswer(queryClient, { userId: 'bob', accepted: true });
    const profile = queryClient.getQueryData<User>(userKeys.profile('bob@remote.example'));
    expect(profile?.viewer).toEqual({ follows: true, requested: false });
    expect(profile?.followerCount).toBe(3);
    const users = queryClient.getQueryData<UserPage>(list)?.users;
    expect(users?.map((user) => user.viewer)).toEqual([
      { follows: true, requested: false },
      { follows: true, requested: true },
    ]);
  });

  it('refused: the follow is gone, the follower count with it', () => {
    const { queryClient } = setup();
    applyFollowAnswer(queryClient, { userId: 'bob', accepted: false });
    const profile = queryClient.getQueryData<User>(userKeys.profile('bob@remote.example'));
    expect(profile?.viewer).toEqual({ follows: false, requested: false });
    expect(profile?.followerCount).toBe(2);
  });
});
