/** Query keys of people: profiles by username, and lists of user cards (suggestions, search). */
export const userKeys = {
  all: ['users'] as const,
  profiles: () => [...userKeys.all, 'profile'] as const,
  /** Usernames are unique in any letter case, so /Mira and /mira share one cache entry. */
  profile: (username: string) => [...userKeys.profiles(), username.toLowerCase()] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  suggestions: (limit: number) => [...userKeys.lists(), 'suggestions', limit] as const,
  search: (q: string) => [...userKeys.lists(), 'search', q] as const,
};
