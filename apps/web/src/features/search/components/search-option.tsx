import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { FileText, Globe, Hash, Search } from 'lucide-react';
import { displayUrl } from '../../../lib/safe-url';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { Handle } from '../../../ui/handle';
import { ResponsivePicture } from '../../../ui/responsive-picture';
import type { Option } from '../lib/dropdown-options';
import { lookupLabel } from '../lib/remote-query';
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

/**
 * One option of the header's dropdown: a lookup on another server, a person, a tag, a post (with its first
 * picture), or "See all results".
 */
export function SearchOption({ option, id, selected, q, onHighlight, onChoose }: SearchOptionProps) {
  const { t } = useLingui();
  const cover = option.kind === 'post' ? (option.post.media?.[0] ?? option.post.picture ?? null) : null;
  const author = option.kind === 'post' ? option.post.username : '';
  const postCount = option.kind === 'tag' ? option.tag.postCount : 0;
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
      {option.kind === 'lookup' && (
        <>
          <span className={styles.postIcon} aria-hidden="true">
            <Globe size="1.1em" />
          </span>
          <span className={styles.lines}>
            <span className={`${styles.primary} ${styles.whole}`}>{lookupLabel(option.query)}</span>
            {option.query.kind === 'url' && <span className={styles.secondary}>{displayUrl(option.query.url)}</span>}
          </span>
        </>
      )}
      {option.kind === 'user' && (
        <>
          <Avatar src={option.user.userPhoto} name={fullName(option.user)} size={2.25} decorative />
          <span className={styles.lines}>
            <span className={styles.primary}>{fullName(option.user)}</span>
            <span className={styles.secondary}>
              <Handle username={option.user.username} />
            </span>
          </span>
        </>
      )}
      {option.kind === 'tag' && (
        <>
          <span className={styles.postIcon} aria-hidden="true">
            <Hash size="1.1em" />
          </span>
          <span className={styles.lines}>
            <span className={styles.primary}>#{option.tag.tag}</span>
            <span className={styles.secondary}>
              <Plural value={postCount} one="# post" other="# posts" />
            </span>
          </span>
        </>
      )}
      {option.kind === 'post' && (
        <>
          {cover ? (
            // The words beside it name the post: the thumbnail is decoration.
            <span className={styles.thumb} aria-hidden="true">
              <ResponsivePicture picture={cover} alt="" sizes="3rem" loading="lazy" />
            </span>
          ) : (
            <span className={styles.postIcon} aria-hidden="true">
              <FileText size="1.1em" />
            </span>
          )}
          <span className={styles.lines}>
            <span className={styles.primary}>{snippet(option.post.content) || t`A picture`}</span>
            <span className={styles.secondary}>
              <Trans>Post by @{author}</Trans>
            </span>
          </span>
        </>
      )}
      {option.kind === 'all' && (
        <>
          <Search aria-hidden="true" size="1.1em" />
          <span className={styles.primary}>
            <Trans>See all results for “{q}”</Trans>
          </span>
        </>
      )}
    </div>
  );
}
