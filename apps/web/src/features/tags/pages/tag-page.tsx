import { SORTS, type Sort } from '@share-arts/contract';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PostGrid } from '../../posts';
import { tagFromParam, useTag } from '../api/get-tag';
import { TagHeader } from '../components/tag-header';
import { TagNotFound } from '../components/tag-not-found';
import empty from '../components/tag-empty.module.css';
import styles from './tag-page.module.css';

function readSort(value: string | null): Sort {
  return (SORTS as readonly string[]).includes(value ?? '') ? (value as Sort) : 'latest';
}

/** /tags/:tag — the works carrying a tag as a grid, its count, Follow, and the three sorts (kept in the URL). */
export default function TagPage() {
  const { tag: param } = useParams();
  const tag = tagFromParam(param);
  useDocumentTitle(tag ? `#${tag}` : 'Not found');
  if (!tag) return <TagNotFound />;
  // One page per tag, whatever the letter case of the link.
  if (param !== tag) return <Navigate to={{ pathname: `/tags/${encodeURIComponent(tag)}` }} replace />;
  return <TagView key={tag} tag={tag} />;
}

function TagView({ tag }: { tag: string }) {
  const { data: state } = useTag(tag);
  const [params, setParams] = useSearchParams();
  const sort = readSort(params.get('sort'));

  const changeSort = (next: Sort) => {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'latest') updated.delete('sort');
        else updated.set('sort', next);
        return updated;
      },
      { replace: true },
    );
  };

  return (
    <div className={styles.page}>
      <TagHeader tag={tag} state={state} sort={sort} onSort={changeSort} />
      <PostGrid
        source={{ kind: 'tag', tag }}
        sort={sort}
        label={`Works tagged #${tag}`}
        empty={
          <section className={empty.empty} aria-labelledby="empty-tag-title">
            <h2 id="empty-tag-title" className={empty.title}>
              No works with #{tag} yet
            </h2>
            <p className={empty.text}>Write #{tag} in a post and it will show here.</p>
          </section>
        }
      />
    </div>
  );
}
