import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../../lib/api-client';
import { Button } from '../../../../ui/button';
import layout from '../../../../ui/dialog-layout.module.css';
import { Modal } from '../../../../ui/modal';
import { toast } from '../../../../ui/toast';
import { draftsApi } from '../../api/drafts';
import {
  browserTimeZone,
  defaultScheduleTime,
  scheduledLabel,
  scheduleProblem,
  toLocalInput,
} from '../../model/draft-time';
import styles from './draft-bar.module.css';
import type { DraftAutosave } from './use-draft-autosave';

interface ScheduleButtonProps {
  autosave: DraftAutosave;
  /** Whether the words are there (a post needs them). */
  hasContent: boolean;
  /** Pictures still uploading, or the composer busy: not yet. */
  disabled: boolean;
  /** Scheduled: the composer closes. */
  onScheduled: () => void;
}

/**
 * "Schedule" beside "Post" (issue 41): a date and time in the artist's own time zone, named; the draft is saved, then
 * scheduled, and a job publishes it then.
 */
export function ScheduleButton({ autosave, hasContent, disabled, onScheduled }: ScheduleButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" aria-disabled={disabled || undefined} onClick={() => !disabled && setOpen(true)}>
        <Trans>Schedule</Trans>
      </Button>
      {open && (
        <ScheduleDialog
          autosave={autosave}
          hasContent={hasContent}
          onClose={() => setOpen(false)}
          onScheduled={() => {
            setOpen(false);
            onScheduled();
          }}
        />
      )}
    </>
  );
}

function ScheduleDialog({
  autosave,
  hasContent,
  onClose,
  onScheduled,
}: Omit<ScheduleButtonProps, 'disabled'> & { onClose: () => void }) {
  const { t } = useLingui();
  const id = useId();
  const timeZone = browserTimeZone();
  const current = autosave.draft?.scheduledAt;
  const [value, setValue] = useState(() => (current ? toLocalInput(new Date(current)) : defaultScheduleTime()));
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const wrong = hasContent ? scheduleProblem(value) : t`Write something first: a post needs a few words.`;
    if (wrong) {
      setProblem(wrong);
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      const draft = await autosave.flush();
      if (!draft) throw new Error(t`The draft could not be saved: try again.`);
      const scheduled = await draftsApi.schedule(draft._id, {
        at: new Date(value).toISOString(),
        timeZone,
        revision: draft.revision,
      });
      autosave.stop();
      const when = scheduledLabel(scheduled.scheduledAt!, timeZone);
      toast.success(t`Scheduled: publishes ${when}`);
      onScheduled();
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <Modal title={t`Schedule this post`} size="sm" onClose={onClose} busy={busy}>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.field}>
          <label htmlFor={`${id}-at`}>
            <Trans>Publish on</Trans>
          </label>
          <input
            id={`${id}-at`}
            type="datetime-local"
            value={value}
            required
            aria-describedby={`${id}-zone${problem ? ` ${id}-problem` : ''}`}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => setValue(event.target.value)}
          />
          <p id={`${id}-zone`} className={styles.hint}>
            <Trans>Time zone: {timeZone}. It is published within a minute of that time.</Trans>
          </p>
        </div>
        {problem && (
          <p id={`${id}-problem`} className={styles.error} role="alert">
            {problem}
          </p>
        )}
        <div className={layout.actions}>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" aria-disabled={busy || undefined}>
            {busy ? t`Scheduling…` : t`Schedule`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
