import { FileText, Search } from 'lucide-react';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import type { Option } from '../lib/dropdown-options';
import styles from './search-option.module.css';

interface SearchOptionProps {
  option: Option;
  id: string;
  selected: boolean;
  /** The term the results are for (the "See all results" line names it). */
  q: string;
  onHighlight: () => void;
  onChoose: () => void;
}

function snippet(text: string, max = 90): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One option of the header's dropdown: a person, a post, or "See all results". */
export function SearchOption({ option, id, selected, q, onHighlight, onChoose }: SearchOptionProps) {
  return (
    <div
      id={id}
      role="option"
      aria-selected={selected}
      className={`${styles.option} ${option.kind === 'all' ? styles.allOption : ''}`}
      // Keep the focus in the input; the click then opens the result.
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={onHighlight}
      onClick={onChoose}
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
}
