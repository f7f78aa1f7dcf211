import { Trans, useLingui } from '@lingui/react/macro';
import { LOOKUP } from '@share-arts/contract';
import { Search } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { useSearchCombobox } from '../lib/use-search-combobox';
import styles from './search-box.module.css';

/** The options are drawn by a chunk of their own, fetched with the first search (most visits never search). */
const loadResults = () => import('./search-results');
const SearchResults = lazy(loadResults);

/**
 * The header's search (WAI-ARIA combobox with a listbox popup): results as you type, ArrowUp/Down to move,
 * Enter opens the highlighted result (or the full results page), Escape closes, then clears.
 */
export function SearchBox({ className }: { className?: string }) {
  const { t } = useLingui();
  const combobox = useSearchCombobox();
  const { baseId, optionId, q, options, activeIndex, expanded } = combobox;
  const listboxId = `${baseId}-listbox`;
  // Asked for beside the first search's request, not after its answer.
  const searching = q !== '';
  useEffect(() => {
    if (searching) void loadResults();
  }, [searching]);

  return (
    <form
      role="search"
      aria-label={t`Search Share Arts`}
      className={[styles.search, className].filter(Boolean).join(' ')}
      onSubmit={(event) => event.preventDefault()}
    >
      <Search className={styles.searchIcon} aria-hidden="true" size="1em" />
      <input
        type="text"
        role="combobox"
        aria-label={t`Search`}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
        className={styles.input}
        placeholder={t`Search...`}
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="search"
        // A pasted address of a post on another server may be longer than a search (searchTerm cuts that).
        maxLength={LOOKUP.queryMaxLength}
        {...combobox.input}
      />
      <div className={styles.popup} hidden={!combobox.popup}>
        <div id={listboxId} role="listbox" aria-label={t`Search results`} className={styles.listbox} hidden={!expanded}>
          {options.length > 0 && (
            <Suspense>
              <SearchResults
                baseId={baseId}
                options={options}
                optionId={optionId}
                activeIndex={activeIndex}
                q={q}
                onHighlight={combobox.highlight}
                onChoose={combobox.choose}
              />
            </Suspense>
          )}
        </div>
        {/* Announced by the status below; this is the same words for the eyes. */}
        {combobox.noResults && (
          <p className={styles.empty} aria-hidden="true">
            <Trans>No results for “{q}”</Trans>
          </p>
        )}
      </div>
      <span className="visually-hidden" role="status" aria-live="polite">
        {combobox.status}
      </span>
    </form>
  );
}
