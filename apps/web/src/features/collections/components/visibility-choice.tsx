import { Trans } from '@lingui/react/macro';
import type { CollectionVisibility } from '@share-arts/contract';
import { useId } from 'react';
import styles from './collections.module.css';

/** Public or private, as two radio buttons in a labelled group. */
export function VisibilityChoice({
  value,
  onChange,
  disabled = false,
}: {
  value: CollectionVisibility;
  onChange: (value: CollectionVisibility) => void;
  disabled?: boolean;
}) {
  const name = useId();
  return (
    <fieldset className={styles.visibility} disabled={disabled}>
      <legend className={styles.legend}>
        <Trans>Who sees it</Trans>
      </legend>
      <label className={styles.option}>
        <input
          type="radio"
          name={name}
          value="private"
          checked={value === 'private'}
          onChange={() => onChange('private')}
        />
        <span>
          <Trans>Private: only you</Trans>
        </span>
      </label>
      <label className={styles.option}>
        <input
          type="radio"
          name={name}
          value="public"
          checked={value === 'public'}
          onChange={() => onChange('public')}
        />
        <span>
          <Trans>Public: anyone, with its own page; the artists are told their work is in it</Trans>
        </span>
      </label>
    </fieldset>
  );
}
