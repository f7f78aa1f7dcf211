import { Suspense, useState, type ReactNode } from 'react';
import styles from './menu.module.css';

interface LazyMenuProps {
  /** The menu button's accessible name, as Menu's. */
  label: string;
  /** The button's visible content, as Menu's. */
  trigger: ReactNode;
  className?: string;
  /** Asks for the menu's chunk (when the pointer or the focus reaches the button: it is then there for the press). */
  load: () => unknown;
  /** The menu itself (a Menu, from the chunk), opened on its first or last item. */
  children: (openAt: 'first' | 'last') => ReactNode;
}

/**
 * A menu button whose menu (its items, what they do, their icons) is a chunk of its own, loaded when it is first
 * opened: a feed's every card has one, and few are ever opened. Until then, the button is Menu's own button, closed;
 * a press, Enter or Space opens the loaded menu on its first item, ArrowUp on its last, as Menu does.
 */
export function LazyMenu({ label, trigger, className, load, children }: LazyMenuProps) {
  const [openAt, setOpenAt] = useState<'first' | 'last'>();
  const button = (
    <button
      type="button"
      className={styles.button}
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={load}
      onFocus={load}
      onClick={() => setOpenAt('first')}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
        event.preventDefault();
        setOpenAt(event.key === 'ArrowUp' ? 'last' : 'first');
      }}
    >
      {trigger}
    </button>
  );
  if (!openAt) return <div className={[styles.root, className].filter(Boolean).join(' ')}>{button}</div>;
  return (
    <Suspense fallback={<div className={[styles.root, className].filter(Boolean).join(' ')}>{button}</div>}>
      {children(openAt)}
    </Suspense>
  );
}
