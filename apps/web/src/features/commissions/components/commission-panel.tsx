import type { Commissions } from '@share-arts/contract';
import { Bell, BellOff } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { httpUrl } from '../../../lib/safe-url';
import { Button } from '../../../ui/button';
import { useCommissions, useWatchCommissions } from '../api/commissions';
import { formatPrice, formatTurnaround, kindLabel, languageName } from '../model/format';
import styles from './commission-panel.module.css';

interface CommissionPanelProps {
  username: string;
  isOwn: boolean;
  signedIn: boolean;
}

/** The facts of an open panel, as a description list. */
function Facts({ commissions }: { commissions: Commissions }) {
  const { kinds, kindsNote, slots, price, turnaroundDays, languages } = commissions;
  return (
    <dl className={styles.facts}>
      {(kinds.length > 0 || kindsNote) && (
        <div>
          <dt>Kinds of work</dt>
          <dd>
            {kinds.length > 0 && (
              <ul className={styles.kinds}>
                {kinds.map((kind) => (
                  <li key={kind}>{kindLabel(kind)}</li>
                ))}
              </ul>
            )}
            {kindsNote && <p>{kindsNote}</p>}
          </dd>
        </div>
      )}
      {slots && (
        <div>
          <dt>Slots</dt>
          <dd>
            {slots.taken} of {slots.total} taken
          </dd>
        </div>
      )}
      {price && (
        <div>
          <dt>Prices</dt>
          <dd>{formatPrice(price)}</dd>
        </div>
      )}
      {turnaroundDays !== null && (
        <div>
          <dt>Typical turnaround</dt>
          <dd>{formatTurnaround(turnaroundDays)}</dd>
        </div>
      )}
      {languages.length > 0 && (
        <div>
          <dt>Languages</dt>
          <dd>{languages.map((tag) => languageName(tag)).join(', ')}</dd>
        </div>
      )}
    </dl>
  );
}

/**
 * The profile's "Open for commissions" panel (issue 42), loaded on its own (a lazy chunk) when the artist is open:
 * what they take, slots, prices, turnaround, terms, example works and languages; "Tell me when they open" for a
 * follower while they are closed. The inquiry button is the inquiries feature's (issue 42, second part).
 */
export default function CommissionPanel({ username, isOwn, signedIn }: CommissionPanelProps) {
  const titleId = useId();
  const { data: commissions, isPending, isError, error } = useCommissions(username);
  const watch = useWatchCommissions(username);
  if (isPending) return null;
  if (isError) {
    return (
      <p className={styles.problem} role="alert">
        The commission panel could not be loaded: {errorMessage(error)}
      </p>
    );
  }
  const canAsk = signedIn && !isOwn && (commissions.viewer.canWatch || commissions.viewer.watching);
  // Closed: shown only to a follower who may ask to be told, of an artist who took commissions before.
  if (!commissions.open && !(canAsk && commissions.updatedAt !== null)) return null;
  const termsUrl = commissions.termsUrl ? httpUrl(commissions.termsUrl) : undefined;
  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {commissions.open ? 'Open for commissions' : 'Closed for commissions'}
      </h2>
      {commissions.open ? (
        <>
          <Facts commissions={commissions} />
          {commissions.terms && <p className={styles.terms}>{commissions.terms}</p>}
          {termsUrl && (
            <p>
              <a href={termsUrl} target="_blank" rel="noopener nofollow ugc">
                Full terms<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </p>
          )}
          {commissions.examples.length > 0 && (
            <ul className={styles.examples} aria-label="Example works">
              {commissions.examples.map((example) => (
                <li key={example._id}>
                  <Link to={`/posts/${encodeURIComponent(example._id)}`} className={styles.example}>
                    {example.picture && !example.contentWarning ? (
                      <img
                        src={example.picture.url}
                        alt={example.picture.alt || example.content || 'An example work'}
                        width={example.picture.width}
                        height={example.picture.height}
                        loading="lazy"
                        decoding="async"
                      />
                    ) : (
                      <span className={styles.textExample}>
                        {example.contentWarning ? `Content warning: ${example.contentWarning}` : example.content}
                      </span>
                    )}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {isOwn && (
            <p className={styles.own}>
              <Link to="/settings">Change your commission panel in Settings</Link>
            </p>
          )}
        </>
      ) : (
        <p className={styles.hint}>They are not taking commissions now.</p>
      )}
      {canAsk && (
        <div className={styles.actions}>
          <Button
            variant="secondary"
            aria-pressed={commissions.viewer.watching}
            aria-disabled={watch.isPending || undefined}
            onClick={() => {
              if (!watch.isPending) watch.mutate(!commissions.viewer.watching);
            }}
          >
            {commissions.viewer.watching ? (
              <BellOff aria-hidden="true" size="1.1em" />
            ) : (
              <Bell aria-hidden="true" size="1.1em" />
            )}
            {commissions.viewer.watching ? 'You will be told when they open' : 'Tell me when they open'}
          </Button>
          {watch.isError && (
            <p className={styles.problem} role="alert">
              {errorMessage(watch.error)}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
