import { Trans, useLingui } from '@lingui/react/macro';
import { UserX } from 'lucide-react';
import { NotFound } from '../../../ui/not-found';

/** An unknown username: say so plainly and offer the way home. */
export function UserNotFound({ username }: { username: string }) {
  const { t } = useLingui();
  return (
    <NotFound icon={UserX} title={t`User not found`}>
      <Trans>
        There is nobody called <strong>@{username}</strong> on Share Arts. Check the spelling, or find artists on
        Explore.
      </Trans>
    </NotFound>
  );
}
