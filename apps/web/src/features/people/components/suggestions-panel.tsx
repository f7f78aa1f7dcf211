import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import { SUGGESTIONS_SHOWN } from '../../../lib/first-requests';
import { Button } from '../../../ui/button';
import { useSuggestions } from '../api/get-suggestions';
import { PersonRow, PersonTilePlaceholder } from './person-row';
import styles from './suggestions-panel.module.css';

interface SuggestionsPanelProps {
  /** column: the right-hand column of wide screens (a complementary landmark); strip: a scrolling row above the feed. */
  variant: 'column' | 'strip';
  className?: string;
}

/** "Who to follow": a few people the viewer does not follow yet, each with Follow / Following. */
export function SuggestionsPanel({ variant, className }: SuggestionsPanelProps) {
  const titleId = useId();
  const { data, isPending, isError, refetch } = useSuggestions(SUGGESTIONS_SHOWN);
  const users = data?.users ?? [];

  let body;
  if (isPending && variant === 'strip') {
    // Above the feed: the tiles' places are kept, so the posts below do not move when the people arrive.
    body = (
      <>
        <p className="visually-hidden" role="status">
          <Trans>Finding artists…</Trans>
        </p>
        <ul className={styles.list} aria-hidden="true">
          {Array.from({ length: SUGGESTIONS_SHOWN }, (_, index) => (
            <li key={index} className={styles.item}>
              <PersonTilePlaceholder />
            </li>
          ))}
        </ul>
      </>
    );
  } else if (isPending) {
    body = (
      <p className={styles.status} role="status">
        <Trans>Finding artists…</Trans>
      </p>
    );
  } else if (isError) {
    body = (
      <div className={styles.status}>
        <p>
          <Trans>Suggestions could not be loaded.</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  } else if (users.length === 0) {
    body = (
      <p className={styles.status}>
        <Trans>You already follow everyone we would suggest.</Trans>
      </p>
    );
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
        <Trans>Who to follow</Trans>
      </h2>
      {body}
    </Root>
  );
}
