import { STORAGE_KEYS } from '@share-arts/contract';
import { useCallback, useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

// The head script (src/boot/head.ts) sets data-theme before first paint (the saved choice, else the system's)
// and follows the system while nothing is saved; the DOM attribute is the source of truth.
function readTheme(): Theme {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

function systemTheme(): Theme {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Saves the choice: from now on it wins over the system's. */
export function setTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  try {
    window.localStorage.setItem(STORAGE_KEYS.theme, theme);
  } catch {
    // The choice still holds for this visit.
  }
}

function subscribe(listener: () => void): () => void {
  // Whoever changes the attribute (the toggle, the head script following the system, another tab), the
  // toggle follows.
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  // Keep several open tabs in step; a cleared choice falls back to the system's.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEYS.theme && event.key !== null) return;
    const saved = event.key === null ? null : event.newValue;
    document.documentElement.dataset.theme = saved === 'dark' || saved === 'light' ? saved : systemTheme();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    observer.disconnect();
    window.removeEventListener('storage', onStorage);
  };
}

/** The current theme and a toggle that saves the choice. */
export function useTheme(): { theme: Theme; toggleTheme: () => void } {
  const theme = useSyncExternalStore(subscribe, readTheme, () => 'light' as const);
  const toggleTheme = useCallback(() => setTheme(readTheme() === 'dark' ? 'light' : 'dark'), []);
  return { theme, toggleTheme };
}
