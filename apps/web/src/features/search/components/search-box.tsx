import type { Post, UserCard } from '@share-arts/contract';
import { FileText, Search } from 'lucide-react';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { searchTerm, useSearchDropdown } from '../api/search';
import styles from './search-box.module.css';

const DEBOUNCE_MS = 250;

type Option =
  | { kind: 'user'; key: string; to: string; user: UserCard }
  | { kind: 'post'; key: string; to: string; post: Post }
  | { kind: 'all'; key: string; to: string };

export function searchPath(q: string): string {
  return `/search?${new URLSearchParams({ q })}`;
}

function snippet(text: string, max = 90): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The header's search (WAI-ARIA combobox with a listbox popup): results as you type, ArrowUp/Down to move,
 * Enter opens the highlighted result (or the full results page), Escape closes, then clears.
 */
export function SearchBox({ className }: { className?: string }) {
  const baseId = useId();
  const listboxId = `${baseId}-listbox`;
  const optionId = (index: number) => `${baseId}-option-${index}`;
  const navigate = useNavigate();
  const location = useLocation();

  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const term = searchTerm(text);
  const q = useDebouncedValue(term, DEBOUNCE_MS);
  const { data, isFetching, isPlaceholderData, isError } = useSearchDropdown(q);

  // Leaving the page (a result was opened, or the back button) closes the popup.
  const path = location.pathname + location.search;
  const [shownPath, setShownPath] = useState(path);
  if (shownPath !== path) {
    setShownPath(path);
    setOpen(false);
    setActive(-1);
  }

  const people = q && data ? (data.users ?? []) : [];
  const posts = q && data ? (data.posts ?? []).slice(0, 4) : [];
  const options: Option[] = [
    ...people.map((user): Option => ({
      kind: 'user',
      key: user._id,
      to: `/${encodeURIComponent(user.username)}`,
      user,
    })),
    ...posts.map((post): Option => ({
      kind: 'post',
      key: post._id,
      to: `/posts/${encodeURIComponent(post._id)}`,
      post,
    })),
  ];
  if (options.length > 0) options.push({ kind: 'all', key: 'all', to: searchPath(q) });

  const settled = q !== '' && q === term && !isPlaceholderData && !isFetching;
  const empty = settled && !isError && options.length === 0;
  const expanded = open && term !== '' && options.length > 0;
  const activeIndex = expanded && active < options.length ? active : -1;

  useEffect(() => {
    if (activeIndex < 0) return;
    document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: 'nearest' });
    // optionId is derived from a stable id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeIndex]);

  const go = (to: string, keepText: boolean) => {
    setOpen(false);
    setActive(-1);
    if (!keepText) setText('');
    void navigate(to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!open) setOpen(true);
        if (options.length === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current) => {
          const from = current < options.length ? current : -1;
          if (from === -1) return step === 1 ? 0 : options.length - 1;
          return (from + step + options.length) % options.length;
        });
        return;
      }
      case 'Enter': {
        event.preventDefault();
        const option = activeIndex >= 0 ? options[activeIndex] : undefined;
        if (option) go(option.to, option.kind === 'all');
        else if (term) go(searchPath(term), true);
        return;
      }
      case 'Escape':
        if (expanded || (open && empty)) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (text) {
          event.preventDefault();
          setText('');
        }
        return;
      case 'Tab':
        setOpen(false);
        setActive(-1);
        return;
    }
  };

  const status =
    !open || !term
      ? ''
      : empty
        ? `No results for “${q}”`
        : expanded
          ? `${people.length} ${people.length === 1 ? 'person' : 'people'} and ${posts.length} ${posts.length === 1 ? 'post' : 'posts'}. Use the arrow keys to choose.`
          : '';

  let index = -1;
  const renderOption = (option: Option) => {
    index += 1;
    const current = index;
    const selected = current === activeIndex;
    return (
      <div
        key={option.key}
        id={optionId(current)}
        role="option"
        aria-selected={selected}
        className={`${styles.option} ${option.kind === 'all' ? styles.allOption : ''}`}
        // Keep the focus in the input; the click then opens the result.
        onMouseDown={(event) => event.preventDefault()}
        onMouseMove={() => setActive(current)}
        onClick={() => go(option.to, option.kind === 'all')}
      >
        {option.kind === 'user' && (
          <>
            <Avatar src={option.user.userPhoto} name={fullName(option.user)} size={2.25} decorative />
            <span className={styles.lines}>
              <span className={styles.primary}>{fullName(option.user)}</span>
              <span className={styles.secondary}>@{option.user.username}</span>
            </span>
          </>
        )}
        {option.kind === 'post' && (
          <>
            <span className={styles.postIcon} aria-hidden="true">
              <FileText size="1.1em" />
            </span>
            <span className={styles.lines}>
              <span className={styles.primary}>{snippet(option.post.content) || 'A picture'}</span>
              <span className={styles.secondary}>Post by @{option.post.username}</span>
            </span>
          </>
        )}
        {option.kind === 'all' && (
          <>
            <Search aria-hidden="true" size="1.1em" />
            <span className={styles.primary}>See all results for “{q}”</span>
          </>
        )}
      </div>
    );
  };

  const userOptions = options.filter((option) => option.kind === 'user');
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
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
      />
      <div className={styles.popup} hidden={!(open && term && (expanded || empty))}>
        <div id={listboxId} role="listbox" aria-label="Search results" className={styles.listbox} hidden={!expanded}>
          {userOptions.length > 0 && (
            <div role="group" aria-labelledby={`${baseId}-people`} className={styles.group}>
              <div role="presentation" id={`${baseId}-people`} className={styles.groupLabel}>
                People
              </div>
              {userOptions.map(renderOption)}
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
        {empty && open && (
          <p className={styles.empty} aria-hidden="true">
            No results for “{q}”
          </p>
        )}
      </div>
      <span className="visually-hidden" role="status" aria-live="polite">
        {status}
      </span>
    </form>
  );
}
