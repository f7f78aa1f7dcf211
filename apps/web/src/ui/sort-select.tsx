import { SORTS, type Sort } from '@share-arts/contract';
import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import styles from './sort-select.module.css';

const OPTIONS: { value: Sort; label: string }[] = [
  { value: 'latest', label: 'Latest First' },
  { value: 'trending', label: 'Trending' },
  { value: 'oldest', label: 'Oldest First' },
];

/** "Sort posts" (Home, Explore, a tag's page): the server sorts (Trending = most liked first). */
export function SortSelect({ value, onChange }: { value: Sort; onChange: (sort: Sort) => void }) {
  const id = useId();
  return (
    <div className={styles.sort}>
      <label htmlFor={id} className="visually-hidden">
        Sort posts
      </label>
      <select
        id={id}
        className={styles.select}
        value={value}
        onChange={(event) => onChange(event.target.value as Sort)}
      >
        {OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
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
