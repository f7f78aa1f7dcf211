import { Trans } from '@lingui/react/macro';
import { useRef, type FormEvent } from 'react';
import { Button } from '../../../ui/button';
import type { RequestDraft } from '../lib/request';
import type { RequestDraftState } from '../lib/use-request-draft';
import { BodyField } from './body-field';
import { EndpointField } from './endpoint-field';
import { HeaderRows } from './header-rows';
import styles from './request-form.module.css';

interface RequestFormProps {
  request: RequestDraftState;
  pending: boolean;
  onSend: (draft: RequestDraft) => void;
  onCancel: () => void;
  className?: string;
}

/** The request being composed: method and endpoint, headers, body, Send and Cancel. */
export function RequestForm({ request, pending, onSend, onCancel, className }: RequestFormProps) {
  const sendRef = useRef<HTMLButtonElement>(null);
  const { draft, errors } = request;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSend(draft);
  };

  const cancel = () => {
    onCancel();
    // The Cancel button is about to be disabled; keep keyboard focus on the form.
    sendRef.current?.focus();
  };

  return (
    <form
      className={[styles.form, className].filter(Boolean).join(' ')}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="mockman-request-title"
      aria-busy={pending}
    >
      <h2 id="mockman-request-title" className={styles.sectionTitle}>
        <Trans>Request</Trans>
      </h2>

      <EndpointField
        method={draft.method}
        endpoint={draft.endpoint}
        error={errors.endpoint}
        inputRef={request.endpointRef}
        onMethodChange={request.setMethod}
        onEndpointChange={request.changeEndpoint}
      />

      <HeaderRows
        rows={draft.headers}
        onChange={request.updateRow}
        onAdd={request.addRow}
        onRemove={request.removeRow}
        error={errors.headers}
        errorId="mockman-headers-error"
        signedIn={request.signedIn}
      />

      <BodyField
        body={draft.body}
        error={errors.body}
        textareaRef={request.bodyRef}
        onChange={request.changeBody}
        onFormat={request.formatBody}
      />

      <div className={styles.actions}>
        <Button ref={sendRef} type="submit" aria-disabled={pending || undefined}>
          <Trans>Send</Trans>
        </Button>
        <Button variant="secondary" onClick={cancel} disabled={!pending}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
