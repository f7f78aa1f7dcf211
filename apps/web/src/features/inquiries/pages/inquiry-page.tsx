import type { Inquiry } from '@share-arts/contract';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatFullDate, formatPostTime } from '../../../lib/format-date';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import layout from '../../../ui/dialog-layout.module.css';
import { TextAreaField } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import {
  useAnswerInquiry,
  useChangeInquiryState,
  useDeleteInquiry,
  useInquiry,
  useInquiryMessages,
} from '../api/inquiries-api';
import { ReferencePicture } from '../components/reference-picture';
import { INQUIRY_TEXT } from '../model/limits';
import { budgetText, otherPerson, STATE_LABELS } from '../model/words';
import styles from '../components/inquiry.module.css';

/** The report dialog is the safety feature's, loaded when chosen. */
const ReportDialog = lazy(() => import('../../safety/dialogs').then((module) => ({ default: module.ReportDialog })));

function Request({ inquiry }: { inquiry: Inquiry }) {
  const { t, i18n } = useLingui();
  const budget = budgetText(inquiry.budget, i18n.locale);
  return (
    <section className={styles.request} aria-label={t`The request`}>
      <p className={styles.body}>{inquiry.body}</p>
      <dl className={styles.facts}>
        <div>
          <dt>
            <Trans>State</Trans>
          </dt>
          <dd>
            <strong data-testid="inquiry-state">{i18n._(STATE_LABELS[inquiry.state])}</strong>
            {inquiry.declineReason && <> — {inquiry.declineReason}</>}
          </dd>
        </div>
        {budget && (
          <div>
            <dt>
              <Trans>Budget</Trans>
            </dt>
            <dd>{budget}</dd>
          </div>
        )}
        {inquiry.deadline && (
          <div>
            <dt>
              <Trans>Deadline</Trans>
            </dt>
            <dd>{formatFullDate(`${inquiry.deadline}T00:00:00Z`)}</dd>
          </div>
        )}
        <div>
          <dt>
            <Trans>Sent</Trans>
          </dt>
          <dd>
            <time dateTime={inquiry.createdAt}>{formatFullDate(inquiry.createdAt)}</time>
          </dd>
        </div>
      </dl>
      {inquiry.references.length > 0 && (
        <ul className={styles.references} aria-label={t`Reference pictures`}>
          {inquiry.references.map((reference, index) => (
            <li key={reference._id}>
              <ReferencePicture reference={reference} index={index} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Messages({ id }: { id: string }) {
  const { t } = useLingui();
  const { messages, isPending, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useInquiryMessages(id);
  if (isPending)
    return (
      <p role="status">
        <Trans>Loading messages…</Trans>
      </p>
    );
  if (error && messages.length === 0) return <p role="alert">{errorMessage(error)}</p>;
  return (
    <section aria-label={t`Messages`}>
      {messages.length === 0 ? (
        <p className={styles.muted}>
          <Trans>No messages yet.</Trans>
        </p>
      ) : (
        <ol className={styles.messages}>
          {messages.map((message) => (
            <li key={message._id} className={styles.message}>
              <p className={styles.messageHead}>
                <Link to={`/${encodeURIComponent(message.author.username)}`}>@{message.author.username}</Link>{' '}
                <time dateTime={message.createdAt}>{formatPostTime(message.createdAt)}</time>
              </p>
              <p className={styles.body}>{message.body}</p>
            </li>
          ))}
        </ol>
      )}
      {hasNextPage && (
        <Button variant="secondary" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? t`Loading…` : t`Show later messages`}
        </Button>
      )}
    </section>
  );
}

function AnswerForm({ id }: { id: string }) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const answer = useAnswerInquiry(id);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (answer.isPending) return;
    if (!text.trim()) {
      setProblem(t`Write your answer first.`);
      return;
    }
    setProblem(undefined);
    answer.mutate(text.trim(), {
      onSuccess: () => setText(''),
      onError: (error) => setProblem(errorMessage(error)),
    });
  };
  return (
    <form className={layout.form} onSubmit={onSubmit} noValidate>
      <TextAreaField
        label={t`Your answer`}
        value={text}
        maxLength={INQUIRY_TEXT.message}
        rows={3}
        onChange={(event) => setText(event.target.value)}
        error={problem}
        readOnly={answer.isPending}
      />
      <div className={layout.actions}>
        <Button type="submit" className={layout.busySubmit} aria-disabled={answer.isPending || undefined}>
          {answer.isPending ? t`Sending…` : t`Send answer`}
        </Button>
      </div>
    </form>
  );
}

function DeclineDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useLingui();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const change = useChangeInquiryState(id);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!reason.trim()) {
      setProblem(t`Say why you decline: the client sees it.`);
      return;
    }
    change.mutate(
      { state: 'declined', reason: reason.trim() },
      { onSuccess: onClose, onError: (error) => setProblem(errorMessage(error)) },
    );
  };
  return (
    <Modal title={t`Decline this inquiry`} onClose={onClose} busy={change.isPending} size="sm">
      <form className={layout.form} onSubmit={onSubmit} noValidate>
        <TextAreaField
          label={t`Why you decline`}
          hint={t`The client sees it.`}
          value={reason}
          maxLength={INQUIRY_TEXT.reason}
          rows={3}
          onChange={(event) => setReason(event.target.value)}
          error={problem}
          data-autofocus
          required
        />
        <div className={`${layout.actions} ${layout.stretchWhenNarrow}`}>
          <Button variant="secondary" onClick={onClose} disabled={change.isPending}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" variant="danger" aria-disabled={change.isPending || undefined}>
            {change.isPending ? t`Declining…` : t`Decline`}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function ArtistActions({ inquiry }: { inquiry: Inquiry }) {
  const { t } = useLingui();
  const change = useChangeInquiryState(inquiry._id);
  const [declining, setDeclining] = useState(false);
  const canAccept = inquiry.state === 'open';
  const canFinish = inquiry.state === 'open' || inquiry.state === 'accepted';
  if (!canFinish) return null;
  return (
    <div className={styles.actions} role="group" aria-label={t`Your answer to the request`}>
      {canAccept && (
        <Button onClick={() => change.mutate({ state: 'accepted' })} disabled={change.isPending}>
          <Trans>Accept</Trans>
        </Button>
      )}
      <Button variant="secondary" onClick={() => change.mutate({ state: 'done' })} disabled={change.isPending}>
        <Trans>Mark as done</Trans>
      </Button>
      <Button variant="danger" onClick={() => setDeclining(true)} disabled={change.isPending}>
        <Trans>Decline…</Trans>
      </Button>
      {change.error && (
        <p className={styles.error} role="alert">
          {errorMessage(change.error)}
        </p>
      )}
      {declining && <DeclineDialog id={inquiry._id} onClose={() => setDeclining(false)} />}
    </div>
  );
}

/** /inquiries/:id (issue 42): one request, its thread, and what each of the two may do with it. */
export default function InquiryPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  useDocumentTitle(t`Inquiry`);
  const { data: inquiry, isPending, error } = useInquiry(id);
  const remove = useDeleteInquiry(id);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [reporting, setReporting] = useState(false);
  const headingId = useId();

  if (isPending)
    return (
      <p className={styles.page} role="status">
        <Trans>Loading the inquiry…</Trans>
      </p>
    );
  if (!inquiry) {
    const gone = error instanceof ApiError && error.status === 404;
    return (
      <div className={styles.page} role="alert">
        <p>{gone ? t`There is no such inquiry: it may have been deleted.` : errorMessage(error)}</p>
        <Link to="/inquiries">
          <Trans>All inquiries</Trans>
        </Link>
      </div>
    );
  }
  const other = otherPerson(inquiry);
  const username = other.username;
  return (
    <article className={styles.page} aria-labelledby={headingId}>
      <p>
        <Link to="/inquiries">
          <Trans>← All inquiries</Trans>
        </Link>
      </p>
      <h1 id={headingId} className={styles.title}>
        {inquiry.viewer.role === 'artist' ? (
          <Trans>Inquiry from @{username}</Trans>
        ) : (
          <Trans>Your inquiry to @{username}</Trans>
        )}
      </h1>
      <Request inquiry={inquiry} />
      {inquiry.viewer.role === 'artist' && !inquiry.viewer.otherLeft && <ArtistActions inquiry={inquiry} />}
      <h2 className={styles.subtitle}>
        <Trans>Messages</Trans>
      </h2>
      <Messages id={inquiry._id} />
      {inquiry.viewer.otherLeft ? (
        <p className={styles.muted}>
          <Trans>@{username} deleted this inquiry: it takes no more answers.</Trans>
        </p>
      ) : (
        <AnswerForm id={inquiry._id} />
      )}
      <div className={styles.footer}>
        <Button variant="secondary" onClick={() => setReporting(true)}>
          <Trans>Report…</Trans>
        </Button>
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          <Trans>Delete for me…</Trans>
        </Button>
      </div>
      {reporting && (
        <Suspense fallback={null}>
          <ReportDialog
            targetType="inquiry"
            targetId={inquiry._id}
            what="inquiry"
            onClose={() => setReporting(false)}
          />
        </Suspense>
      )}
      {confirming && (
        <ConfirmDialog
          title={t`Delete this inquiry for you?`}
          confirmLabel={t`Delete`}
          busyLabel={t`Deleting…`}
          busy={remove.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: () => void navigate('/inquiries'),
              onError: () => setConfirming(false),
            })
          }
        >
          <Trans>
            It disappears for you only; @{username} still has it. Once you both delete it, it is gone with its messages
            and pictures.
          </Trans>
        </ConfirmDialog>
      )}
    </article>
  );
}
