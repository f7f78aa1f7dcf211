import type { FocusEvent } from 'react';

/**
 * Focus that lands under the fixed header or bottom bar moves the element clear of them. Browsers scroll a
 * focused element into view only when it is wholly out of sight, and do not count the bars (the html's
 * scroll-padding, see global.css) when they decide; `scrollIntoView` does count them.
 */
export function keepClearOfBars(event: FocusEvent<HTMLElement>): void {
  const target = event.target;
  // Only focus the person moves themselves (the keyboard, a field): focus a script moves after a click,
  // such as the new-posts pill's to the first post while it scrolls to the top, must not stop that scroll.
  if (target === event.currentTarget || !target.matches(':focus-visible')) return;
  const { top, bottom } = target.getBoundingClientRect();
  const root = getComputedStyle(document.documentElement);
  const clearTop = parseFloat(root.scrollPaddingTop) || 0;
  const clearBottom = window.innerHeight - (parseFloat(root.scrollPaddingBottom) || 0);
  if (top < clearTop || bottom > clearBottom) target.scrollIntoView({ block: 'nearest' });
}
