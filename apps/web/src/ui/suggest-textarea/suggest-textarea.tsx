import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type KeyboardEvent,
  type Ref,
  type SyntheticEvent,
  type TextareaHTMLAttributes,
} from 'react';
import { caretTrigger, replaceTrigger, type CaretTrigger } from '../../lib/caret-trigger';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useTextSuggestions, type TextSuggestion } from '../../lib/text-suggestions';
import { SuggestionOption } from './suggestion-option';
import styles from './suggest-textarea.module.css';

const DEBOUNCE_MS = 120;
/** Kept clear at the bottom of the visible area: a dialog's sticky footer, a phone's bottom bar. */
const BOTTOM_RESERVE_PX = 96;
const POPUP_MAX_PX = 288;

interface Placement {
  side: 'below' | 'above';
  maxHeight: number;
}

/** The visible part of the page around `element`: the viewport, cut by every ancestor that clips. */
function visibleBounds(element: HTMLElement): { top: number; bottom: number } {
  let top = 0;
  let bottom = window.innerHeight;
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'visible') continue;
    const rect = node.getBoundingClientRect();
    top = Math.max(top, rect.top);
    bottom = Math.min(bottom, rect.bottom);
  }
  return { top, bottom };
}

/** Below the field when the list fits there, else on the side with more room (above, over what precedes). */
function choosePlacement(wrapper: HTMLElement): Placement {
  const rect = wrapper.getBoundingClientRect();
  const bounds = visibleBounds(wrapper);
  const below = bounds.bottom - rect.bottom - BOTTOM_RESERVE_PX;
  const above = rect.top - bounds.top;
  const side = below >= Math.min(POPUP_MAX_PX, 160) || below >= above ? 'below' : 'above';
  const room = side === 'below' ? below : above;
  return { side, maxHeight: Math.max(120, Math.min(POPUP_MAX_PX, room - 8)) };
}

interface SuggestTextareaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> {
  ref?: Ref<HTMLTextAreaElement>;
  value: string;
  onValueChange: (value: string) => void;
  /** The wrapper's class (the popup is placed under it). */
  wrapperClassName?: string;
}

