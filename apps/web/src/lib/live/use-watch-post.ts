import { useEffect } from 'react';
import { useInView } from '../use-in-view';
import { watchPost } from './watch-registry';

/**
 * Watches `postId` on the live stream while the element given to the returned ref is on screen, so its
 * like and comment counts follow everyone's actions.
 */
export function useWatchPost<T extends Element>(postId: string): (element: T | null) => void {
  const [ref, onScreen] = useInView<T>('0px');
  useEffect(() => (onScreen ? watchPost(postId) : undefined), [postId, onScreen]);
  return ref;
}
