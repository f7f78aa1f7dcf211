import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { whenIdle } from '../lib/when-idle';
import { toastsWanted, wantToasts } from './toast';

const Toaster = lazy(() => import('./toaster'));

/**
 * Where the toasts appear. The container and react-toastify are not part of the first render: they load
 * once the page has loaded and the browser is idle, or sooner when the page is first used (a pointer down
 * or a key press: what can lead to a toast) or a toast is raised.
 */
export function ToastOutlet() {
  const [wanted, setWanted] = useState(toastsWanted.get);
  useEffect(() => {
    // A transition: mounting the container is not urgent, and yields to whatever is.
    const mount = () => startTransition(() => setWanted(true));
    const unsubscribe = toastsWanted.subscribe(mount);
    // Wanted between the first render and now.
    if (toastsWanted.get()) mount();
    return unsubscribe;
  }, []);
  useEffect(() => {
    if (wanted) return;
    const events = ['pointerdown', 'keydown'] as const;
    for (const event of events)
      window.addEventListener(event, wantToasts, { capture: true, once: true, passive: true });
    let cancelIdle: (() => void) | undefined;
    const onLoad = () => (cancelIdle = whenIdle(wantToasts));
    if (document.readyState === 'complete') onLoad();
    else window.addEventListener('load', onLoad, { once: true });
    return () => {
      for (const event of events) window.removeEventListener(event, wantToasts, { capture: true });
      window.removeEventListener('load', onLoad);
      cancelIdle?.();
    };
  }, [wanted]);
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
