import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import styles from './full-page-status.module.css';

/** A quiet full-page state while the session is being checked or a page is loading. */
export function FullPageLoading() {
  return (
    <div className={styles.page} role="status" aria-live="polite">
      <div className={styles.stack}>
        <span className={styles.dot} aria-hidden="true" />
        <span className="visually-hidden">
          <Trans>Loading…</Trans>
        </span>
      </div>
    </div>
  );
}

interface FullPageMessageProps {
  title: string;
  text: string;
  action?: ReactNode;
}

export function FullPageMessage({ title, text, action }: FullPageMessageProps) {
  return (
    <main className={styles.page}>
      <div className={styles.stack}>
        <h1 className={styles.title}>{title}</h1>
        <p className={styles.text}>{text}</p>
        {action}
      </div>
    </main>
  );
}
