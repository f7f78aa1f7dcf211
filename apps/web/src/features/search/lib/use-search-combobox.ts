import { useEffect, useId, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { searchTerm, useSearchDropdown } from '../api/search';
import { dropdownOptions, dropdownStatus, lookupPath, searchPath, type Option } from './dropdown-options';
import { remoteQuery } from './remote-query';

const DEBOUNCE_MS = 250;

/**
 * The header search's state (WAI-ARIA combobox with a listbox popup): the text, results as you type,
 * the popup and its highlighted option. ArrowUp/Down move, Enter opens the highlighted result (or the
 * full results page), Escape closes, then clears.
 */
export function useSearchCombobox() {
  const baseId = useId();
  const optionId = (index: number) => `${baseId}-option-${index}`;
  const navigate = useNavigate();
  const location = useLocation();

  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const term = searchTerm(text);
  const q = useDebouncedValue(term, DEBOUNCE_MS);
  // A handle or an address on another server is offered as a lookup at once (the whole text: an address may be
  // longer than a search term).
  const remote = remoteQuery(text);
  const { data, isFetching, isPlaceholderData, isError } = useSearchDropdown(remote?.kind === 'url' ? '' : q);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  // Leaving the page (a result was opened, or the back button) closes the popup.
  const path = location.pathname + location.search;
  const [shownPath, setShownPath] = useState(path);
  if (shownPath !== path) {
    setShownPath(path);
    close();
  }

  const { people, tags, posts, options } = dropdownOptions(q, data, remote);
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
    close();
    if (!keepText) setText('');
    void navigate(to);
  };

  // The text stays for the full results and for a lookup (whose errors are shown beside it on the search page).
  const choose = (option: Option) => go(option.to, option.kind === 'all' || option.kind === 'lookup');

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
        if (option) choose(option);
        else if (remote) go(lookupPath(remote), true);
        else if (term) go(searchPath(term), true);
        return;
      }
      case 'Escape':
        if (expanded || (open && empty)) {
          event.preventDefault();
          close();
        } else if (text) {
          event.preventDefault();
          setText('');
        }
        return;
      case 'Tab':
        close();
        return;
    }
  };

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    setText(event.target.value);
    setOpen(true);
    setActive(-1);
  };

  return {
    baseId,
    optionId,
    q,
    options,
    activeIndex,
    /** The listbox is shown (with options). */
    expanded,
    /** The popup is shown: the options, or "No results". */
    popup: open && term !== '' && (expanded || empty),
    /** "No results" is shown. */
    noResults: empty && open,
    status: dropdownStatus({
      shown: open && term !== '',
      q,
      empty,
      expanded,
      people: people.length,
      tags: tags.length,
      posts: posts.length,
      remote,
    }),
    highlight: setActive,
    choose,
    input: {
      value: text,
      onChange,
      onKeyDown,
      onFocus: () => setOpen(true),
      onClick: () => setOpen(true),
      onBlur: close,
    },
  };
}
