import { Trans } from '@lingui/react/macro';
import type { Post } from '@share-arts/contract';
import type { ReactNode } from 'react';
import { httpUrl } from '../../../lib/safe-url';
import styles from './post-card.module.css';

/**
 * Where a work comes from, beside its time: a work from another server (following out, issue 39) says "from
 * pixelfed.example", leading out to its page there; on its own page, an imported work (issue 40) says "Imported
 * from Instagram". Any other work shows its time alone.
 */
export function PostSource({
  post,
  variant,
  children,
}: {
  post: Pick<Post, 'origin' | 'importedFrom'>;
  variant: 'feed' | 'page';
  /** The time (a link to the post in a feed). */
  children: ReactNode;
}) {
  let source: ReactNode = null;
  if (post.origin) {
    const url = httpUrl(post.origin.url);
    const host = post.origin.host;
    source = url ? (
      <a className={styles.origin} href={url} target="_blank" rel="noopener nofollow">
        <Trans>
          from {host}
          <span className="visually-hidden"> (its page there, opens in a new tab)</span>
        </Trans>
      </a>
    ) : (
      <span className={styles.origin}>
        <Trans>from {host}</Trans>
      </span>
    );
  } else if (variant === 'page' && post.importedFrom) {
    const site = post.importedFrom;
    source = (
      <span className={styles.origin}>
        <Trans>Imported from {site}</Trans>
      </span>
    );
  }
  if (!source) return children;
  // The dot goes with where it is from: a narrow column moves both to the next line.
  return (
    <span className={styles.meta}>
      {children}
      <span className={styles.source}>
        <span className={styles.time} aria-hidden="true">
          ·{' '}
        </span>
        {source}
      </span>
    </span>
  );
}
