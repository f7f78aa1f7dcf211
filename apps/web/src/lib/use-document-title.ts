import { APP_NAME } from '@share-arts/contract';
import { useEffect } from 'react';

/** What goes before every title: "(3) " while there are unread notifications (see use-title-count.ts). */
export const titlePrefix = { value: '' };

/** Sets the document title to "{page} | Share Arts". */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = `${titlePrefix.value}${page} | ${APP_NAME}`;
  }, [page]);
}
