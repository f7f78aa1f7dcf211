import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from 'react-router';
import { toast } from '../../../../ui/toast';
import { scheduledLabel } from '../../model/draft-time';
import styles from './draft-bar.module.css';
import type { DraftAutosave } from './use-draft-autosave';

const STATUS_TEXT = {
  idle: msg`Drafts are saved as you work.`,
  saving: msg`Saving draft…`,
  saved: msg`Draft saved`,
  conflict: msg`Not saved`,
  failed: msg`Draft not saved`,
} as const;

/**
 * The composer's draft line (issue 41): whether the draft is saved, when it publishes if scheduled, why an earlier
 * scheduled publishing failed, and the ways out that keep it: "Keep as draft" and "Your drafts".
 */
export function DraftBar({ autosave, onClose }: { autosave: DraftAutosave; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const { draft, status, problem } = autosave;
  const when = draft?.scheduledAt && draft.timeZone ? scheduledLabel(draft.scheduledAt, draft.timeZone) : undefined;
  const publishError = draft?.publishError;

  const keep = async (then?: () => void) => {
    const kept = await autosave.flush();
    autosave.stop();
    if (kept) toast.success(t`Kept in your drafts`);
    onClose();
    then?.();
  };

  return (
    <div className={styles.bar}>
      <p className={styles.status} role="status">
        {i18n._(STATUS_TEXT[status])}
        {when && ` · ${t`Publishes ${when}`}`}
      </p>
      <div className={styles.links}>
        {draft && status !== 'conflict' && (
          <button type="button" className={styles.link} onClick={() => void keep()}>
            <Trans>Keep as draft</Trans>
          </button>
        )}
        <button type="button" className={styles.link} onClick={() => void keep(() => void navigate('/drafts'))}>
          <Trans>Your drafts</Trans>
        </button>
      </div>
      {publishError && (
        <p className={styles.problem} role="alert">
          <Trans>This post was not published at its time: {publishError} Fix it, then post or schedule it again.</Trans>
        </p>
      )}
      {problem && (
        <p className={styles.problem} role="alert">
          {status === 'conflict'
            ? t`This draft was changed in another tab or on another device, so it is no longer saved from here. Open it again from Your drafts to see the newest version.`
            : t`${problem} It will be saved again with your next change.`}
        </p>
      )}
    </div>
  );
}
