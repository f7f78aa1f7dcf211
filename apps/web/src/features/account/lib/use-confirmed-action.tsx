import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ConfirmItsYouDialog } from '../components/confirm-its-you-dialog';
import { createConfirmGate, withReauth, type Confirmed } from './reauth';

/**
 * Calls that change what protects the account (issue 38): `confirmed(call)` makes the call, and when the server
 * asks who is there, opens "Confirm it's you" (`dialog`, to render in the component) and makes it once more
 * after the person confirmed. Cancelled, the call fails with `ReauthCancelledError` and nothing changed.
 */
export function useConfirmedAction(): { confirmed: Confirmed; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const [gate] = useState(() => createConfirmGate(setOpen));
  // The control the call started from: disabled while its call runs, it takes focus back once enabled again.
  const focusBack = useRef<HTMLElement | null>(null);

  // The card leaves the page (another part of Settings) with the dialog open: its calls stop there.
  useEffect(() => () => gate.settle(false), [gate]);

  useEffect(() => {
    const target = focusBack.current;
    if (open || !target) return;
    const active = document.activeElement;
    const focusIsLost = !active || active === document.body || active === target;
    if (!target.isConnected || !focusIsLost) {
      focusBack.current = null;
    } else if (!target.matches(':disabled')) {
      focusBack.current = null;
      target.focus();
    }
  });

  const confirmed = useCallback<Confirmed>(
    (call) => {
      const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      return withReauth(call, () => {
        focusBack.current = opener;
        return gate.ask();
      });
    },
    [gate],
  );

  const dialog = open ? (
    <ConfirmItsYouDialog onConfirmed={() => gate.settle(true)} onCancel={() => gate.settle(false)} />
  ) : null;
  return { confirmed, dialog };
}
