import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { ReportBody, ReportResponse } from './safety-types';

/** POST /api/reports: the answer's message says what happens next; a second open report is a 409. */
export function useSendReport() {
  return useMutation({
    mutationFn: (body: ReportBody) => apiClient.post<ReportResponse>('/api/reports', body),
  });
}
