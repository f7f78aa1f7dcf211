import { useEffect } from 'react';
import { titlePrefix } from './use-document-title';

function setPrefix(prefix: string) {
  // The title without the old prefix is the page's own ("Home | Share Arts"), set by useDocumentTitle.
  document.title = prefix + document.title.slice(titlePrefix.value.length);
  titlePrefix.value = prefix;
}

/**
 * While mounted, puts the count before every page's title when it is above 0: "(3) Home | Share Arts".
 * Kept apart from useDocumentTitle, which every page (and /landing's small first download) carries.
 */
export function useTitleCount(count: number): void {
  useEffect(() => {
    setPrefix(count > 0 ? `(${count > 99 ? '99+' : count}) ` : '');
    return () => setPrefix('');
  }, [count]);
}
