import { STORAGE_KEYS } from '@share-arts/contract';
import { useCallback, useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

// The head script (src/boot/head.ts) sets data-theme before first paint; the DOM attribute is the source of truth.
const listeners = new Set<() => void>();

function readTheme(): Theme {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  for (const listener of listeners) listener();
}

export function setTheme(theme: Theme): void {
  applyTheme(theme);
  try {
    window.localStorage.setItem(STORAGE_KEYS.theme, theme);
  } catch {
    // The choice still holds for this visit.
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Keep several open tabs in step.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEYS.theme) return;
    applyTheme(event.newValue === 'dark' ? 'dark' : 'light');
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The current theme and a toggle that saves the choice. */
export function useTheme(): { theme: Theme; toggleTheme: () => void } {
  const theme = useSyncExternalStore(subscribe, readTheme, () => 'light' as const);
  const toggleTheme = useCallback(() => setTheme(readTheme() === 'dark' ? 'light' : 'dark'), []);
  return { theme, toggleTheme };
}
