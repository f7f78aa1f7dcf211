import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { toastsWanted, wantToasts } from './toast';

const Toaster = lazy(() => import('./toaster'));

/**
 * Where the toasts appear. The container and react-toastify load when the page is first used (a pointer
 * down or a key press: what can lead to a toast) or when a toast is raised, not with the page's first
 * render, which does not need them.
 */
export function ToastOutlet() {
  const wanted = useSyncExternalStore(toastsWanted.subscribe, toastsWanted.get);
  useEffect(() => {
    if (wanted) return;
    const events = ['pointerdown', 'keydown'] as const;
    const warm = () => wantToasts();
    for (const event of events) window.addEventListener(event, warm, { capture: true, once: true, passive: true });
    return () => {
      for (const event of events) window.removeEventListener(event, warm, { capture: true });
    };
  }, [wanted]);
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
