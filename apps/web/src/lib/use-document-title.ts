import { APP_NAME } from '@share-arts/contract';
import { useEffect } from 'react';

/** Sets the document title to "{page} | Share Arts". */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} | ${APP_NAME}`;
  }, [page]);
}
