import { Trans, useLingui } from '@lingui/react/macro';
import { Plus, X } from 'lucide-react';
import { Button } from '../../../ui/button';
import type { HeaderRow } from '../lib/request';
import styles from './header-rows.module.css';

interface HeaderRowsProps {
  rows: HeaderRow[];
  onChange: (id: string, patch: Partial<Omit<HeaderRow, 'id'>>) => void;
  onAdd: () => void;
  onRemove: (id: string) => void;
  /** A problem with the headers found when sending, shown under the list. */
  error?: string;
  errorId: string;
  signedIn: boolean;
}

/** The editable header list: a checkbox per row decides whether it is sent. */
export function HeaderRows({ rows, onChange, onAdd, onRemove, error, errorId, signedIn }: HeaderRowsProps) {
  const { t } = useLingui();
  return (
    <fieldset className={styles.fieldset} aria-describedby={error ? errorId : undefined}>
      <legend className={styles.legend}>
        <Trans>Headers</Trans>
      </legend>
      <p className={styles.hint}>
        {signedIn
          ? t`Only checked headers are sent. The authorization row holds your token and is checked; uncheck it to call as a visitor.`
          : t`Only checked headers are sent. You are not signed in, so the authorization row is empty.`}
      </p>
      {rows.length > 0 && (
        <ul className={styles.list}>
          {rows.map((row, index) => {
            const name = row.name.trim();
            const number = index + 1;
            const label = name ? t`${name} header` : t`Header ${number}`;
            return (
              <li key={row.id}>
                <div className={styles.row} role="group" aria-label={label} data-row-id={row.id}>
                  <label className={styles.check}>
                    <input
                      type="checkbox"
                      checked={row.enabled}
                      onChange={(event) => onChange(row.id, { enabled: event.target.checked })}
                    />
                    <span className="visually-hidden">
                      <Trans>Send header</Trans>
                    </span>
                  </label>
                  <label className={styles.cell}>
                    <span className="visually-hidden">
                      <Trans>Header name</Trans>
                    </span>
                    <input
                      className={styles.input}
                      data-part="name"
                      value={row.name}
                      placeholder="name"
                      autoComplete="off"
                      spellCheck={false}
                      autoCapitalize="off"
                      onChange={(event) => onChange(row.id, { name: event.target.value })}
                    />
                  </label>
                  <label className={`${styles.cell} ${styles.valueCell}`}>
                    <span className="visually-hidden">
                      <Trans>Header value</Trans>
                    </span>
                    <input
                      className={styles.input}
                      value={row.value}
                      placeholder={name.toLowerCase() === 'authorization' ? t`your token` : t`value`}
                      autoComplete="off"
                      spellCheck={false}
                      autoCapitalize="off"
                      onChange={(event) => onChange(row.id, { value: event.target.value })}
                    />
                  </label>
                  <Button
                    variant="icon"
                    className={styles.remove}
                    aria-label={t`Remove header`}
                    onClick={() => onRemove(row.id)}
                  >
                    <X aria-hidden="true" size="1.2em" />
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
      <div>
        <Button variant="secondary" onClick={onAdd}>
          <Plus aria-hidden="true" size="1.1em" />
          <Trans>Add header</Trans>
        </Button>
      </div>
    </fieldset>
  );
}
