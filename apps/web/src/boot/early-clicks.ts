/**
 * Buttons pressed on a page the server drew, before the app has taken it over (issue 22). The server's markup
 * has no handlers: the app's first render replaces it (main.tsx), so a Like pressed on it would be lost
 * silently, and on a viewer's own Home that is the first thing they may press. The boot script catches such a
 * press, and once the app's render has replaced the markup, presses the same button of the app's markup: the
 * n-th button of the page, when it still has the same name (the same components drew both from the same
 * answers; a page drawn differently is left alone). A button pressed twice meanwhile (Like, then Unlike) is
 * left as it is. Links need none of this: they are real links.
 */
export function catchEarlyClicks(): void {
  /** The pressed buttons' names by their index among the page's buttons. */
  const presses = new Map<number, string | null>();
  const nameOf = (button: Element) => button.getAttribute('aria-label') ?? button.textContent;
  let watching = false;

  document.addEventListener(
    'click',
    (event) => {
      const target = event.target as Element;
      const drawn = target.closest?.('.server-drawn');
      const button = drawn && target.closest('button');
      const root = drawn?.parentElement;
      if (!button || !root) return;
      event.preventDefault();
      event.stopPropagation();
      const index = [...drawn.querySelectorAll('button')].indexOf(button);
      if (presses.delete(index)) return;
      presses.set(index, nameOf(button));
      if (watching) return;
      watching = true;
      // The app's first render replaces the wrapper in one commit; its handlers are in place once it is done.
      const watch = new MutationObserver(() => {
        if (root.querySelector('.server-drawn')) return;
        watch.disconnect();
        setTimeout(() => {
          const buttons = root.querySelectorAll('button');
          presses.forEach((name, at) => {
            if (buttons[at] && nameOf(buttons[at]) === name) buttons[at].click();
          });
        });
      });
      watch.observe(root, { childList: true });
    },
    true,
  );
}
