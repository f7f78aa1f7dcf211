import { useNavigate } from 'react-router';
import { toast } from '../../../../ui/toast';
import { scheduledLabel } from '../../model/draft-time';
import styles from './draft-bar.module.css';
import type { DraftAutosave } from './use-draft-autosave';

const STATUS_TEXT = {
  idle: 'Drafts are saved as you work.',
  saving: 'Saving draft…',
  saved: 'Draft saved',
  conflict: 'Not saved',
  failed: 'Draft not saved',
} as const;

/**
 * The composer's draft line (issue 41): whether the draft is saved, when it publishes if scheduled, why an earlier
 * scheduled publishing failed, and the ways out that keep it: "Keep as draft" and "Your drafts".
 */
export function DraftBar({ autosave, onClose }: { autosave: DraftAutosave; onClose: () => void }) {
  const navigate = useNavigate();
  const { draft, status, problem } = autosave;

  const keep = async (then?: () => void) => {
    const kept = await autosave.flush();
    autosave.stop();
    if (kept) toast.success('Kept in your drafts');
    onClose();
    then?.();
  };

  return (
    <div className={styles.bar}>
      <p className={styles.status} role="status">
        {STATUS_TEXT[status]}
        {draft?.scheduledAt && draft.timeZone && ` · Publishes ${scheduledLabel(draft.scheduledAt, draft.timeZone)}`}
      </p>
      <div className={styles.links}>
        {draft && status !== 'conflict' && (
          <button type="button" className={styles.link} onClick={() => void keep()}>
            Keep as draft
          </button>
        )}
        <button type="button" className={styles.link} onClick={() => void keep(() => void navigate('/drafts'))}>
          Your drafts
        </button>
      </div>
      {draft?.publishError && (
        <p className={styles.problem} role="alert">
          This post was not published at its time: {draft.publishError} Fix it, then post or schedule it again.
        </p>
      )}
      {problem && (
        <p className={styles.problem} role="alert">
          {status === 'conflict'
            ? 'This draft was changed in another tab or on another device, so it is no longer saved from here. Open it again from Your drafts to see the newest version.'
            : `${problem} It will be saved again with your next change.`}
        </p>
      )}
    </div>
  );
}
