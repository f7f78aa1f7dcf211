import type { FocusEvent } from 'react';

/**
 * Focus that lands under the fixed header or bottom bar moves the element clear of them. Browsers scroll a
 * focused element into view only when it is wholly out of sight, and do not count the bars (the html's
 * scroll-padding, see global.css) when they decide; `scrollIntoView` does count them.
 */
export function keepClearOfBars(event: FocusEvent<HTMLElement>): void {
  const target = event.target;
  if (target === event.currentTarget) return;
  const { top, bottom } = target.getBoundingClientRect();
  const root = getComputedStyle(document.documentElement);
  const clearTop = parseFloat(root.scrollPaddingTop) || 0;
  const clearBottom = window.innerHeight - (parseFloat(root.scrollPaddingBottom) || 0);
  if (top < clearTop || bottom > clearBottom) target.scrollIntoView({ block: 'nearest' });
}
