import type { Post, SearchResponse, UserCard } from '@share-arts/contract';
import { DROPDOWN_POSTS } from '../api/search';

/** One choice of the header's dropdown: a person, a post, or the full results page. */
export type Option =
  | { kind: 'user'; key: string; to: string; user: UserCard }
  | { kind: 'post'; key: string; to: string; post: Post }
  | { kind: 'all'; key: string; to: string };

export function searchPath(q: string): string {
  return `/search?${new URLSearchParams({ q })}`;
}

/** The dropdown's choices for `q`, in the order they are drawn and moved through: people, posts, all results. */
export function dropdownOptions(q: string, data: SearchResponse | undefined) {
  const people = q && data ? (data.users ?? []) : [];
  const posts = q && data ? (data.posts ?? []).slice(0, DROPDOWN_POSTS) : [];
  const options: Option[] = [
    ...people.map((user): Option => ({
      kind: 'user',
      key: user._id,
      to: `/${encodeURIComponent(user.username)}`,
      user,
    })),
    ...posts.map((post): Option => ({
      kind: 'post',
      key: post._id,
      to: `/posts/${encodeURIComponent(post._id)}`,
      post,
    })),
  ];
  if (options.length > 0) options.push({ kind: 'all', key: 'all', to: searchPath(q) });
  return { people, posts, options };
}

/** What the polite status line says of the dropdown (nothing while it is closed or has nothing to say). */
export function dropdownStatus(state: {
  shown: boolean;
  q: string;
  empty: boolean;
  expanded: boolean;
  people: number;
  posts: number;
}): string {
  const { shown, q, empty, expanded, people, posts } = state;
  if (!shown) return '';
  if (empty) return `No results for “${q}”`;
  if (!expanded) return '';
  return `${people} ${people === 1 ? 'person' : 'people'} and ${posts} ${posts === 1 ? 'post' : 'posts'}. Use the arrow keys to choose.`;
}
