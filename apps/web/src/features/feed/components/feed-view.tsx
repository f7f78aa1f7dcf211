import type { Sort } from '@share-arts/contract';
import type { ReactNode } from 'react';
import { SortSelect, useSortParam } from '../../../ui/sort-select';
import { AddPostButton, NewPostsPill, type PostListSource } from '../../posts';
import styles from './feed-view.module.css';

interface FeedViewProps {
  title: string;
  description: string;
  source: PostListSource;
  /** Across the page (Explore's grid of works), or one column (Home's cards). */
  wide?: boolean;
  /** The paged posts in the chosen sort: the page brings its own, so Home never loads the grid. */
  children: (sort: Sort) => ReactNode;
}

/** Home and Explore: a heading, Add Post, the sort select (kept in the URL) and the paged posts. */
export function FeedView({ title, description, source, wide = false, children }: FeedViewProps) {
  const [sort, changeSort] = useSortParam();

  return (
    <div className={wide ? styles.wide : styles.column}>
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1 className={styles.title}>{title}</h1>
          <p className={styles.description}>{description}</p>
        </div>
        <div className={styles.controls}>
          <SortSelect value={sort} onChange={changeSort} />
          <AddPostButton className={styles.add} />
        </div>
      </header>
      {(source.kind === 'feed' || source.kind === 'explore') && <NewPostsPill source={source} sort={sort} />}
      {children(sort)}
    </div>
  );
}
