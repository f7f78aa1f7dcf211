import { Trans, useLingui } from '@lingui/react/macro';
import { LOOKUP } from '@share-arts/contract';
import { Search } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { PageHeading } from '../../../ui/page-heading';
import { CommissionFilter, useCommissionFilter } from '../../commissions/filter';
import { PersonRow } from '../../people';
import { PostList } from '../../posts';
import { useRemoteLookup } from '../api/lookup';
import { searchTerm, useSearchPeople } from '../api/search';
import { RemoteLookup } from '../components/remote-lookup';
import { remoteQuery } from '../lib/remote-query';
import styles from './search-page.module.css';

function PeopleResults({ q }: { q: string }) {
  const { t } = useLingui();
  // Narrowed to artists open for commissions (issue 42), kept in the address.
  const filter = useCommissionFilter();
  const { data, isPending, isError, error, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useSearchPeople(
    q,
    filter,
  );
  if (isPending) {
    return (
      <p className={styles.status} role="status">
        <Trans>Looking for people…</Trans>
      </p>
    );
  }
  if (isError && !data) {
    const problem = errorMessage(error);
    return (
      <div className={styles.status} role="alert">
        <p>
          <Trans>People could not be searched: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  const users = data.pages.flatMap((page) => page.users);
  if (users.length === 0) {
    return (
      <p className={styles.status}>
        {filter ? t`No artist open for commissions matches “${q}”.` : t`No people match “${q}”.`}
      </p>
    );
  }
  return (
    <>
      <ul className={styles.people}>
        {users.map((user) => (
          <li key={user._id}>
            <PersonRow user={user} showBio />
          </li>
        ))}
      </ul>
      {hasNextPage && (
        <Button
          variant="secondary"
          className={styles.more}
          onClick={() => void fetchNextPage()}
          aria-disabled={isFetchingNextPage || undefined}
        >
          {isFetchingNextPage ? t`Loading more people…` : t`Show more people`}
        </Button>
      )}
    </>
  );
}

/**
 * /search?q= — everyone and every post that match, each section paged. A handle or an address on another server
 * (following out, issue 39) is its one result, a lookup, run at once with `&lookup=1` (the header's choice, or
 * Enter) or by Enter here.
 */
export default function SearchPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Search`);
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  // The whole text: an address on another server may be longer than a search term.
  const raw = (params.get('q') ?? '').trim().slice(0, LOOKUP.queryMaxLength);
  const q = searchTerm(raw);
  const remote = remoteQuery(raw);
  const lookup = useRemoteLookup();
  const inputId = useId();
  const [text, setText] = useState(raw);
  // A new search from the header box lands here with another ?q=.
  const [shownQ, setShownQ] = useState(raw);
  if (shownQ !== raw) {
    setShownQ(raw);
    setText(raw);
  }
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [raw]);

  // `&lookup=1` runs the lookup once, and leaves the address: Back from the page it opens comes here without
  // running it again. Once per history entry (React runs effects twice in development).
  const autoLookup = params.get('lookup') === '1' && remote ? remote.q : null;
  const autoRan = useRef<string | null>(null);
  useEffect(() => {
    if (!autoLookup || autoRan.current === location.key) return;
    autoRan.current = location.key;
    setParams({ q: autoLookup }, { replace: true });
    lookup.mutate(autoLookup);
    // Only a new history entry with `lookup=1` runs it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoLookup, location.key]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const nextRemote = remoteQuery(text);
    if (nextRemote) {
      // Enter looks it up at once: the one result a handle or an address has.
      setParams({ q: nextRemote.q });
      lookup.mutate(nextRemote.q);
      return;
    }
    const next = searchTerm(text);
    if (next) setParams({ q: next });
  };

  const host = remote?.kind === 'url' ? remote.host : '';
  return (
    <div className={styles.page}>
      <PageHeading
        title={t`Search`}
        description={
          remote?.kind === 'url'
            ? t`An address on ${host}`
            : q
              ? t`Results for “${q}”`
              : t`Find artists by name or username, and posts by their words or #hashtags; people and works on other servers by their @handle or address.`
        }
      />
      <form role="search" className={styles.form} onSubmit={onSubmit} aria-label={t`Search people and posts`}>
        <label htmlFor={inputId} className="visually-hidden">
          <Trans>Search people and posts</Trans>
        </label>
        <input
          id={inputId}
          type="search"
          className={styles.input}
          value={text}
          maxLength={LOOKUP.queryMaxLength}
          placeholder={t`Names, words or #hashtags`}
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="submit">
          <Search aria-hidden="true" size="1.1em" />
          <Trans>Search</Trans>
        </Button>
      </form>
      {remote && (
        <section className={styles.section} aria-labelledby="search-remote-title">
          <h2 id="search-remote-title" className={styles.sectionTitle}>
            <Trans>On another server</Trans>
          </h2>
          <RemoteLookup query={remote} lookup={lookup} />
        </section>
      )}
      {/* A handle or an address on another server names no one and nothing here: the lookup is its one result. */}
      {q && !remote && (
        <>
          <section className={styles.section} aria-labelledby="search-people-title">
            <h2 id="search-people-title" className={styles.sectionTitle}>
              <Trans>People</Trans>
            </h2>
            <CommissionFilter label={t`People`} />
            <PeopleResults key={q} q={q} />
          </section>
          <section className={styles.section} aria-labelledby="search-posts-title">
            <h2 id="search-posts-title" className={styles.sectionTitle}>
              <Trans>Posts</Trans>
            </h2>
            <PostList
              source={{ kind: 'search', q }}
              sort="latest"
              label={t`Posts matching “${q}”`}
              empty={
                <p className={styles.status}>
                  <Trans>No posts match “{q}”.</Trans>
                </p>
              }
            />
          </section>
        </>
      )}
    </div>
  );
}
