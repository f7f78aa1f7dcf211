import { plural, t } from '@lingui/core/macro';
import type { Post, SearchResponse, TagSuggestion, UserCard } from '@share-arts/contract';
import { currentLocale } from '../../../lib/current-locale';
import { profilePath } from '../../../lib/handle';
import { tagPath } from '../../../ui/rich-text';
import { DROPDOWN_POSTS } from '../api/search';
import { lookupLabel, type RemoteQuery } from './remote-query';

/**
 * One choice of the header's dropdown: a lookup on another server (what was typed is a handle or an address), a
 * person, a tag, a post, or the full results page.
 */
export type Option =
  | { kind: 'lookup'; key: string; to: string; query: RemoteQuery }
  | { kind: 'user'; key: string; to: string; user: UserCard }
  | { kind: 'tag'; key: string; to: string; tag: TagSuggestion }
  | { kind: 'post'; key: string; to: string; post: Post }
  | { kind: 'all'; key: string; to: string };

export function searchPath(q: string): string {
  return `/search?${new URLSearchParams({ q })}`;
}

/** The search page, running the lookup of `query` on another server as it opens. */
export function lookupPath(query: RemoteQuery): string {
  return `/search?${new URLSearchParams({ q: query.q, lookup: '1' })}`;
}

/**
 * The dropdown's choices for `q`, in the order they are drawn and moved through: the lookup on another server
 * (when `remote` is what was typed), people, tags, posts, all results.
 */
export function dropdownOptions(q: string, data: SearchResponse | undefined, remote: RemoteQuery | null = null) {
  // A pasted address is not searched for here (no name or word holds one).
  const found = q && remote?.kind !== 'url' ? data : undefined;
  const people = found?.users ?? [];
  const tags = found?.tags ?? [];
  const posts = (found?.posts ?? []).slice(0, DROPDOWN_POSTS);
  const options: Option[] = [
    ...(remote ? [{ kind: 'lookup', key: 'lookup', to: lookupPath(remote), query: remote } satisfies Option] : []),
    ...people.map((user): Option => ({
      kind: 'user',
      key: user._id,
      to: profilePath(user.username),
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
  if (q && options.length > 0) options.push({ kind: 'all', key: 'all', to: searchPath(q) });
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
  /** The lookup offered first (what was typed is a handle or an address on another server). */
  remote?: RemoteQuery | null;
}): string {
  const { shown, q, empty, expanded, people, tags = 0, posts, remote } = state;
  if (!shown) return '';
  if (empty) return t`No results for “${q}”`;
  if (!expanded) return '';
  if (remote && people + tags + posts === 0) {
    const offer = lookupLabel(remote);
    return t`${offer}. Press Enter to look it up.`;
  }
  const counts = [t`${plural(people, { one: '# person', other: '# people' })}`];
  if (tags > 0) counts.push(t`${plural(tags, { one: '# tag', other: '# tags' })}`);
  counts.push(t`${plural(posts, { one: '# post', other: '# posts' })}`);
  // "1 person, 2 tags, and 1 post": the language's own way of listing (Intl.ListFormat).
  const said = new Intl.ListFormat(currentLocale(), { type: 'conjunction' }).format(counts);
  if (!remote) return t`${said}. Use the arrow keys to choose.`;
  const offer = lookupLabel(remote);
  return t`${offer}, or ${said}. Use the arrow keys to choose.`;
}
