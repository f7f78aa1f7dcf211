import { Search } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { PageHeading } from '../../../ui/page-heading';
import { PersonRow } from '../../people';
import { PostList } from '../../posts';
import { searchTerm, useSearchPeople } from '../api/search';
import styles from './search-page.module.css';

function PeopleResults({ q }: { q: string }) {
  const { data, isPending, isError, error, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } =
    useSearchPeople(q);
  if (isPending) {
    return (
      <p className={styles.status} role="status">
        Looking for people…
      </p>
    );
  }
  if (isError && !data) {
    return (
      <div className={styles.status} role="alert">
        <p>People could not be searched: {errorMessage(error)}</p>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const users = data.pages.flatMap((page) => page.users);
  if (users.length === 0) return <p className={styles.status}>No people match “{q}”.</p>;
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
          {isFetchingNextPage ? 'Loading more people…' : 'Show more people'}
        </Button>
      )}
    </>
  );
}

/** /search?q= — everyone and every post that match, each section paged. */
export default function SearchPage() {
  useDocumentTitle('Search');
  const [params, setParams] = useSearchParams();
  const q = searchTerm(params.get('q') ?? '');
  const inputId = useId();
  const [text, setText] = useState(q);
  // A new search from the header box lands here with another ?q=.
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    setText(q);
  }
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [q]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = searchTerm(text);
    if (next) setParams({ q: next });
  };

  return (
    <div className={styles.page}>
      <PageHeading
        title="Search"
        description={
          q ? `Results for “${q}”` : 'Find artists by name or username, and posts by their words or #hashtags.'
        }
      />
      <form role="search" className={styles.form} onSubmit={onSubmit} aria-label="Search people and posts">
        <label htmlFor={inputId} className="visually-hidden">
          Search people and posts
        </label>
        <input
          id={inputId}
          type="search"
          className={styles.input}
          value={text}
          maxLength={100}
          placeholder="Names, words or #hashtags"
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="submit">
          <Search aria-hidden="true" size="1.1em" />
          Search
        </Button>
      </form>
      {q && (
        <>
          <section className={styles.section} aria-labelledby="search-people-title">
            <h2 id="search-people-title" className={styles.sectionTitle}>
              People
            </h2>
            <PeopleResults key={q} q={q} />
          </section>
          <section className={styles.section} aria-labelledby="search-posts-title">
            <h2 id="search-posts-title" className={styles.sectionTitle}>
              Posts
            </h2>
            <PostList
              source={{ kind: 'search', q }}
              sort="latest"
              label={`Posts matching “${q}”`}
              empty={<p className={styles.status}>No posts match “{q}”.</p>}
            />
          </section>
        </>
      )}
    </div>
  );
}
