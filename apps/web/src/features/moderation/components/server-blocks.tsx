import type { ServerBlock, ServerBlockSeverity } from '@share-arts/contract';
import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { formatFullDate } from '../../../lib/format-date';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { TextField } from '../../../ui/field';
import { toast } from '../../../ui/toast';
import { useServerBlockChange, useServerBlocks } from '../api/moderation-api';
import { REASON_MAX, SEVERITY_LABELS } from './labels';
import layout from '../../../ui/dialog-layout.module.css';
import styles from './moderation.module.css';

const SEVERITIES = ['suspend', 'silence', 'reject_media'] as const satisfies readonly ServerBlockSeverity[];

/** The follows a block ended, as a sentence after the toast's first (in the current language, at call time). */
const endedText = (ended: number) =>
  ended > 0
    ? ` ${t`${plural(ended, {
        one: '# follow of our artists by its people ended.',
        other: '# follows of our artists by its people ended.',
      })}`}`
    : '';

/** The severity's radios and the reason: the new block's form and a block's change share them. */
function SeverityAndReason({
  severity,
  onSeverity,
  reason,
  onReason,
  busy,
}: {
  severity: ServerBlockSeverity;
  onSeverity: (severity: ServerBlockSeverity) => void;
  reason: string;
  onReason: (reason: string) => void;
  busy: boolean;
}) {
  const { i18n } = useLingui();
  const name = useId();
  const reasonId = useId();
  return (
    <>
      <fieldset className={styles.durations}>
        <legend className={styles.legend}>
          <Trans>How?</Trans>
        </legend>
        {SEVERITIES.map((value) => (
          <label key={value} className={styles.duration}>
            <input
              type="radio"
              name={name}
              value={value}
              checked={severity === value}
              onChange={() => onSeverity(value)}
              disabled={busy}
            />
            <span>
              <strong>{i18n._(SEVERITY_LABELS[value]!.label)}</strong>
              <span className={styles.muted}> · {i18n._(SEVERITY_LABELS[value]!.hint)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className={layout.field}>
        <label htmlFor={reasonId}>
          <Trans>Reason (optional)</Trans>
        </label>
        <textarea
          id={reasonId}
          className={`${layout.textarea} ${styles.reason}`}
          value={reason}
          maxLength={REASON_MAX}
          rows={2}
          readOnly={busy}
          onChange={(event) => onReason(event.target.value)}
        />
      </div>
    </>
  );
}

/** Block a new server: its domain, how, and why. */
function NewBlockForm() {
  const { t } = useLingui();
  const { block } = useServerBlockChange();
  const [domain, setDomain] = useState('');
  const [severity, setSeverity] = useState<ServerBlockSeverity>('suspend');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const titleId = useId();
  const busy = block.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!domain.trim()) {
      setProblem(t`Type the server, like spam.example.`);
      return;
    }
    setProblem(undefined);
    block.mutate(
      { domain: domain.trim(), severity, reason: reason.trim() },
      {
        onSuccess: (result) => {
          const blocked = result.block.domain;
          toast.success(`${t`${blocked} is blocked.`}${endedText(result.endedFollows)}`);
          setDomain('');
          setReason('');
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <section className={styles.target} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.targetTitle}>
        <Trans>Block a server</Trans>
      </h2>
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Server`}
          hint={t`Its domain, like spam.example: its subdomains are covered too.`}
          value={domain}
          onChange={(event) => {
            setDomain(event.target.value);
            setProblem(undefined);
          }}
          error={problem}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          inputMode="url"
          maxLength={253}
          readOnly={busy}
        />
        <SeverityAndReason
          severity={severity}
          onSeverity={setSeverity}
          reason={reason}
          onReason={setReason}
          busy={busy}
        />
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button type="submit" variant="danger" aria-disabled={busy || undefined}>
            {busy ? t`Blocking…` : t`Block`}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** One blocked server: how and why, who and when; change it or lift it. */
function BlockItem({ item }: { item: ServerBlock }) {
  const { t, i18n } = useLingui();
  const domain = item.domain;
  const severityLabel = SEVERITY_LABELS[item.severity];
  const createdBy = item.createdBy;
  const { change, lift } = useServerBlockChange();
  const [editing, setEditing] = useState(false);
  const [lifting, setLifting] = useState(false);
  const [severity, setSeverity] = useState<ServerBlockSeverity>(item.severity);
  const [reason, setReason] = useState(item.reason);
  const [problem, setProblem] = useState<string | undefined>();
  const titleId = useId();
  const updated = formatFullDate(item.updatedAt);

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    change.mutate(
      { id: item._id, severity, reason: reason.trim() },
      {
        onSuccess: (result) => {
          const changed = result.block.domain;
          toast.success(`${t`${changed}'s block is changed.`}${endedText(result.endedFollows)}`);
          setEditing(false);
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <article className={styles.target} aria-labelledby={titleId}>
      <div className={styles.targetHead}>
        <h3 id={titleId} className={styles.targetTitle}>
          {item.domain}
        </h3>
        <p>
          <strong>{severityLabel ? i18n._(severityLabel.label) : item.severity}</strong>
          {severityLabel && <span className={styles.muted}> · {i18n._(severityLabel.hint)}</span>}
        </p>
        {item.reason && <p className={styles.note}>{item.reason}</p>}
        <p className={styles.muted}>
          <Trans>By @{createdBy}</Trans> · <time dateTime={item.createdAt}>{formatFullDate(item.createdAt)}</time>
          {item.updatedAt !== item.createdAt && (
            <>
              {' · '}
              <Trans>
                changed <time dateTime={item.updatedAt}>{updated}</time>
              </Trans>
            </>
          )}
        </p>
      </div>
      {editing ? (
        <form className={layout.form} onSubmit={onSave} noValidate aria-label={t`Change ${domain}'s block`}>
          <SeverityAndReason
            severity={severity}
            onSeverity={setSeverity}
            reason={reason}
            onReason={setReason}
            busy={change.isPending}
          />
          {problem && (
            <p className={styles.error} role="alert">
              {problem}
            </p>
          )}
          <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
            <Button variant="secondary" onClick={() => setEditing(false)} disabled={change.isPending}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" variant="primary" aria-disabled={change.isPending || undefined}>
              {change.isPending ? t`Saving…` : t`Save`}
            </Button>
          </div>
        </form>
      ) : (
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => setEditing(true)}>
            <Trans>Change</Trans>
          </Button>
          <Button variant="secondary" onClick={() => setLifting(true)}>
            <Trans>Lift the block</Trans>
          </Button>
        </div>
      )}
      {lifting && (
        <ConfirmDialog
          title={t`Lift the block of ${domain}?`}
          confirmLabel={t`Lift`}
          busyLabel={t`Lifting…`}
          busy={lift.isPending}
          stretchActionsWhenNarrow
          onClose={() => setLifting(false)}
          onConfirm={() =>
            lift.mutate(item._id, {
              onSuccess: () => {
                toast.success(t`${domain} is no longer blocked.`);
                setLifting(false);
              },
              onError: (error) => toast.error(errorMessage(error)),
            })
          }
        >
          <Trans>
            Its activities are taken in again. The follows the block ended stay ended: its people follow again from
            their server.
          </Trans>
        </ConfirmDialog>
      )}
    </article>
  );
}

/** The Servers section of /moderation (issue 39): the blocked and silenced servers, and the form to add one. */
export function ServerBlocks() {
  const { t } = useLingui();
  const blocks = useServerBlocks();
  const list = blocks.data?.blocks ?? [];
  return (
    <div className={styles.list}>
      <NewBlockForm />
      {blocks.isPending ? (
        <p className={styles.muted}>
          <Trans>Loading the blocked servers…</Trans>
        </p>
      ) : blocks.isError ? (
        <p className={styles.error} role="alert">
          {errorMessage(blocks.error)}
        </p>
      ) : list.length === 0 ? (
        <p className={styles.muted}>
          <Trans>No server is blocked.</Trans>
        </p>
      ) : (
        <ul className={styles.list} aria-label={t`Blocked servers`}>
          {list.map((item) => (
            <li key={item._id}>
              <BlockItem item={item} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
