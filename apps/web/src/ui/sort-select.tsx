import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { SORTS, type Sort } from '@share-arts/contract';
import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import styles from './sort-select.module.css';

const OPTIONS: { value: Sort; label: MessageDescriptor }[] = [
  { value: 'latest', label: msg`Latest First` },
  { value: 'trending', label: msg`Trending` },
  { value: 'oldest', label: msg`Oldest First` },
];

/** "Sort posts" (Home, Explore, a tag's page): the server sorts (Trending = most liked first). */
export function SortSelect({ value, onChange }: { value: Sort; onChange: (sort: Sort) => void }) {
  const { _ } = useLingui();
  const id = useId();
  return (
    <div className={styles.sort}>
      <label htmlFor={id} className="visually-hidden">
        <Trans>Sort posts</Trans>
      </label>
      <select
        id={id}
        className={styles.select}
        value={value}
        onChange={(event) => onChange(event.target.value as Sort)}
      >
        {OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {_(option.label)}
          </option>
        ))}
      </select>
      <ChevronDown className={styles.selectIcon} aria-hidden="true" size="1.1em" />
    </div>
  );
}

/** The sort order kept in the URL (?sort=, absent for the default "latest"), and its setter. */
export function useSortParam(): [Sort, (next: Sort) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get('sort');
  const sort = (SORTS as readonly string[]).includes(value ?? '') ? (value as Sort) : 'latest';
  const changeSort = (next: Sort) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'latest') updated.delete('sort');
        else updated.set('sort', next);
        return updated;
      },
      { replace: true },
    );
  return [sort, changeSort];
}
