import { TAG_PATTERN, TAG_ROUTES, type TagState } from '@share-arts/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { takeBootData } from '../../../lib/boot-data';
import { tagKeys } from './tag-keys';

const VALID_TAG = new RegExp(TAG_PATTERN, 'u');

/** The tag a page address names, in lower case, or null when it cannot be a tag (the page is then not found). */
export function tagFromParam(param: string | undefined): string | null {
  const tag = (param ?? '').replace(/^#/u, '').toLowerCase();
  return VALID_TAG.test(tag) ? tag : null;
}

/** A tag's post count and whether the viewer follows it. */
export function useTag(tag: string) {
  return useQuery({
    queryKey: tagKeys.state(tag),
    queryFn: ({ signal }) => apiClient.get<TagState>(TAG_ROUTES.tag(tag), { signal }),
    // A visitor's shared tag page carries it in the page (see lib/boot-data.ts).
    initialData: () => takeBootData<TagState>('GET', TAG_ROUTES.tag(tag)),
  });
}
