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

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function sentAtLabel(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date);
}

/** The last requests, newest first; each button sends its request again. */
export function HistoryList({ entries, onReplay, onClear, disabled, className }: HistoryListProps) {
  return (
    <section className={[styles.history, className].filter(Boolean).join(' ')} aria-labelledby="mockman-history-title">
      <div className={styles.head}>
        <h2 id="mockman-history-title" className={styles.title}>
          History
        </h2>
        {entries.length > 0 && (
          <Button variant="secondary" className={styles.clear} onClick={onClear}>
            Clear history
          </Button>
        )}
      </div>
      {entries.length === 0 ? (
        <p className={styles.muted}>Your last {HISTORY_LIMIT} requests will be listed here to send again.</p>
      ) : (
        <>
          <p className={styles.muted}>
            Kept in this browser. Token and password values are never stored; replay fills in your current token.
          </p>
          <ol className={styles.list}>
            {entries.map((entry) => (
              <li key={entry.id} className={styles.entry}>
                <button
                  type="button"
                  className={styles.item}
                  onClick={() => onReplay(entry)}
                  aria-disabled={disabled || undefined}
                >
                  <RotateCcw aria-hidden="true" size="1em" className={styles.icon} />
                  <span className="visually-hidden">Replay </span>
                  <span className={styles.method}>{entry.method}</span>{' '}
                  <span className={styles.endpoint}>
                    {entry.endpoint}
                    {sentHeaderNames(entry).length > 0 && (
                      <span className={styles.with}> (with {sentHeaderNames(entry).join(', ')})</span>
                    )}
                  </span>
                </button>
                <time className={styles.time} dateTime={entry.sentAt}>
                  {sentAtLabel(entry.sentAt)}
                </time>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
