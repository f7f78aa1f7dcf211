import type { ExportLink } from '@share-arts/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/**
 * Asks for a one-time link to the zip of the account's data, then hands the link to the browser: its
 * own download manager receives the stream (the page never holds the zip, however large).
 */
export function useDataExport() {
  return useMutation({
    mutationFn: () => apiClient.post<ExportLink>('/api/account/export'),
    onSuccess: (link) => {
      const anchor = document.createElement('a');
      anchor.href = link.url;
      // The server's Content-Disposition names the file: share-arts-<username>-<date>.zip.
      anchor.download = '';
      anchor.rel = 'noopener';
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
    },
  });
}
