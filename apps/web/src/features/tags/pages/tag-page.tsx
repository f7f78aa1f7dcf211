import { Trans, useLingui } from '@lingui/react/macro';
import { Navigate, useParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSortParam } from '../../../ui/sort-select';
import { CommissionFilter, useCommissionFilter } from '../../commissions/filter';
import { PostGrid } from '../../posts/grid';
import { tagFromParam, useTag } from '../api/get-tag';
import { TagHeader } from '../components/tag-header';
import { TagNotFound } from '../components/tag-not-found';
import empty from '../components/tag-empty.module.css';
import styles from './tag-page.module.css';

/** /tags/:tag — the works carrying a tag as a grid, its count, Follow, and the three sorts (kept in the URL). */
export default function TagPage() {
  const { t } = useLingui();
  const { tag: param } = useParams();
  const tag = tagFromParam(param);
  useDocumentTitle(tag ? `#${tag}` : t`Not found`);
  if (!tag) return <TagNotFound />;
  // One page per tag, whatever the letter case of the link.
  if (param !== tag) return <Navigate to={{ pathname: `/tags/${encodeURIComponent(tag)}` }} replace />;
  return <TagView key={tag} tag={tag} />;
}

function TagView({ tag }: { tag: string }) {
  const { t } = useLingui();
  const { data: state } = useTag(tag);
  const [sort, changeSort] = useSortParam();
  // Narrowed to artists open for commissions (issue 42), kept in the address.
  const filter = useCommissionFilter();

  return (
    <div className={styles.page}>
      <TagHeader tag={tag} state={state} sort={sort} onSort={changeSort} />
      <CommissionFilter label={`#${tag}`} />
      <PostGrid
        source={filter ? { kind: 'tag', tag, filter } : { kind: 'tag', tag }}
        sort={sort}
        label={t`Works tagged #${tag}`}
        empty={
          <section className={empty.empty} aria-labelledby="empty-tag-title">
            <h2 id="empty-tag-title" className={empty.title}>
              <Trans>No works with #{tag} yet</Trans>
            </h2>
            <p className={empty.text}>
              <Trans>Write #{tag} in a post and it will show here.</Trans>
            </p>
          </section>
        }
      />
    </div>
  );
}
