import { Trans, useLingui } from '@lingui/react/macro';
import styles from './open-badge.module.css';

/**
 * "Open" beside an artist's name: they are open for commissions (issue 42). In the lists that show authors (post
 * cards on tag pages and Explore, people in search); the whole words are its accessible name.
 */
export function OpenBadge({ className }: { className?: string }) {
  const { t } = useLingui();
  return (
    <span className={[styles.badge, className].filter(Boolean).join(' ')} title={t`Open for commissions`}>
      <span aria-hidden="true">
        <Trans>Open</Trans>
      </span>
      <span className="visually-hidden">
        <Trans>, open for commissions</Trans>
      </span>
    </span>
  );
}
