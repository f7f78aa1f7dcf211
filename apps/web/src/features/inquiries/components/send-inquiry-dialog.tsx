import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import layout from '../../../ui/dialog-layout.module.css';
import { TextAreaField, TextField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { useSendInquiry } from '../api/inquiries-api';
import { INQUIRY_TEXT } from '../model/limits';
import styles from './send-inquiry.module.css';

interface SendInquiryDialogProps {
  username: string;
  onClose: () => void;
}

/**
 * "Send an inquiry" (issue 42): what the visitor would like, a budget and a deadline (both optional) and up to five
 * reference pictures, which only the two of them will see. Sent, it opens the thread.
 */
export function SendInquiryDialog({ username, onClose }: SendInquiryDialogProps) {
  const { t } = useLingui();
  const [body, setBody] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [deadline, setDeadline] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<string | undefined>();
  const send = useSendInquiry();
  const navigate = useNavigate();
  const filesId = useId();
  const filesHintId = useId();
  const busy = send.isPending;
  const most = INQUIRY_TEXT.references;
  const chosen = files.length;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!body.trim()) {
      setProblem(t`Say what you would like.`);
      return;
    }
    const budgetAmount = amount.trim() ? Number(amount) : undefined;
    if (budgetAmount !== undefined && (!Number.isInteger(budgetAmount) || budgetAmount < 1)) {
      setProblem(t`The budget is a whole amount, such as 150.`);
      return;
    }
    if (budgetAmount !== undefined && !/^[A-Z]{3}$/.test(currency)) {
      setProblem(t`The currency is a three-letter code, such as EUR or USD.`);
      return;
    }
    setProblem(undefined);
    send.mutate(
      {
        body: {
          artist: username,
          body: body.trim(),
          ...(budgetAmount !== undefined ? { budget: { amount: budgetAmount, currency } } : {}),
          ...(deadline ? { deadline } : {}),
        },
        files,
      },
      {
        onSuccess: (inquiry) => {
          onClose();
          void navigate(`/inquiries/${encodeURIComponent(inquiry._id)}`);
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <Modal title={t`Send @${username} an inquiry`} onClose={onClose} busy={busy}>
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <TextAreaField
          label={t`What would you like?`}
          hint={t`The piece, its size and use, anything the artist should know.`}
          value={body}
          maxLength={INQUIRY_TEXT.body}
          rows={5}
          onChange={(event) => setBody(event.target.value)}
          error={problem}
          readOnly={busy}
          data-autofocus
          required
        />
        <div className={styles.row}>
          <TextField
            label={t`Budget (optional)`}
            inputMode="numeric"
            value={amount}
            onChange={(event) => setAmount(event.target.value.replace(/[^0-9]/g, ''))}
            readOnly={busy}
          />
          <TextField
            label={t`Currency`}
            value={currency}
            maxLength={3}
            onChange={(event) => setCurrency(event.target.value.toUpperCase())}
            readOnly={busy}
            className={styles.currency}
          />
          <TextField
            label={t`Deadline (optional)`}
            type="date"
            value={deadline}
            onChange={(event) => setDeadline(event.target.value)}
            readOnly={busy}
          />
        </div>
        <div className={layout.field}>
          <label htmlFor={filesId}>
            <Trans>Reference pictures (optional)</Trans>
          </label>
          <input
            id={filesId}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            multiple
            disabled={busy}
            aria-describedby={filesHintId}
            onChange={(event) => setFiles([...(event.target.files ?? [])].slice(0, INQUIRY_TEXT.references))}
          />
          <p id={filesHintId} className={layout.text}>
            <Trans>
              Up to {most}. Only you and @{username} will see them.
            </Trans>
            {chosen > 0 && (
              <>
                {' '}
                <Trans>{chosen} chosen.</Trans>
              </>
            )}
          </p>
        </div>
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" className={layout.busySubmit} aria-disabled={busy || undefined}>
            {busy ? t`Sending…` : t`Send inquiry`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
