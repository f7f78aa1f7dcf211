import { Trans } from '@lingui/react/macro';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ButtonLink } from './button';
import styles from './not-found.module.css';

interface NotFoundProps {
  icon: LucideIcon;
  /** "Page not found", "Post not found", …: the page's h1. */
  title: string;
  /** What may have happened and what to do instead. */
  children: ReactNode;
}

/** The one design for "there is nothing here": an unknown address, post or user. */
export function NotFound({ icon: Icon, title, children }: NotFoundProps) {
  return (
    <section className={styles.box} aria-labelledby="not-found-title">
      <Icon className={styles.icon} aria-hidden="true" size="2.5em" />
      <h1 id="not-found-title" className={styles.title}>
        {title}
      </h1>
      <p className={styles.text}>{children}</p>
      <div className={styles.actions}>
        <ButtonLink to="/">
          <Trans>Back to Home</Trans>
        </ButtonLink>
        <Link to="/explore">
          <Trans>Explore</Trans>
        </Link>
      </div>
    </section>
  );
}
