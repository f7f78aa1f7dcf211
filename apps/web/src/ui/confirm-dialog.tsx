import { useLingui } from '@lingui/react/macro';
import { useRef, type ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';
import styles from './dialog-layout.module.css';

interface ConfirmDialogProps {
  /** The question, e.g. "Delete post?": the dialog's accessible name. */
  title: string;
  /** What confirming does. */
  children: ReactNode;
  /** The confirm button's text, e.g. "Delete". */
  confirmLabel: string;
  /** The confirm button's text while `busy`, e.g. "Deleting…". */
  busyLabel: string;
  /** The button that backs out, "Cancel" unless said otherwise (e.g. "Keep editing"). */
  cancelLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
  /** While the confirmed action runs: both buttons are disabled. */
  busy?: boolean;
  /** On narrow screens, let the buttons share the whole row. */
  stretchActionsWhenNarrow?: boolean;
}

/** A destructive action's deliberate second step: an alert dialog with Cancel focused first. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  cancelLabel,
  onConfirm,
  onClose,
  busy = false,
  stretchActionsWhenNarrow = false,
}: ConfirmDialogProps) {
  const { t } = useLingui();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const actionsClass = [styles.actions, stretchActionsWhenNarrow && styles.stretchWhenNarrow].filter(Boolean).join(' ');

  return (
    <Modal title={title} role="alertdialog" size="sm" onClose={onClose} initialFocus={cancelRef} busy={busy}>
      <p className={styles.text}>{children}</p>
      <div className={actionsClass}>
        <Button ref={cancelRef} variant="secondary" onClick={onClose} disabled={busy}>
          {cancelLabel ?? t`Cancel`}
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
