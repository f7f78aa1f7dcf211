import styles from './open-badge.module.css';

/**
 * "Open" beside an artist's name: they are open for commissions (issue 42). In the lists that show authors (post
 * cards on tag pages and Explore, people in search); the whole words are its accessible name.
 */
export function OpenBadge({ className }: { className?: string }) {
  return (
    <span className={[styles.badge, className].filter(Boolean).join(' ')} title="Open for commissions">
      <span aria-hidden="true">Open</span>
      <span className="visually-hidden">, open for commissions</span>
    </span>
  );
}
