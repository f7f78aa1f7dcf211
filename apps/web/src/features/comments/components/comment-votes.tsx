import { Trans, useLingui } from '@lingui/react/macro';
import type { Comment } from '@share-arts/contract';
import { ArrowBigDown, ArrowBigUp } from 'lucide-react';
import type { Vote } from '../api/vote-comment';
import styles from './comment-votes.module.css';

interface CommentVotesProps {
  /** The comment with any pending vote applied. */
  comment: Comment;
  onVote: (vote: Vote) => void;
  /** Not stored yet: nothing to vote on. */
  disabled?: boolean;
  /** Explains, on the pressed button, that a vote can be switched but not withdrawn. */
  hintId: string;
}

/** Upvote, the score (upvotes − downvotes), Downvote. */
export function CommentVotes({ comment, onVote, disabled = false, hintId }: CommentVotesProps) {
  const { t } = useLingui();
  const { upvoteCount, downvoteCount } = comment.votes;
  const score = upvoteCount - downvoteCount;
  const vote = comment.viewerVote;
  // U+2212 (minus sign) reads better than a hyphen next to the arrows.
  const shown = score < 0 ? `\u2212${Math.abs(score)}` : String(score);

  return (
    <div className={styles.votes} role="group" aria-label={t`Votes`}>
      <button
        type="button"
        className={`${styles.vote} ${styles.up}`}
        aria-label={t`Upvote`}
        aria-pressed={vote === 'up'}
        aria-describedby={vote === 'up' ? hintId : undefined}
        title={vote === 'up' ? t`You upvoted this comment` : t`Upvote`}
        disabled={disabled}
        onClick={() => onVote('up')}
      >
        <ArrowBigUp aria-hidden="true" size="1.35em" fill={vote === 'up' ? 'currentColor' : 'none'} />
      </button>
      <span className={styles.score} title={t`${upvoteCount} up, ${downvoteCount} down`}>
        <Trans>
          <span className="visually-hidden">Score </span>
          {shown}
        </Trans>
      </span>
      <button
        type="button"
        className={`${styles.vote} ${styles.down}`}
        aria-label={t`Downvote`}
        aria-pressed={vote === 'down'}
        aria-describedby={vote === 'down' ? hintId : undefined}
        title={vote === 'down' ? t`You downvoted this comment` : t`Downvote`}
        disabled={disabled}
        onClick={() => onVote('down')}
      >
        <ArrowBigDown aria-hidden="true" size="1.35em" fill={vote === 'down' ? 'currentColor' : 'none'} />
      </button>
    </div>
  );
}
