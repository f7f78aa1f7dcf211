import { useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './button';
import styles from './modal.module.css';

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.offsetParent !== null || element === document.activeElement,
  );
}

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** `alertdialog` for a confirmation that interrupts. */
  role?: 'dialog' | 'alertdialog';
  /** Element to focus first; defaults to the first field or button in the body. */
  initialFocus?: React.RefObject<HTMLElement | null>;
  size?: 'md' | 'sm';
  /** While true, Escape and the backdrop do not close (e.g. during an upload). */
  busy?: boolean;
}

/**
 * A modal dialog: labelled by its title, focus kept inside, Escape and the close button close it,
 * and focus returns to whatever opened it. Rendered in a portal over the page.
 */
export function Modal({
  title,
  onClose,
  children,
  role = 'dialog',
  initialFocus,
  size = 'md',
  busy = false,
}: ModalProps) {
  const { t } = useLingui();
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  const busyRef = useRef(busy);
  useEffect(() => {
    onCloseRef.current = onClose;
    busyRef.current = busy;
  });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    if (panel) {
      const target =
        initialFocus?.current ?? panel.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(panel)[0];
      (target ?? panel).focus();
    }
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      // The opener may be gone (a deleted post's menu): then the main area takes focus, unless an outer
      // dialog closing at the same time has already put it back on its own opener.
      if (opener?.isConnected) opener.focus();
      else if (!document.activeElement || document.activeElement === document.body) {
        document.getElementById('main-content')?.focus();
      }
    };
    // Focus moves in once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.stopPropagation();
      if (!busyRef.current) onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const items = focusables(panelRef.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && (document.activeElement === first || document.activeElement === panelRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div
      className={styles.backdrop}
      onMouseDown={(event) => event.target === event.currentTarget && !busy && onClose()}
    >
      <div
        ref={panelRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-busy={busy || undefined}
        tabIndex={-1}
        className={`${styles.panel} ${styles[size]}`}
        onKeyDown={onKeyDown}
      >
        <header className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          <Button variant="icon" aria-label={t`Close`} onClick={onClose} disabled={busy} className={styles.close}>
            <X aria-hidden="true" size="1.25em" />
          </Button>
        </header>
        <div className={styles.body}>{children}</div>
      </div>
    </div>,
    document.body,
  );
}
