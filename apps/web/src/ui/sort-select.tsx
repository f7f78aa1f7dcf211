import type { Sort } from '@share-arts/contract';
import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
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
