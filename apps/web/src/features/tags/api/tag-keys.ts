/** Query keys of tags: a tag's state (count, followed) and the viewer's followed tags. */
export const tagKeys = {
  all: ['tags'] as const,
  state: (tag: string) => [...tagKeys.all, 'state', tag] as const,
  followed: () => [...tagKeys.all, 'followed'] as const,
};
