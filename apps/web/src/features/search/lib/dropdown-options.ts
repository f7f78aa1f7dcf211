import type { Post, SearchResponse, TagSuggestion, UserCard } from '@share-arts/contract';
import { tagPath } from '../../../ui/rich-text';
import { DROPDOWN_POSTS } from '../api/search';

/** One choice of the header's dropdown: a person, a tag, a post, or the full results page. */
export type Option =
  | { kind: 'user'; key: string; to: string; user: UserCard }
  | { kind: 'tag'; key: string; to: string; tag: TagSuggestion }
  | { kind: 'post'; key: string; to: string; post: Post }
  | { kind: 'all'; key: string; to: string };

export function searchPath(q: string): string {
  return `/search?${new URLSearchParams({ q })}`;
}

/** The dropdown's choices for `q`, in the order they are drawn and moved through: people, tags, posts, all results. */
export function dropdownOptions(q: string, data: SearchResponse | undefined) {
  const people = q && data ? (data.users ?? []) : [];
  const tags = q && data ? (data.tags ?? []) : [];
  const posts = q && data ? (data.posts ?? []).slice(0, DROPDOWN_POSTS) : [];
  const options: Option[] = [
    ...people.map((user): Option => ({
      kind: 'user',
      key: user._id,
      to: `/${encodeURIComponent(user.username)}`,
      user,
    })),
    ...tags.map((tag): Option => ({ kind: 'tag', key: `#${tag.tag}`, to: tagPath(tag.tag), tag })),
    ...posts.map((post): Option => ({
      kind: 'post',
      key: post._id,
      to: `/posts/${encodeURIComponent(post._id)}`,
      post,
    })),
  ];
  if (options.length > 0) options.push({ kind: 'all', key: 'all', to: searchPath(q) });
  return { people, tags, posts, options };
}

/** What the polite status line says of the dropdown (nothing while it is closed or has nothing to say). */
export function dropdownStatus(state: {
  shown: boolean;
  q: string;
  empty: boolean;
  expanded: boolean;
  people: number;
  tags?: number;
  posts: number;
}): string {
  const { shown, q, empty, expanded, people, tags = 0, posts } = state;
  if (!shown) return '';
  if (empty) return `No results for “${q}”`;
  if (!expanded) return '';
  const counts = [`${people} ${people === 1 ? 'person' : 'people'}`];
  if (tags > 0) counts.push(`${tags} ${tags === 1 ? 'tag' : 'tags'}`);
  counts.push(`${posts} ${posts === 1 ? 'post' : 'posts'}`);
  const said = counts.length === 3 ? `${counts[0]}, ${counts[1]} and ${counts[2]}` : counts.join(' and ');
  return `${said}. Use the arrow keys to choose.`;
}
