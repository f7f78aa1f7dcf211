import { Plural } from '@lingui/react/macro';
import type { Sort, TagState } from '@share-arts/contract';
import { Hash } from 'lucide-react';

import { SortSelect } from '../../../ui/sort-select';
import { FollowTagButton } from './follow-tag-button';
import styles from './tag-header.module.css';

interface TagHeaderProps {
  tag: string;
  /** Absent while it loads (the heading shows at once, the count and the button once known). */
  state: TagState | undefined;
  sort: Sort;
  onSort: (sort: Sort) => void;
}

/** A tag page's head: #tag, how many posts carry it, Follow (a visitor is asked to sign in), and the sort. */
export function TagHeader({ tag, state, sort, onSort }: TagHeaderProps) {
  const count = state?.postCount;
  return (
    <header className={styles.header}>
      <span className={styles.mark} aria-hidden="true">
        <Hash size="1.6em" />
      </span>
      <div className={styles.heading}>
        {/* Its own direction ("#painting" stays so on a right-to-left page; "#رسم" reads right to left). */}
        <h1 className={styles.title}>
          <bdi>#{tag}</bdi>
        </h1>
        <p className={styles.count}>
          {count === undefined ? '\u00a0' : <Plural value={count} one="# post" other="# posts" />}
        </p>
      </div>
      <div className={styles.controls}>
        {state && <FollowTagButton tag={tag} following={state.following} />}
        <SortSelect value={sort} onChange={onSort} />
      </div>
    </header>
  );
}