function setRef<T>(ref: Ref<T> | undefined, value: T | null) {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

/** The caret when nothing is selected (a selected range suggests nothing). */
function caretOf(element: HTMLTextAreaElement): number | null {
  return element.selectionStart === element.selectionEnd ? element.selectionStart : null;
}

function parseKey(key: string): Pick<CaretTrigger, 'kind' | 'query'> | null {
  if (!key) return null;
  return { kind: key[0] === '#' ? 'tag' : 'mention', query: key.slice(1) };
}

/**
 * A textarea that suggests tags after `#` (the most used first) and people after `@` (those the viewer
 * follows first): a text box with a listbox popup (aria-autocomplete="list", see the textarea below).
 * ↑/↓ move, Enter or Tab put the highlighted word in place of what was typed (then a space, the caret
 * after it), Escape closes the list and leaves the text as it is; a click chooses too. Without a `#` or
 * `@` word at the caret it is a plain textarea.
 */
export function SuggestTextarea({
  ref,
  value,
  onValueChange,
  wrapperClassName,
  onKeyDown,
  onSelect,
  onBlur,
  onFocus,
  maxLength,
  ...textareaProps
}: SuggestTextareaProps) {
  const { t } = useLingui();
  const baseId = useId();
  const listboxId = `${baseId}-suggestions`;
  const optionId = (index: number) => `${baseId}-suggestion-${index}`;
  const element = useRef<HTMLTextAreaElement | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const [placement, setPlacement] = useState<Placement>({ side: 'below', maxHeight: POPUP_MAX_PX });
  const pendingCaret = useRef<number | null>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);

  const trigger = focused && caret !== null ? caretTrigger(value, caret) : null;
  const open = trigger !== null && dismissedAt !== trigger.start;
  const key = open ? `${trigger.kind === 'tag' ? '#' : '@'}${trigger.query}` : '';
  const debouncedKey = useDebouncedValue(key, DEBOUNCE_MS);
  // The first `#` or `@` asks at once; then while typing, once the typing pauses.
  const askedKey = key && debouncedKey && debouncedKey[0] === key[0] ? debouncedKey : key;
  const { data } = useTextSuggestions(open ? parseKey(askedKey) : null);
  const options: TextSuggestion[] = open && data ? data.filter((option) => option.kind === trigger.kind) : [];
  const expanded = options.length > 0;

  // A new word (or a new list) starts on its first suggestion.
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setActive(0);
  }
  const activeIndex = expanded ? Math.min(active, options.length - 1) : -1;

  useEffect(() => {
    if (activeIndex < 0) return;
    document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: 'nearest' });
    // optionId is derived from a stable id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeIndex]);

  // Where the list goes is decided as it opens, from the room around the field at that moment.
  useLayoutEffect(() => {
    if (expanded && wrapper.current) setPlacement(choosePlacement(wrapper.current));
  }, [expanded]);

  // After a suggestion is put in, the caret goes after it once the new value is on screen.
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !element.current) return;
    pendingCaret.current = null;
    element.current.setSelectionRange(at, at);
  }, [value]);

  const trackCaret = (event: SyntheticEvent<HTMLTextAreaElement>) => setCaret(caretOf(event.currentTarget));

  const choose = (option: TextSuggestion) => {
    if (!trigger) return;
    const next = replaceTrigger(value, trigger, option.word);
    if (maxLength !== undefined && next.text.length > maxLength) return;
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    onValueChange(next.text);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // While an input method composes (Japanese, Chinese, …), its keys are its own.
    if (expanded && trigger && !event.nativeEvent.isComposing) {
      const handled = () => {
        event.preventDefault();
        event.stopPropagation();
      };
      switch (event.key) {
        case 'ArrowDown':
        case 'ArrowUp': {
          handled();
          const step = event.key === 'ArrowDown' ? 1 : -1;
          setActive((activeIndex + step + options.length) % options.length);
          return;
        }
        case 'Enter':
        case 'Tab': {
          // Ctrl/⌘+Enter still posts; Shift+Tab still leaves the field.
          if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) break;
          handled();
          const option = options[activeIndex];
          if (option) choose(option);
          return;
        }
        case 'Escape':
          handled();
          setDismissedAt(trigger.start);
          return;
      }
    }
    onKeyDown?.(event);
  };

  const mergedRef = useCallback(
    (node: HTMLTextAreaElement | null) => {
      element.current = node;
      setRef(ref, node);
    },
    [ref],
  );

  const label = trigger?.kind === 'mention' ? t`People to mention` : t`Tags`;
  const count = options.length;
  const status = !expanded
    ? ''
    : trigger?.kind === 'mention'
      ? t`${plural(count, { one: '# person suggested.', other: '# people suggested.' })} Use the arrow keys and Enter to choose.`
      : t`${plural(count, { one: '# tag suggested.', other: '# tags suggested.' })} Use the arrow keys and Enter to choose.`;

  return (
    <div ref={wrapper} className={[styles.wrapper, wrapperClassName].filter(Boolean).join(' ')}>
      <textarea
        {...textareaProps}
        ref={mergedRef}
        value={value}
        maxLength={maxLength}
        // A multi-line text box, not an ARIA combobox (which a textarea may not be: ARIA in HTML allows it
        // no role): it says it offers a list, points at it and at the highlighted option, and the status
        // below announces the suggestions as they appear.
        aria-autocomplete="list"
        aria-controls={listboxId}
        aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
        onChange={(event: ChangeEvent<HTMLTextAreaElement>) => {
          const next = event.currentTarget.value;
          setCaret(caretOf(event.currentTarget));
          // Deleting back into a dismissed word offers its suggestions again.
          if (next.length < value.length) setDismissedAt(null);
          onValueChange(next);
        }}
        onSelect={(event) => {
          trackCaret(event);
          onSelect?.(event);
        }}
        onKeyDown={handleKeyDown}
        onFocus={(event) => {
          setFocused(true);
          trackCaret(event);
          onFocus?.(event);
        }}
        onBlur={(event) => {
          setFocused(false);
          onBlur?.(event);
        }}
      />
      <div
        id={listboxId}
        role="listbox"
        aria-label={label}
        // Scrollable, so in the tab order (WCAG 2.1.1; a combobox's popup is exempt, a text box's is not).
        // It is shown only while the text box has the focus, where the arrow keys move through it and Tab
        // chooses; a press on it leaves the focus in the text box.
        tabIndex={0}
        onMouseDown={(event) => event.preventDefault()}
        className={`${styles.popup} ${placement.side === 'above' ? styles.above : ''}`}
        style={{ maxHeight: placement.maxHeight }}
        hidden={!expanded}
      >
        {options.map((option, index) => (
          <SuggestionOption
            key={option.key}
            id={optionId(index)}
            option={option}
            selected={index === activeIndex}
            onHighlight={() => setActive(index)}
            onChoose={() => choose(option)}
          />
        ))}
      </div>
      <span className="visually-hidden" role="status" aria-live="polite">
        {status}
      </span>
    </div>
  );
}
