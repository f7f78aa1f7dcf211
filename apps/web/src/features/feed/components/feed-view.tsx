import type { ReactNode } from 'react';
import { SortSelect, useSortParam } from '../../../ui/sort-select';
import { AddPostButton, NewPostsPill, PostGrid, PostList, type PostListSource } from '../../posts';
import styles from './feed-view.module.css';

interface FeedViewProps {
  title: string;
  description: string;
  source: PostListSource;
  label: string;
  empty: ReactNode;
  /** Cards in one column (Home), or a grid of works across the page (Explore). */
  layout?: 'cards' | 'grid';
}

/** Home and Explore: a heading, Add Post, the sort select (kept in the URL) and the paged posts. */
export function FeedView({ title, description, source, label, empty, layout = 'cards' }: FeedViewProps) {
  const [sort, changeSort] = useSortParam();

  return (
    <div className={layout === 'grid' ? styles.wide : styles.column}>
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
      {layout === 'grid' ? (
        <PostGrid source={source} sort={sort} label={label} empty={empty} />
      ) : (
        <PostList source={source} sort={sort} label={label} empty={empty} />
      )}
    </div>
  );
}
