import type { QueryClient } from '@tanstack/react-query';

/** The inquiries' cache keys (issue 42): every one starts with 'inquiries', so one call refreshes them all. */
export const inquiryKeys = {
  all: ['inquiries'] as const,
  list: (as: 'artist' | 'client') => ['inquiries', 'list', as] as const,
  detail: (id: string) => ['inquiries', 'detail', id] as const,
  messages: (id: string) => ['inquiries', 'messages', id] as const,
  settings: () => ['inquiries', 'settings'] as const,
  policy: (username: string) => ['inquiries', 'policy', username.toLowerCase()] as const,
};

/** A new inquiry, message or state arrived (a live notification): the inbox and open threads read again. */
export function invalidateInquiries(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: inquiryKeys.all });
}
