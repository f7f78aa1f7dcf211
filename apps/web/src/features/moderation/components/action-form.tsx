import type { ModerationActionKind, ReportTargetType } from '@share-arts/contract';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { toast } from '../../../ui/toast';
import { useModerationAction } from '../api/moderation-api';
import { REASON_MAX } from './labels';
import layout from '../../../ui/dialog-layout.module.css';
import styles from './moderation.module.css';

export interface PendingAction {
  action: ModerationActionKind;
  targetType: ReportTargetType;
  targetId: string;
  /** The form's heading, e.g. "Hide this post". */
  title: string;
  /** The button's text, e.g. "Hide". */
  confirm: string;
}

const DURATIONS = [
  { value: '1', label: msg`1 day` },
  { value: '7', label: msg`7 days` },
  { value: '30', label: msg`30 days` },
  { value: 'forever', label: msg`For good` },
] as const;

/**
 * Every action asks for its reason (the author sees it when their content is hidden); a suspension, how long.
 * Drawn in the reported item's card, under its actions, with the reason field focused.
 */
export function ActionForm({ pending, onClose }: { pending: PendingAction; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const act = useModerationAction();
  const [reason, setReason] = useState('');
  const [duration, setDuration] = useState<(typeof DURATIONS)[number]['value']>('1');
  const [problem, setProblem] = useState<string | undefined>();
  const reasonId = useId();
  const counterId = useId();
  const problemId = useId();
  const busy = act.isPending;
  const titleId = useId();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  // Opened (or switched to another action): the reason is what to write.
  useEffect(() => reasonRef.current?.focus(), [pending.action, pending.targetId]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const text = reason.trim();
    if (!text) {
      setProblem(t`Write the reason: the author sees it when their content is hidden, and it goes in the audit log.`);
      return;
    }
    setProblem(undefined);
    const until =
      pending.action === 'suspend' && duration !== 'forever'
        ? new Date(Date.now() + Number(duration) * 86_400_000).toISOString()
        : undefined;
    act.mutate(
      { targetType: pending.targetType, targetId: pending.targetId, action: pending.action, reason: text, until },
      {
        onSuccess: (result) => {
          const resolved = result.resolvedReports;
          toast.success(
            resolved > 0
              ? t`${plural(resolved, {
                  one: 'Done. # report was resolved; the reporters are told.',
                  other: 'Done. # reports were resolved; the reporters are told.',
                })}`
              : t`Done.`,
          );
          onClose();
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <section className={styles.actionForm} aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.actionTitle}>
        {pending.title}
      </h3>
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        {pending.action === 'suspend' && (
          <fieldset className={styles.durations}>
            <legend className={styles.legend}>
              <Trans>For how long?</Trans>
            </legend>
            {DURATIONS.map((option) => (
              <label key={option.value} className={styles.duration}>
                <input
                  type="radio"
                  name="duration"
                  value={option.value}
                  checked={duration === option.value}
                  onChange={() => setDuration(option.value)}
                  disabled={busy}
                />
                <span>{i18n._(option.label)}</span>
              </label>
            ))}
          </fieldset>
        )}
        <div className={layout.field}>
          <label htmlFor={reasonId}>
            <Trans>Reason</Trans>
          </label>
          <textarea
            ref={reasonRef}
            id={reasonId}
            className={`${layout.textarea} ${styles.reason}`}
            value={reason}
            maxLength={REASON_MAX}
            rows={3}
            required
            readOnly={busy}
            aria-invalid={problem ? true : undefined}
            aria-describedby={[problem ? problemId : '', counterId].filter(Boolean).join(' ')}
            onChange={(event) => {
              setReason(event.target.value);
              setProblem(undefined);
            }}
          />
          <span id={counterId} className={styles.counter}>
            <span className="visually-hidden">
              <Trans>Characters used:</Trans>{' '}
            </span>
            {reason.length} / {REASON_MAX}
          </span>
          {problem && (
            <p id={problemId} className={styles.error} role="alert">
              {problem}
            </p>
          )}
        </div>
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            type="submit"
            variant={pending.action === 'dismiss' ? 'primary' : 'danger'}
            aria-disabled={busy || undefined}
          >
            {busy ? t`Saving…` : pending.confirm}
          </Button>
        </div>
      </form>
    </section>
  );
}
