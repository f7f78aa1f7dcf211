import { useCallback, useState } from 'react';

/** By default, "in view" starts 600 px before the element reaches the viewport. */
const AHEAD = '600px 0px';

/**
 * Whether the element given to the returned callback ref is within `rootMargin` of the viewport.
 * A state, not an event, so a list can keep loading while its end stays in view.
 */
export function useInView<T extends Element>(rootMargin = AHEAD): [(element: T | null) => void, boolean] {
  const [inView, setInView] = useState(false);
  const ref = useCallback(
    (element: T | null) => {
      if (!element || typeof IntersectionObserver === 'undefined') return;
      const observer = new IntersectionObserver((entries) => setInView(entries.some((entry) => entry.isIntersecting)), {
        rootMargin,
      });
      observer.observe(element);
      return () => {
        observer.disconnect();
        setInView(false);
      };
    },
    [rootMargin],
  );
  return [ref, inView];
}
