import { useCallback } from 'react';
import { watchPost } from './watch-registry';

interface Target {
  postId: string;
  /** Set while the element is on screen. */
  release?: () => void;
}

const targets = new Map<Element, Target>();
let observer: IntersectionObserver | undefined;

/** One observer for every card; it registers and releases the posts itself, so no card re-renders for it. */
function observe(element: Element, postId: string): () => void {
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const target = targets.get(entry.target);
      if (!target) continue;
      if (entry.isIntersecting) target.release ??= watchPost(target.postId);
      else {
        target.release?.();
        target.release = undefined;
      }
    }
  });
  targets.set(element, { postId });
  observer.observe(element);
  return () => {
    observer?.unobserve(element);
    targets.get(element)?.release?.();
    targets.delete(element);
  };
}

/**
 * Watches `postId` on the live stream while the element given to the returned ref is on screen, so its
 * like and comment counts follow everyone's actions.
 */
export function useWatchPost<T extends Element>(postId: string): (element: T | null) => void {
  return useCallback(
    (element: T | null) => {
      if (!element || typeof IntersectionObserver === 'undefined') return;
      return observe(element, postId);
    },
    [postId],
  );
}
