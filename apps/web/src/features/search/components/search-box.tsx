import { Search } from 'lucide-react';
import type { Option } from '../lib/dropdown-options';
import { useSearchCombobox } from '../lib/use-search-combobox';
import styles from './search-box.module.css';
import { SearchOption } from './search-option';

/**
 * The header's search (WAI-ARIA combobox with a listbox popup): results as you type, ArrowUp/Down to move,
 * Enter opens the highlighted result (or the full results page), Escape closes, then clears.
 */
export function SearchBox({ className }: { className?: string }) {
  const combobox = useSearchCombobox();
  const { baseId, optionId, q, options, activeIndex, expanded } = combobox;
  const listboxId = `${baseId}-listbox`;

  const renderOption = (option: Option) => {
    const index = options.indexOf(option);
    return (
      <SearchOption
        key={option.key}
        option={option}
        id={optionId(index)}
        selected={index === activeIndex}
        q={q}
        onHighlight={() => combobox.highlight(index)}
        onChoose={() => combobox.choose(option)}
      />
    );
  };

  const userOptions = options.filter((option) => option.kind === 'user');
  const tagOptions = options.filter((option) => option.kind === 'tag');
  const postOptions = options.filter((option) => option.kind === 'post');
  const allOption = options.find((option) => option.kind === 'all');

  return (
    <form
      role="search"
      aria-label="Search Share Arts"
      className={[styles.search, className].filter(Boolean).join(' ')}
      onSubmit={(event) => event.preventDefault()}
    >
      <Search className={styles.searchIcon} aria-hidden="true" size="1em" />
      <input
        type="text"
        role="combobox"
        aria-label="Search"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
        className={styles.input}
        placeholder="Search..."
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="search"
        maxLength={100}
        {...combobox.input}
      />
      <div className={styles.popup} hidden={!combobox.popup}>
        <div id={listboxId} role="listbox" aria-label="Search results" className={styles.listbox} hidden={!expanded}>
          {userOptions.length > 0 && (
            <div role="group" aria-labelledby={`${baseId}-people`} className={styles.group}>
              <div role="presentation" id={`${baseId}-people`} className={styles.groupLabel}>
                People
              </div>
              {userOptions.map(renderOption)}
            </div>
          )}
          {tagOptions.length > 0 && (
            <div role="group" aria-labelledby={`${baseId}-tags`} className={styles.group}>
              <div role="presentation" id={`${baseId}-tags`} className={styles.groupLabel}>
                Tags
              </div>
              {tagOptions.map(renderOption)}
            </div>
          )}
          {postOptions.length > 0 && (
            <div role="group" aria-labelledby={`${baseId}-posts`} className={styles.group}>
              <div role="presentation" id={`${baseId}-posts`} className={styles.groupLabel}>
                Posts
              </div>
              {postOptions.map(renderOption)}
            </div>
          )}
          {allOption && renderOption(allOption)}
        </div>
        {/* Announced by the status below; this is the same words for the eyes. */}
        {combobox.noResults && (
          <p className={styles.empty} aria-hidden="true">
            No results for “{q}”
          </p>
        )}
      </div>
      <span className="visually-hidden" role="status" aria-live="polite">
        {combobox.status}
      </span>
    </form>
  );
}
