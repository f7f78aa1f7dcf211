import type { SecurityLogResponse } from '@share-arts/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** Read again after every change of what protects the account (two-factor, the address, the password). */
export const securityLogKey = ['account', 'security-log'] as const;

const securityLogQuery = () =>
  queryOptions({
    queryKey: securityLogKey,
    queryFn: ({ signal }) => apiClient.get<SecurityLogResponse>('/api/account/security-log', { signal }),
    select: (answer) => answer.events,
  });

/** What changed in what protects the account (GET /api/account/security-log, issue 38), the newest first. */
export function useSecurityLog() {
  return useQuery(securityLogQuery());
}
