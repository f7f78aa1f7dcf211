import { Trans } from '@lingui/react/macro';
import { Check, Plus } from 'lucide-react';
import { useSignInFirst } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { useToggleFollowTag } from '../api/toggle-follow-tag';
import styles from './tag-header.module.css';

/**
 * Follow / Following a tag (aria-pressed): its posts then come to Home, marked "Because you follow #tag". A
 * visitor reading a shared tag page is asked to sign in first, and comes back here.
 */
export function FollowTagButton({ tag, following }: { tag: string; following: boolean }) {
  const toggle = useToggleFollowTag();
  const signInFirst = useSignInFirst();
  return (
    <Button
      variant={following ? 'secondary' : 'primary'}
      className={styles.follow}
      aria-pressed={following}
      onClick={() => {
        if (signInFirst()) toggle(tag);
      }}
    >
      {following ? <Check aria-hidden="true" size="1.1em" /> : <Plus aria-hidden="true" size="1.1em" />}
      {following ? <Trans>Following</Trans> : <Trans>Follow</Trans>}
    </Button>
  );
}
