import { Trans, useLingui } from '@lingui/react/macro';
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
  const { i18n } = useLingui();
  const { kinds, kindsNote, slots, price, turnaroundDays, languages } = commissions;
  const locale = i18n.locale;
  const taken = slots?.taken ?? 0;
  const total = slots?.total ?? 0;
  return (
    <dl className={styles.facts}>
      {(kinds.length > 0 || kindsNote) && (
        <div>
          <dt>
            <Trans>Kinds of work</Trans>
          </dt>
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
          <dt>
            <Trans>Slots</Trans>
          </dt>
          <dd>
            <Trans>
              {taken} of {total} taken
            </Trans>
          </dd>
        </div>
      )}
      {price && (
        <div>
          <dt>
            <Trans>Prices</Trans>
          </dt>
          <dd>{formatPrice(price, locale)}</dd>
        </div>
      )}
      {turnaroundDays !== null && (
        <div>
          <dt>
            <Trans>Typical turnaround</Trans>
          </dt>
          <dd>{formatTurnaround(turnaroundDays)}</dd>
        </div>
      )}
      {languages.length > 0 && (
        <div>
          <dt>
            <Trans>Languages</Trans>
          </dt>
          <dd>
            {new Intl.ListFormat(locale, { type: 'unit' }).format(languages.map((tag) => languageName(tag, locale)))}
          </dd>
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
  const { t } = useLingui();
  const titleId = useId();
  const { data: commissions, isPending, isError, error } = useCommissions(username);
  const watch = useWatchCommissions(username);
  if (isPending) return null;
  if (isError) {
    const problem = errorMessage(error);
    return (
      <p className={styles.problem} role="alert">
        <Trans>The commission panel could not be loaded: {problem}</Trans>
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
        {commissions.open ? t`Open for commissions` : t`Closed for commissions`}
      </h2>
      {commissions.open ? (
        <>
          <Facts commissions={commissions} />
          {commissions.terms && <p className={styles.terms}>{commissions.terms}</p>}
          {termsUrl && (
            <p>
              <a href={termsUrl} target="_blank" rel="noopener nofollow ugc">
                <Trans>
                  Full terms<span className="visually-hidden"> (opens in a new tab)</span>
                </Trans>
              </a>
            </p>
          )}
          {commissions.examples.length > 0 && (
            <ul className={styles.examples} aria-label={t`Example works`}>
              {commissions.examples.map((example) => {
                const warning = example.contentWarning;
                return (
                  <li key={example._id}>
                    <Link to={`/posts/${encodeURIComponent(example._id)}`} className={styles.example}>
                      {example.picture && !example.contentWarning ? (
                        <img
                          src={example.picture.url}
                          alt={example.picture.alt || example.content || t`An example work`}
                          width={example.picture.width}
                          height={example.picture.height}
                          loading="lazy"
                          decoding="async"
                        />
                      ) : (
                        <span className={styles.textExample}>
                          {warning ? t`Content warning: ${warning}` : example.content}
                        </span>
                      )}
                    </Link>
                  </li>
                );
              })}
            </ul>
          )}
          {isOwn && (
            <p className={styles.own}>
              <Link to="/settings">
                <Trans>Change your commission panel in Settings</Trans>
              </Link>
            </p>
          )}
        </>
      ) : (
        <p className={styles.hint}>
          <Trans>They are not taking commissions now.</Trans>
        </p>
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
            {commissions.viewer.watching ? t`You will be told when they open` : t`Tell me when they open`}
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
