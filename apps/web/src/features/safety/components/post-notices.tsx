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
  const [shown, setShown] = useState(false);
  const word = mutedWordOf(post);
  if (!word || shown) return children;
  return (
    <section className={styles.notice} aria-label="Hidden post">
      <BellOff aria-hidden="true" size="1.4em" className={styles.icon} />
      <p className={styles.text}>
        Hidden because of a muted word (<strong className={styles.word}>{word}</strong>)
      </p>
      <Button variant="secondary" onClick={() => setShown(true)}>
        Show
      </Button>
    </section>
  );
}

/** On the author's own post that moderators hid: why, and that nobody else sees it. */
export function ModerationNotice({ post }: { post: SafetyFields }) {
  const moderation = moderationOf(post);
  if (!moderation) return null;
  return (
    <section className={`${styles.notice} ${styles.moderation}`} aria-labelledby="moderation-notice-title">
      <CircleAlert aria-hidden="true" size="1.4em" className={styles.icon} />
      <div className={`${styles.text} ${styles.stack}`}>
        <h2 id="moderation-notice-title" className={styles.title}>
          {moderation.state === 'hidden' ? 'Hidden by a moderator' : `Moderated: ${moderation.state}`}
        </h2>
        <p>Reason: {moderation.reason || 'none given'}</p>
        <p className={styles.muted}>Only you can see this post now.</p>
      </div>
    </section>
  );
}
