import { Trans, useLingui } from '@lingui/react/macro';
import { BellOff, CircleAlert } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '../../../ui/button';
import styles from './post-notices.module.css';

interface SafetyFields {
  viewer: object;
  moderation?: unknown;
}

/** `Post.viewer.mutedWord`: the viewer's muted word or tag that hides this post in lists (null otherwise). */
export function mutedWordOf(post: SafetyFields): string | null {
  const word = (post.viewer as { mutedWord?: unknown }).mutedWord;
  return typeof word === 'string' && word ? word : null;
}

/** `Post.moderation` (its author only): the moderators' decision about the post, if any. */
export function moderationOf(post: SafetyFields): { state: string; reason: string } | null {
  const moderation = post.moderation as { state?: unknown; reason?: unknown } | null | undefined;
  if (!moderation || typeof moderation.state !== 'string') return null;
  return { state: moderation.state, reason: typeof moderation.reason === 'string' ? moderation.reason : '' };
}

/** A post opened by a link that one of your muted words hides: it asks first ("Show"). */
export function MutedPostGate({ post, children }: { post: SafetyFields; children: ReactNode }) {
  const { t } = useLingui();
  const [shown, setShown] = useState(false);
  const word = mutedWordOf(post);
  if (!word || shown) return children;
  return (
    <section className={styles.notice} aria-label={t`Hidden post`}>
      <BellOff aria-hidden="true" size="1.4em" className={styles.icon} />
      <p className={styles.text}>
        <Trans>
          Hidden because of a muted word (<strong className={styles.word}>{word}</strong>)
        </Trans>
      </p>
      <Button variant="secondary" onClick={() => setShown(true)}>
        <Trans>Show</Trans>
      </Button>
    </section>
  );
}

/** On the author's own post that moderators hid: why, and that nobody else sees it. */
export function ModerationNotice({ post }: { post: SafetyFields }) {
  const { t } = useLingui();
  const moderation = moderationOf(post);
  if (!moderation) return null;
  const state = moderation.state;
  const reason = moderation.reason || t`none given`;
  return (
    <section className={`${styles.notice} ${styles.moderation}`} aria-labelledby="moderation-notice-title">
      <CircleAlert aria-hidden="true" size="1.4em" className={styles.icon} />
      <div className={`${styles.text} ${styles.stack}`}>
        <h2 id="moderation-notice-title" className={styles.title}>
          {state === 'hidden' ? t`Hidden by a moderator` : t`Moderated: ${state}`}
        </h2>
        <p>
          <Trans>Reason: {reason}</Trans>
        </p>
        <p className={styles.muted}>
          <Trans>Only you can see this post now.</Trans>
        </p>
      </div>
    </section>
  );
}
