import { Plural } from '@lingui/react/macro';
import { Hash } from 'lucide-react';
import type { TextSuggestion } from '../../lib/text-suggestions';
import { fullName } from '../../lib/user-name';
import { Avatar } from '../avatar';
import styles from './suggest-textarea.module.css';

interface SuggestionOptionProps {
  id: string;
  option: TextSuggestion;
  selected: boolean;
  onHighlight: () => void;
  onChoose: () => void;
}

/** One suggestion: a tag and how many posts carry it, or a person (photo, name, @username). */
export function SuggestionOption({ id, option, selected, onHighlight, onChoose }: SuggestionOptionProps) {
  return (
    <div
      id={id}
      role="option"
      aria-selected={selected}
      className={styles.option}
      // Keep the focus (and the caret) in the textarea; the click then puts the word in.
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={selected ? undefined : onHighlight}
      onClick={onChoose}
    >
      {option.kind === 'tag' ? (
        <>
          <span className={styles.tagIcon} aria-hidden="true">
            <Hash size="1em" />
          </span>
          <span className={styles.lines}>
            <span className={styles.primary}>#{option.word}</span>
            <span className={styles.secondary}>
              <PostCount count={option.postCount} />
            </span>
          </span>
        </>
      ) : (
        <>
          <Avatar src={option.user.userPhoto} name={fullName(option.user)} size={2} decorative />
          <span className={styles.lines}>
            <span className={styles.primary}>{fullName(option.user)}</span>
            <span className={styles.secondary}>@{option.user.username}</span>
          </span>
        </>
      )}
    </div>
  );
}

/** "1 post", "12 posts", in the app's language. */
function PostCount({ count }: { count: number }) {
  return <Plural value={count} one="# post" other="# posts" />;
}
