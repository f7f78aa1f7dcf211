import { t } from '@lingui/core/macro';
import { useLingui as useLinguiRuntime } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { Modal } from '../../../ui/modal';
import layout from '../../../ui/dialog-layout.module.css';
import { useSendReport } from '../api/send-report';
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason, type ReportTarget } from '../api/safety-types';
import styles from './safety.module.css';

export interface ReportDialogProps extends ReportTarget {
  /** What is reported, for the title: "post", "comment" or "@mira". */
  what: string;
  /** The server its author is on, when another one (issue 39): the report may be sent there too. */
  remoteHost?: string | undefined;
  onClose: () => void;
}

/**
 * Report a post, a comment or a person: a reason (radio group), an optional note, Send. Then the server's
 * thank-you, which says what happens next; its refusal (e.g. already reported, 409) is shown as it is.
 */
/** "Report post", "Report comment", "Report @mira" (a person is named by `what`). */
function reportTitle(targetType: ReportTarget['targetType'], what: string): string {
  switch (targetType) {
    case 'post':
      return t`Report post`;
    case 'comment':
      return t`Report comment`;
    case 'inquiry':
      return t`Report inquiry`;
    default:
      return t`Report ${what}`;
  }
}

export function ReportDialog({ targetType, targetId, what, remoteHost, onClose }: ReportDialogProps) {
  const { t } = useLingui();
  const { _ } = useLinguiRuntime();
  const send = useSendReport();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [forward, setForward] = useState(false);
  const forwardHintId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const noteId = useId();
  const counterId = useId();
  const problemId = useId();
  const busy = send.isPending;
  const used = note.length;
  const limit = REPORT_NOTE_MAX;

  if (send.isSuccess) {
    return (
      <Modal title={t`Thank you`} onClose={onClose} size="sm">
        <p className={styles.text} role="status">
          {send.data.message}
        </p>
        <div className={layout.actions}>
          <Button onClick={onClose} data-autofocus>
            <Trans>Done</Trans>
          </Button>
        </div>
      </Modal>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!reason) {
      setProblem(t`Choose a reason for the report.`);
      return;
    }
    setProblem(null);
    const trimmed = note.trim();
    send.mutate(
      {
        targetType,
        targetId,
        reason,
        ...(trimmed ? { note: trimmed } : {}),
        ...(remoteHost && forward ? { forward } : {}),
      },
      { onError: (error) => setProblem(errorMessage(error)) },
    );
  };

  return (
    <Modal title={reportTitle(targetType, what)} onClose={onClose} busy={busy}>
      <form className={layout.form} onSubmit={onSubmit} noValidate aria-describedby={problem ? problemId : undefined}>
        <fieldset className={styles.reasons}>
          <legend className={styles.legend}>
            <Trans>Why are you reporting it?</Trans>
          </legend>
          {REPORT_REASONS.map((option) => (
            <label key={option.value} className={styles.reason}>
              <input
                type="radio"
                name="reason"
                required
                value={option.value}
                checked={reason === option.value}
                disabled={busy}
                onChange={() => {
                  setReason(option.value);
                  setProblem(null);
                }}
              />
              <span>{_(option.label)}</span>
            </label>
          ))}
        </fieldset>
        <div className={layout.field}>
          <label htmlFor={noteId}>
            <Trans>Note (optional)</Trans>
          </label>
          <textarea
            id={noteId}
            className={layout.textarea}
            value={note}
            maxLength={REPORT_NOTE_MAX}
            rows={3}
            readOnly={busy}
            aria-describedby={counterId}
            onChange={(event) => setNote(event.target.value)}
          />
          <span id={counterId} className={styles.counter}>
            <Trans>
              <span className="visually-hidden">Characters used: </span>
              {used} / {limit}
            </Trans>
          </span>
        </div>
        {remoteHost && (
          <div className={layout.field}>
            <label className={styles.reason}>
              <input
                type="checkbox"
                checked={forward}
                disabled={busy}
                aria-describedby={forwardHintId}
                onChange={(event) => setForward(event.target.checked)}
              />
              <span>
                <Trans>Also send to {remoteHost}</Trans>
              </span>
            </label>
            <span id={forwardHintId} className={styles.counter}>
              <Trans>Its moderators get the reason and your note from this server, without your name.</Trans>
            </span>
          </div>
        )}
        {problem && (
          <p id={problemId} className={styles.error} role="alert">
            {problem}
          </p>
        )}
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" aria-disabled={busy || undefined}>
            {busy ? t`Sending…` : t`Send`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
