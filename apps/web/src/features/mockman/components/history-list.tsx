import { Trans, useLingui } from '@lingui/react/macro';
import { RotateCcw } from 'lucide-react';
import { Button } from '../../../ui/button';
import { HISTORY_LIMIT, sentHeaderNames, type HistoryEntry } from '../lib/history';
import styles from './history-list.module.css';

interface HistoryListProps {
  entries: HistoryEntry[];
  onReplay: (entry: HistoryEntry) => void;
  onClear: () => void;
  disabled: boolean;
  className?: string;
}

/** The time of a request, as the app's language writes times. */
function sentAtLabel(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale || undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(
    date,
  );
}

/** The last requests, newest first; each button sends its request again. */
export function HistoryList({ entries, onReplay, onClear, disabled, className }: HistoryListProps) {
  const { i18n } = useLingui();
  return (
    <section className={[styles.history, className].filter(Boolean).join(' ')} aria-labelledby="mockman-history-title">
      <div className={styles.head}>
        <h2 id="mockman-history-title" className={styles.title}>
          <Trans>History</Trans>
        </h2>
        {entries.length > 0 && (
          <Button variant="secondary" className={styles.clear} onClick={onClear}>
            <Trans>Clear history</Trans>
          </Button>
        )}
      </div>
      {entries.length === 0 ? (
        <p className={styles.muted}>
          <Trans>Your last {HISTORY_LIMIT} requests will be listed here to send again.</Trans>
        </p>
      ) : (
        <>
          <p className={styles.muted}>
            <Trans>
              Kept in this browser. Token and password values are never stored; replay fills in your current token.
            </Trans>
          </p>
          <ol className={styles.list}>
            {entries.map((entry) => {
              const names = sentHeaderNames(entry);
              const headerNames = new Intl.ListFormat(i18n.locale || undefined, {
                type: 'unit',
                style: 'short',
              }).format(names);
              return (
                <li key={entry.id} className={styles.entry}>
                  <button
                    type="button"
                    className={styles.item}
                    onClick={() => onReplay(entry)}
                    aria-disabled={disabled || undefined}
                  >
                    <RotateCcw aria-hidden="true" size="1em" className={styles.icon} />
                    <span className="visually-hidden">
                      <Trans>Replay</Trans>{' '}
                    </span>
                    <span className={styles.method}>{entry.method}</span>{' '}
                    <span className={styles.endpoint}>
                      {entry.endpoint}
                      {names.length > 0 && (
                        <span className={styles.with}>
                          {' '}
                          <Trans>(with {headerNames})</Trans>
                        </span>
                      )}
                    </span>
                  </button>
                  <time className={styles.time} dateTime={entry.sentAt}>
                    {sentAtLabel(entry.sentAt, i18n.locale)}
                  </time>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
