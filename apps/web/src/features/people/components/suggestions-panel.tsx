import { useId } from 'react';
import { Button } from '../../../ui/button';
import { useSuggestions } from '../api/get-suggestions';
import { PersonRow } from './person-row';
import styles from './suggestions-panel.module.css';

const COUNT = 5;

interface SuggestionsPanelProps {
  /** column: the right-hand column of wide screens (a complementary landmark); strip: a scrolling row above the feed. */
  variant: 'column' | 'strip';
  className?: string;
}

/** "Who to follow": a few people the viewer does not follow yet, each with Follow / Following. */
export function SuggestionsPanel({ variant, className }: SuggestionsPanelProps) {
  const titleId = useId();
  const { data, isPending, isError, refetch } = useSuggestions(COUNT);
  const users = data?.users ?? [];

  let body;
  if (isPending) {
    body = (
      <p className={styles.status} role="status">
        Finding artists…
      </p>
    );
  } else if (isError) {
    body = (
      <div className={styles.status}>
        <p>Suggestions could not be loaded.</p>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (users.length === 0) {
    body = <p className={styles.status}>You already follow everyone we would suggest.</p>;
  } else {
    body = (
      <ul className={styles.list}>
        {users.map((user) => (
          <li key={user._id} className={styles.item}>
            <PersonRow user={user} layout={variant === 'strip' ? 'tile' : 'row'} />
          </li>
        ))}
      </ul>
    );
  }

  const Root = variant === 'column' ? 'aside' : 'section';
  return (
    <Root className={[styles.panel, styles[variant], className].filter(Boolean).join(' ')} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        Who to follow
      </h2>
      {body}
    </Root>
  );
}
