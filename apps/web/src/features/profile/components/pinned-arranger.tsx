import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import type { Post } from '@share-arts/contract';
import { ArrowDown, ArrowUp, PinOff } from 'lucide-react';
import { Button } from '../../../ui/button';
import { usePinChange } from '../../posts';
import styles from './profile-posts.module.css';

const MAX_WORDS = 8;

function workName(post: Post): string {
  const alt = post.picture?.alt.trim();
  if (alt) return alt;
  const words = post.content.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return t`Untitled work`;
  return words.length > MAX_WORDS ? `${words.slice(0, MAX_WORDS).join(' ')}…` : words.join(' ');
}

/**
 * The owner's pinned works in their order, each with Move earlier, Move later and Unpin: buttons, so the
 * order is changed by keyboard as by pointer. Folded away until opened.
 */
export function PinnedArranger({ pinned }: { pinned: readonly Post[] }) {
  const { change, pending } = usePinChange();
  const ids = pinned.map((post) => post._id);
  const count = pinned.length;
  const move = (from: number, to: number) => {
    const next = [...ids];
    const [moved] = next.splice(from, 1);
    if (moved === undefined) return;
    next.splice(to, 0, moved);
    change({ action: 'reorder', postIds: next });
  };

  return (
    <details className={styles.arranger}>
      <summary>
        <Trans>Arrange pinned works ({count})</Trans>
      </summary>
      <ol className={styles.pins} aria-busy={pending || undefined}>
        {pinned.map((post, index) => {
          const name = workName(post);
          return (
            <li key={post._id} className={styles.pin}>
              <span className={styles.pinText}>
                {index + 1}. {name}
              </span>
              <span className={styles.pinActions}>
                <Button
                  variant="secondary"
                  aria-label={t`Move “${name}” earlier`}
                  aria-disabled={index === 0 || pending || undefined}
                  onClick={() => index > 0 && !pending && move(index, index - 1)}
                >
                  <ArrowUp aria-hidden="true" size="1em" />
                </Button>
                <Button
                  variant="secondary"
                  aria-label={t`Move “${name}” later`}
                  aria-disabled={index === pinned.length - 1 || pending || undefined}
                  onClick={() => index < pinned.length - 1 && !pending && move(index, index + 1)}
                >
                  <ArrowDown aria-hidden="true" size="1em" />
                </Button>
                <Button
                  variant="secondary"
                  aria-label={t`Unpin “${name}”`}
                  aria-disabled={pending || undefined}
                  onClick={() => !pending && change({ action: 'unpin', postId: post._id })}
                >
                  <PinOff aria-hidden="true" size="1em" />
                </Button>
              </span>
            </li>
          );
        })}
      </ol>
    </details>
  );
}
