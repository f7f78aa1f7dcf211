import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Button } from '../../../ui/button';
import { useRelation, type Relation } from '../api/relations';

interface RelationButtonProps {
  relation: Relation;
  username: string;
  /** true: block / mute; false: unblock / unmute. */
  on: boolean;
  /** Send at once when mounted (a menu item chose it), drawing nothing. */
  immediate?: boolean;
  onDone?: () => void;
}

/** Unblock / Unmute (or the reverse) as a button, or sent at once from a menu. */
export function RelationButton({ relation, username, on, immediate = false, onDone }: RelationButtonProps) {
  const { t } = useLingui();
  const change = useRelation(relation);
  const sent = useRef(false);
  const send = () => change.mutate({ username, on }, { onSettled: onDone });

  useEffect(() => {
    if (!immediate || sent.current) return;
    sent.current = true;
    send();
    // Sent once, when a menu item mounts it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [immediate]);

  if (immediate) return null;
  return (
    <Button variant="secondary" disabled={change.isPending} onClick={send}>
      {relation === 'block' ? (on ? t`Block` : t`Unblock`) : on ? t`Mute` : t`Unmute`}
    </Button>
  );
}
