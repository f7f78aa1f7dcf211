/** Query keys of the viewer's safety lists: blocked and muted accounts, muted words. */
export const safetyKeys = {
  all: ['safety'] as const,
  accounts: (kind: 'blocks' | 'mutes') => [...safetyKeys.all, kind] as const,
  mutedWords: () => [...safetyKeys.all, 'muted-words'] as const,
};
