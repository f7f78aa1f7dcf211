import type { QueryClient } from '@tanstack/react-query';

/** The imports' cache keys (issue 40): the account's list, and each import's items. */
export const importKeys = {
  all: ['imports'] as const,
  list: () => [...importKeys.all, 'list'] as const,
  items: (id: string) => [...importKeys.all, 'items', id] as const,
};

/** An import moved on (the live socket's `import` frame): its list and items are read again. */
export function invalidateImports(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: importKeys.all });
}
